import { describe, expect, it } from 'vitest';
import {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../src/contract/items.js';
import { createLiveSource } from '../../../src/sources/live/index.js';
import type { YoutubeDataApiSource } from '../../../src/sources/vidnet/youtube-data-api.js';
import { assertItems, captureLogger, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';

const KEY = 'AIzaSyTEST-not-a-real-key-0123456789';
const ORIGIN = 'https://www.googleapis.com';
const B = 'youtube-data-api';

function setup(env: Record<string, string> = {}) {
  const agent = mockAgent();
  const pool = agent.get(ORIGIN);
  const { logger, lines } = captureLogger();
  const src = createLiveSource(
    'vidnet',
    B,
    { ...FAST, YOUTUBE_API_KEY: KEY, ...env },
    {
      dispatcher: agent,
      logger,
      now: () => FIXED_NOW,
    },
  ) as YoutubeDataApiSource;
  return { agent, pool, src, lines };
}

const on = (prefix: string, extra?: (q: URLSearchParams) => boolean) => ({
  method: 'GET',
  path: (p: string) => {
    const u = new URL(p, ORIGIN);
    return u.pathname === `/youtube/v3/${prefix}` && (extra ? extra(u.searchParams) : true);
  },
});

const search = { keyword: 'coffee', max: 100, depth: 2, period: 'week' as const, sorting: 'date' as const };

describe('youtube-data-api', () => {
  it('searches two pages, joins statistics, and never invents hidden counts', async () => {
    const { pool, src, agent } = setup();
    const seen: URLSearchParams[] = [];
    pool
      .intercept(
        on('search', (q) => {
          if (q.has('pageToken')) return false;
          seen.push(q);
          return true;
        }),
      )
      .reply(200, fixture(B, 'search-page1'));
    pool
      .intercept(on('search', (q) => q.get('pageToken') === 'CDIQAA'))
      .reply(200, fixture(B, 'search-page2'));
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos'));
    const res = await src.search(search);
    expect(res.sortingApplied).toBe('native');
    expect(res.videos.map((v) => v.video_id)).toEqual(['dQw4w9WgXcQ', '9bZkp7q19f0', 'kJQP7kiw5Fk']);
    assertItems(VidnetVideo, res.videos);
    const first = seen[0];
    expect(first?.get('order')).toBe('date');
    expect(first?.get('type')).toBe('video');
    expect(first?.get('maxResults')).toBe('50');
    expect(first?.get('publishedAfter')).toBe('2024-04-26T12:00:00.000Z');
    const [a, b, c] = res.videos;
    expect(a?.title).toBe('Coffee brewing & grinding');
    expect(a?.stats).toEqual({ views: 154302, likes: 8120, comments: 412 });
    expect(a?.thumbnail).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
    expect(b?.stats).toEqual({ views: 98000, likes: null, comments: null });
    expect(c?.stats.comments).toBe(0);
    expect(src.quotaUnitsSpent()).toBe(201);
    agent.assertNoPendingInterceptors();
  });

  it('calls search.list at most depth times per keyword', async () => {
    const { pool, src } = setup();
    let searches = 0;
    pool
      .intercept(
        on('search', () => {
          searches++;
          return true;
        }),
      )
      .reply(200, fixture(B, 'search-page1'))
      .persist();
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos')).persist();
    await src.search({ ...search, depth: 3 });
    expect(searches).toBe(3);
  });

  it('refuses calls beyond the daily quota as throttled, without calling', async () => {
    const { src } = setup({ YOUTUBE_DAILY_QUOTA: '50' });
    const err = await rejection(src.search(search));
    expect(err.kind).toBe('throttled');
    expect(err.options.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('maps quotaExceeded to throttled', async () => {
    const { pool, src } = setup({ UPSTREAM_RETRIES: '0' });
    pool.intercept(on('search')).reply(403, fixture(B, 'error-quota'));
    const err = await rejection(src.search(search));
    expect(err.kind).toBe('throttled');
  });

  it('reads comments across two pages', async () => {
    const { pool, src } = setup();
    pool
      .intercept(on('commentThreads', (q) => !q.has('pageToken') && q.get('videoId') === 'dQw4w9WgXcQ'))
      .reply(200, fixture(B, 'comment-threads-page1'));
    pool
      .intercept(on('commentThreads', (q) => q.get('pageToken') === 'QURTSl9pMkdWZ2s'))
      .reply(200, fixture(B, 'comment-threads-page2'));
    const comments = await src.comments({
      video: { id: 'dQw4w9WgXcQ', form: 'id', input: 'dQw4w9WgXcQ' },
      limit: 50,
    });
    expect(comments).toHaveLength(3);
    assertItems(VidnetComment, comments);
    expect(comments[0]).toMatchObject({
      id: 'UgzX1aaaaaaaaaaa',
      author: '@maria_brews',
      likes: 12,
      timestamp: '2024-05-01T12:00:00.000Z',
    });
  });

  it('treats a missing video as not_found and disabled comments as no comments', async () => {
    const { pool, src } = setup();
    pool
      .intercept(on('commentThreads', (q) => q.get('videoId') === 'missing0000'))
      .reply(404, fixture(B, 'error-video-not-found'));
    pool
      .intercept(on('commentThreads', (q) => q.get('videoId') === 'closed00000'))
      .reply(403, fixture(B, 'error-comments-disabled'));
    const ref = (id: string) => ({ video: { id, form: 'id' as const, input: id }, limit: 10 });
    expect((await rejection(src.comments(ref('missing0000')))).kind).toBe('not_found');
    expect(await src.comments(ref('closed00000'))).toEqual([]);
  });

  it('lists channel videos and Shorts through the uploads playlist', async () => {
    const { pool, src } = setup();
    pool
      .intercept(on('channels', (q) => q.get('id') === 'UCuAXFkgsw1L7xaCfnd5JJOw'))
      .reply(200, fixture(B, 'channels'))
      .times(2);
    pool
      .intercept(on('playlistItems', (q) => q.get('playlistId') === 'UUuAXFkgsw1L7xaCfnd5JJOw'))
      .reply(200, fixture(B, 'playlist-items'))
      .times(2);
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos')).times(2);
    const videos = await src.channelVideos({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', depth: 1, max: 50 });
    assertItems(VidnetChannelVideo, videos);
    expect(videos.map((v) => [v.video_id, v.duration_seconds, v.is_short])).toEqual([
      ['dQw4w9WgXcQ', 751, false],
      ['9bZkp7q19f0', 45, true],
      ['kJQP7kiw5Fk', 3723, false],
    ]);
    const shorts = await src.channelShorts({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', max: 10 });
    expect(shorts.map((v) => v.video_id)).toEqual(['9bZkp7q19f0']);
  });

  it('reports an unknown channel as not_found', async () => {
    const { pool, src } = setup();
    pool.intercept(on('channels')).reply(200, fixture(B, 'channels-empty'));
    expect((await rejection(src.channelVideos({ browseId: 'UCnope', depth: 1, max: 5 }))).kind).toBe(
      'not_found',
    );
  });

  it('searches hashtags as #tag and keeps only Shorts when asked', async () => {
    const { pool, src } = setup();
    let q: URLSearchParams | undefined;
    pool
      .intercept(
        on('search', (p) => {
          q = p;
          return true;
        }),
      )
      .reply(200, fixture(B, 'search-page2'));
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos'));
    const all = await src.hashtag({ hashtag: 'latteart', depth: 1, onlyShorts: true, max: 10 });
    expect(q?.get('q')).toBe('#latteart');
    expect(q?.get('videoDuration')).toBe('short');
    assertItems(VidnetHashtagVideo, all);
    expect(all.map((v) => v.video_id)).toEqual([]);
  });

  it('never logs or reports the API key', async () => {
    const { pool, src, lines } = setup({ UPSTREAM_RETRIES: '1' });
    pool.intercept(on('search')).reply(503, `upstream echo key=${KEY}`);
    pool.intercept(on('search')).reply(400, fixture(B, 'error-key-invalid'));
    const err = await rejection(src.search(search));
    expect(err.kind).toBe('upstream');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).not.toContain(KEY);
    expect(err.message).not.toContain(KEY);
    expect(lines.join('')).toContain('key=[redacted]');
  });
});
