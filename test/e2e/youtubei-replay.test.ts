// The real server with VIDNET_SOURCE=youtubei and YOUTUBEI_BASE_URL at a local server that
// replays responses the platform really sent (recorded by NewPipeExtractor and Invidious; see
// test/fixtures/live/youtubei/SOURCES.md): every vidnet endpoint returns the recorded items,
// and sends no more upstream requests than what was asked for needs.
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../src/contract/items.js';
import { createSources } from '../../src/sources/index.js';
import { assertItems } from '../sources/live/helpers.js';
import {
  COMMENTS_D00A,
  COMMENTS_XAQJ,
  channelGrid,
  RECORDED_AT,
  type Replay,
  SEARCH_TEST_IDS,
  startChangedReplay,
  startReplay,
} from '../sources/live/replay.js';
import { startApp, type TestApp } from '../support/app.js';

const NOW = RECORDED_AT;
const ago = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

async function appAt(replay: Replay, credits = 10_000): Promise<TestApp> {
  const config = loadConfig({
    CLIPNET_SOURCE: 'sandbox',
    PICNET_SOURCE: 'sandbox',
    VIDNET_SOURCE: 'youtubei',
    YOUTUBEI_BASE_URL: replay.origin,
  });
  const sources = await createSources(config, pino({ level: 'silent' }), { now: () => NOW });
  // no response cache: each call below must reach the upstream to be counted
  return startApp({ sources, credits, env: { CACHE_TTL_SECONDS: '0' } });
}

let replay: Replay;
let t: TestApp;
beforeAll(async () => {
  replay = await startReplay();
  t = await appAt(replay);
});
afterEach(() => {
  replay.reset();
  expect(replay.unmatched.splice(0)).toEqual([]);
});
afterAll(async () => {
  const rec = await t?.ledger.reconcile();
  expect(rec?.problems).toEqual([]);
  await t?.close();
  await replay?.close();
});

async function ok(path: string, body: unknown, app = t) {
  const r = await app.post(path, body);
  expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
  const j = r.json();
  expect(j.metadata.source).toBe('live');
  return j;
}

const ids = (items: Array<{ video_id: string }>) => items.map((v) => v.video_id);

describe('vidnet on youtubei, replayed from recordings, through HTTP', () => {
  it('/vidnet/search: keyword results of the asked depth, shelves left out, two requests', async () => {
    const j = await ok('/vidnet/search', {
      keywords: ['test'],
      depth: 2,
      period: 'all',
      max_posts_per_keyword: 100,
    });
    assertItems(VidnetVideo, j.data.videos);
    expect(ids(j.data.videos)).toEqual(SEARCH_TEST_IDS);
    expect(j.data.total_videos).toBe(14);
    expect(j.data.videos[3]).toMatchObject({
      title: 'BLIND TEST ANNÉE 2000 À 2020 - 50 EXTRAITS',
      channel_title: '100% Blind Test',
      published_at: ago(7 * 30),
      stats: { views: 408503, likes: null, comments: null },
      source_keyword: 'test',
    });
    expect(j.metadata.sorting_applied).toBe('native');
    expect(j.metadata.credits_used).toBe(2 + 14);
    expect(replay.counts()).toEqual({ search: 2 });
  });

  it('/vidnet/search: depth 1 and a small max: one request per keyword; a collaboration video keeps its first channel', async () => {
    const j = await ok('/vidnet/search', {
      keywords: ['test', 'Nxk6aRHi664'],
      depth: 1,
      period: 'all',
      max_posts_per_keyword: 2,
    });
    expect(ids(j.data.videos)).toEqual(['Z8KYabgkMbw', '0YWt4Ai8q_g', 'Nxk6aRHi664']);
    expect(j.data.videos[2]).toMatchObject({
      channel_id: 'UCZxLew-WXWm5dhRZBgEFl-Q',
      channel_title: 'Le Vortex - ARTE',
      source_keyword: 'Nxk6aRHi664',
    });
    expect(j.metadata.warnings ?? []).toEqual([]);
    expect(replay.counts()).toEqual({ search: 2 });
  });

  it('/vidnet/channel/videos: the lockup items of two pages', async () => {
    const j = await ok('/vidnet/channel/videos', { browse_ids: ['UCTwECeGqMZee77BjdoYtI2Q'], depth: 2 });
    assertItems(VidnetChannelVideo, j.data.videos);
    expect(j.data.total_videos).toBe(13);
    expect(ids(j.data.videos).slice(0, 3)).toEqual(['BD-LB23rRBE', 'ea1MAxH0KJc', 'zXhTF-T24fw']);
    expect(j.data.videos[0]).toMatchObject({
      channel_title: 'Creative Commons',
      published_at: ago(13),
      duration_seconds: 4054,
      is_short: false,
      stats: { views: 28 },
      source_browse_id: 'UCTwECeGqMZee77BjdoYtI2Q',
    });
    expect(replay.counts()).toEqual({ browse: 2 });
  });

  it('/vidnet/channel/shorts with credits for 10: one browse, ten /player calls', async () => {
    const { key } = await t.newKey(12);
    const r = await t.post(
      '/vidnet/channel/shorts',
      { browse_ids: ['UCh8gHdtzO2tXd593_bjErWg'] },
      { 'x-api-key': key },
    );
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    assertItems(VidnetChannelVideo, j.data.shorts);
    expect(j.data.total_shorts).toBe(10);
    expect(j.metadata.credits_used).toBe(12);
    expect(j.data.shorts[0]).toMatchObject({
      video_id: 'l-X5WbDSH2o',
      title: 'Packing lunch for my special roommate',
      channel_title: 'Doobydobap',
      published_at: '2025-12-20T17:00:00.000Z',
      is_short: true,
    });
    expect(replay.counts()).toEqual({ browse: 1, player: 10 });
  });

  it('/vidnet/hashtag/search: the recorded feed, one request', async () => {
    const j = await ok('/vidnet/hashtag/search', { hashtags: ['#martingarrix'], depth: 1 });
    assertItems(VidnetHashtagVideo, j.data.videos);
    expect(j.data.total_videos).toBe(8);
    expect(j.data.videos[1]).toMatchObject({
      video_id: '7xpja4fejbk',
      channel_title: 'Martin Garrix',
      published_at: ago(30),
      duration_seconds: 3673,
      source_hashtag: 'martingarrix',
    });
    expect(replay.counts()).toEqual({ browse: 1 });
  });

  it('/vidnet/comments: top-level comments of two videos, one request each', async () => {
    const j = await ok('/vidnet/comments', {
      post_urls: ['https://www.youtube.com/watch?v=xaQJbozY_Is', 'https://youtu.be/D00Au7k3i6o'],
      limit_per_post: 6,
    });
    assertItems(VidnetComment, j.data.comments);
    expect(j.data.comments.map((c: { id: string; author: string }) => [c.id, c.author])).toEqual([
      ...COMMENTS_XAQJ,
      ...COMMENTS_D00A,
    ]);
    expect(j.data.comments[0]).toMatchObject({
      video_id: 'xaQJbozY_Is',
      likes: 9800,
      timestamp: ago(4 * 365),
    });
    expect(j.metadata.credits_used).toBe(1 + 9 * 0.5);
    expect(replay.counts()).toEqual({ next: 2 });
  });

  it('a removed channel alone is a 404 naming why, that costs nothing', async () => {
    const r = await t.post('/vidnet/channel/videos', { browse_ids: ['UCoaO4U_p7G7AwalqSbGCZOA'] });
    expect(r.statusCode).toBe(404);
    const j = r.json();
    expect(j.error).toEqual({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/removed because it violated our Community Guidelines/),
    });
    expect(j.metadata.credits_used).toBe(0);
    expect(replay.counts()).toEqual({ browse: 1 });
  });
});

describe('drift through HTTP: one unreadable lockup', () => {
  let changed: Replay;
  let app: TestApp;
  beforeAll(async () => {
    changed = await startChangedReplay('channel-videos-page1', (body) => {
      delete channelGrid(body)[2].richItemRenderer.content.lockupViewModel.contentId;
    });
    app = await appAt(changed);
  });
  afterAll(async () => {
    await app?.close();
    await changed?.close();
  });

  it('is left out, the reply warns ITEMS_SKIPPED, and the metric counts it', async () => {
    const j = await ok('/vidnet/channel/videos', { browse_ids: ['UCTwECeGqMZee77BjdoYtI2Q'], depth: 1 }, app);
    expect(j.data.total_videos).toBe(7);
    expect(ids(j.data.videos)).not.toContain('zXhTF-T24fw');
    expect(j.metadata.warnings).toEqual([
      expect.objectContaining({ target: 'UCTwECeGqMZee77BjdoYtI2Q', code: 'ITEMS_SKIPPED' }),
    ]);
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/gleaner_upstream_items_skipped_total\{[^}]*backend="youtubei"[^}]*\} 1\b/);
  });
});
