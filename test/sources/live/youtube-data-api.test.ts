import { describe, expect, it } from 'vitest';
import {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../src/contract/items.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import type { YoutubeDataApiSource } from '../../../src/sources/providers/youtube-data-api/vidnet.js';
import { assertItems, captureLogger, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';
import { RECORDED } from './recorded.js';

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
  it('fails rather than answer nothing when videos.list completes none of the searched videos', async () => {
    const { pool, src } = setup();
    pool.intercept(on('search')).reply(200, fixture(B, 'search-page2'));
    // statistics of other videos than the search named
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos')).persist();
    const err = await rejection(src.search({ ...search, depth: 1, period: 'all' }));
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/videos.list answered none of the \d+ videos/);
  });

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
      .intercept(on('search', (q) => q.get('pageToken') === 'CBkQAA'))
      .reply(200, fixture(B, 'search-page2'));
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos-for-search'));
    const res = await src.search(search);
    expect(res.sortingApplied).toBe('native');
    expect(res.videos.map((v) => v.video_id)).toEqual(RECORDED.youtubeSearchIds);
    assertItems(VidnetVideo, res.videos);
    const first = seen[0];
    expect(first?.get('order')).toBe('date');
    expect(first?.get('type')).toBe('video');
    expect(first?.get('maxResults')).toBe('50');
    expect(first?.get('publishedAfter')).toBe('2024-04-26T12:00:00.000Z');
    const [a, , c] = res.videos;
    expect(a?.title).toBe('SURFING HAWAII’S BEST WAVE WITH MY GIRLFRIEND (PIPELINE)');
    expect(a?.stats).toEqual({ views: 22, likes: 0, comments: 0 });
    expect(a?.thumbnail).toBe('https://i.ytimg.com/vi/gQ_1zX-F_No/hqdefault.jpg');
    // the recorded statistics have no commentCount here: null, not 0
    expect(c?.stats).toEqual({ views: 6969757, likes: 88740, comments: null });
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
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos-for-search')).persist();
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

  it('reads comments across two pages, each thread once', async () => {
    const { pool, src } = setup();
    pool
      .intercept(on('commentThreads', (q) => !q.has('pageToken') && q.get('videoId') === 'F1UP7wRCPH8'))
      .reply(200, fixture(B, 'comment-threads-page1'));
    pool
      .intercept(on('commentThreads', (q) => q.get('pageToken') === RECORDED.youtubeCommentsToken))
      .reply(200, fixture(B, 'comment-threads-page2'));
    const comments = await src.comments({
      video: { id: 'F1UP7wRCPH8', form: 'id', input: 'F1UP7wRCPH8' },
      limit: 50,
    });
    // the recorded second page repeats the first one's threads
    expect(comments).toHaveLength(5);
    assertItems(VidnetComment, comments);
    expect(comments[0]).toMatchObject({
      id: 'UgyZ1jqkHKYvi1-ruOZ4AaABAg',
      author: 'himani agarwal',
      likes: 0,
      timestamp: '2019-11-26T15:51:44.000Z',
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
      .intercept(on('channels', (q) => q.get('id') === 'UCK8sQmJBp8GCxrOtXWBpyEA'))
      .reply(200, fixture(B, 'channels'))
      .times(2);
    pool
      .intercept(on('playlistItems', (q) => q.get('playlistId') === 'UUK8sQmJBp8GCxrOtXWBpyEA'))
      .reply(200, fixture(B, 'playlist-items'))
      .times(2);
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos')).times(2);
    const videos = await src.channelVideos({ browseId: 'UCK8sQmJBp8GCxrOtXWBpyEA', depth: 1, max: 3 });
    assertItems(VidnetChannelVideo, videos);
    expect(videos.map((v) => [v.video_id, v.duration_seconds, v.is_short])).toEqual([
      ['BaxEJ2xaB1Q', 14, true],
      ['uyv0IDzMtf0', 714, false],
      ['YzHmV21nvGY', 189, false],
    ]);
    const shorts = await src.channelShorts({ browseId: 'UCK8sQmJBp8GCxrOtXWBpyEA', max: 10 });
    expect(shorts.map((v) => v.video_id)).toEqual(['BaxEJ2xaB1Q', 'Ph7IDkvpM3g', 'bUi2Rb5DIVE']);
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
      .reply(200, fixture(B, 'search-page1'));
    pool.intercept(on('videos')).reply(200, fixture(B, 'videos-for-search'));
    const all = await src.hashtag({ hashtag: 'surfing', depth: 1, onlyShorts: true, max: 10 });
    expect(q?.get('q')).toBe('#surfing');
    expect(q?.get('videoDuration')).toBe('short');
    assertItems(VidnetHashtagVideo, all);
    expect(all.map((v) => [v.video_id, v.duration_seconds])).toEqual([
      ['gQ_1zX-F_No', 32],
      ['i2hewkFijuY', 33],
    ]);
  });

  it('reports a recorded permission refusal as an upstream error, sent once', async () => {
    const { pool, src } = setup();
    let calls = 0;
    pool
      .intercept(
        on('channels', () => {
          calls++;
          return true;
        }),
      )
      .reply(403, fixture(B, 'error-permission'))
      .persist();
    const err = await rejection(
      src.channelVideos({ browseId: 'UCK8sQmJBp8GCxrOtXWBpyEA', depth: 1, max: 5 }),
    );
    expect(err.kind).toBe('upstream');
    expect(calls).toBe(1);
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
