import { describe, expect, it } from 'vitest';
import { VidnetChannelVideo, VidnetComment, VidnetVideo } from '../../../src/contract/items.js';
import { createLiveSource } from '../../../src/sources/live/index.js';
import {
  parseCount,
  parseDuration,
  parseRelativeTime,
  parseViews,
} from '../../../src/sources/vidnet/youtubei.js';
import { assertItems, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';

const ORIGIN = 'https://www.youtube.com';
const B = 'youtubei';

function setup(env: Record<string, string> = {}) {
  const agent = mockAgent();
  const pool = agent.get(ORIGIN);
  const src = createLiveSource('vidnet', B, { ...FAST, ...env }, { dispatcher: agent, now: () => FIXED_NOW });
  return { agent, pool, src };
}

const api = (endpoint: string, body?: (b: Record<string, unknown>) => boolean) => ({
  method: 'POST',
  path: (p: string) => new URL(p, ORIGIN).pathname === `/youtubei/v1/${endpoint}`,
  body: (b: string) => (body ? body(JSON.parse(b) as Record<string, unknown>) : true),
});

const search = {
  keyword: 'coffee',
  max: 100,
  depth: 2,
  period: 'week' as const,
  sorting: 'relevance' as const,
};

describe('youtubei display-text parsing', () => {
  it('reads counts, durations and relative times', () => {
    expect(parseViews('1,234,567 views')).toBe(1234567);
    expect(parseViews('1.2M views')).toBe(1200000);
    expect(parseViews('No views')).toBe(0);
    expect(parseViews('1 view')).toBe(1);
    expect(parseCount('3.4K')).toBe(3400);
    expect(parseCount('')).toBe(0);
    expect(parseCount('lots')).toBeNull();
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('12:31')).toBe(751);
    expect(parseDuration('SHORTS')).toBeNull();
    expect(parseRelativeTime('3 days ago', FIXED_NOW)?.toISOString()).toBe('2024-04-30T12:00:00.000Z');
    expect(parseRelativeTime('Streamed 1 week ago', FIXED_NOW)?.toISOString()).toBe(
      '2024-04-26T12:00:00.000Z',
    );
    expect(parseRelativeTime('yesterday-ish', FIXED_NOW)).toBeNull();
  });
});

describe('youtubei backend', () => {
  it('creates its session offline and searches two continuation pages', async () => {
    const { pool, src, agent } = setup();
    let firstBody: Record<string, unknown> | undefined;
    pool
      .intercept(
        api('search', (b) => {
          if (typeof b.query !== 'string') return false;
          firstBody = b;
          return true;
        }),
      )
      .reply(200, fixture(B, 'search-page1'));
    pool
      .intercept(api('search', (b) => b.continuation === 'EpMDEgZjb2ZmZWUa_SEARCH_PAGE_2'))
      .reply(200, fixture(B, 'search-page2'));
    const res = await src.search(search);
    expect(firstBody?.query).toBe('coffee');
    expect(typeof firstBody?.params).toBe('string'); // youtubei.js encoded the upload-date filter
    expect(res.sortingApplied).toBe('native');
    assertItems(VidnetVideo, res.videos);
    // the live stream (concurrent viewers, no date) is left out
    expect(res.videos.map((v) => v.video_id)).toEqual(['dQw4w9WgXcQ', '9bZkp7q19f0', 'kJQP7kiw5Fk']);
    expect(res.videos[0]).toMatchObject({
      channel_id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      channel_title: 'Brew Lab',
      description: 'How we grind and brew our coffee',
      published_at: '2024-05-01T12:00:00.000Z',
      stats: { views: 154302, likes: null, comments: null },
    });
    expect(res.videos[1]?.stats.views).toBe(1200000);
    expect(res.videos[2]?.stats.views).toBe(0);
    agent.assertNoPendingInterceptors();
  });

  it('emulates date sorting over the whole depth', async () => {
    const { pool, src } = setup();
    pool.intercept(api('search', (b) => typeof b.query === 'string')).reply(200, fixture(B, 'search-page1'));
    pool
      .intercept(api('search', (b) => typeof b.continuation === 'string'))
      .reply(200, fixture(B, 'search-page2'));
    const res = await src.search({ ...search, sorting: 'date', max: 2 });
    expect(res.sortingApplied).toBe('emulated');
    expect(res.videos.map((v) => v.video_id)).toEqual(['kJQP7kiw5Fk', 'dQw4w9WgXcQ']);
  });

  it('reports a renamed renderer field as schema drift', async () => {
    const { pool, src } = setup();
    pool.intercept(api('search')).reply(200, fixture(B, 'search-drift'));
    const err = await rejection(src.search({ ...search, depth: 1 }));
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/schema drift/);
  });
});

describe('youtubei comments and channels', () => {
  it('reads comments (entity-payload layout) across a continuation', async () => {
    const { pool, src } = setup();
    pool
      .intercept(api('next', (b) => b.continuation !== 'Eg0SC2RRdzR3OVdnWGNRGAYy_COMMENTS_2'))
      .reply(200, fixture(B, 'comments-page1'));
    pool
      .intercept(api('next', (b) => b.continuation === 'Eg0SC2RRdzR3OVdnWGNRGAYy_COMMENTS_2'))
      .reply(200, fixture(B, 'comments-page2'));
    const comments = await src.comments({
      video: { id: 'dQw4w9WgXcQ', form: 'id', input: 'dQw4w9WgXcQ' },
      limit: 10,
    });
    assertItems(VidnetComment, comments);
    expect(comments.map((c) => [c.id, c.author, c.likes])).toEqual([
      ['UgzY1', '@maria_brews', 1200],
      ['UgzY2', '@joe', 0],
      ['UgzY3', '@lee', 3],
    ]);
    expect(comments[1]?.timestamp).toBe('2024-05-03T07:00:00.000Z');
  });

  it('lists channel videos by browse id, with durations and Shorts flags', async () => {
    const { pool, src } = setup();
    pool
      .intercept(api('browse', (b) => b.browseId === 'UCuAXFkgsw1L7xaCfnd5JJOw'))
      .reply(200, fixture(B, 'channel-videos'));
    const videos = await src.channelVideos({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', depth: 2, max: 10 });
    assertItems(VidnetChannelVideo, videos);
    expect(
      videos.map((v) => [v.video_id, v.channel_title, v.duration_seconds, v.is_short, v.stats.views]),
    ).toEqual([
      ['dQw4w9WgXcQ', 'Brew Lab', 751, false, 154302],
      ['9bZkp7q19f0', 'Brew Lab', 45, true, 98000],
    ]);
  });

  it('completes Shorts from /player with exact dates and counts', async () => {
    const { pool, src } = setup();
    pool.intercept(api('browse')).reply(200, fixture(B, 'channel-shorts'));
    pool.intercept(api('player', (b) => b.videoId === 'SHORT000001')).reply(200, fixture(B, 'player-short'));
    const shorts = await src.channelShorts({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', max: 5 });
    assertItems(VidnetChannelVideo, shorts);
    expect(shorts[0]).toMatchObject({
      video_id: 'SHORT000001',
      published_at: '2024-04-28T10:00:00.000Z',
      duration_seconds: 28,
      is_short: true,
      stats: { views: 1104332, likes: null, comments: null },
    });
  });

  it('reports an unknown channel as not_found', async () => {
    const { pool, src } = setup();
    pool.intercept(api('browse')).reply(200, fixture(B, 'channel-not-found'));
    expect((await rejection(src.channelVideos({ browseId: 'UCnope', depth: 1, max: 5 }))).kind).toBe(
      'not_found',
    );
    pool
      .intercept(api('browse'))
      .reply(404, '{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}');
    expect((await rejection(src.channelVideos({ browseId: 'UCnope', depth: 1, max: 5 }))).kind).toBe(
      'not_found',
    );
  });
});
