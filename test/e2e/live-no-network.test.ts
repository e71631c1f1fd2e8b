// With live backends configured and no network at all, every content call fails fast with
// EXTERNAL_API_ERROR or SERVICE_UNAVAILABLE, costs nothing, leaves no hold behind, and the
// service stays healthy. Two ways of having no network: base URLs on a closed port of
// 127.0.0.1 (configuration only, default HTTP settings), and a dispatcher that refuses every
// connection (for youtubei, whose hosts are fixed).
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSources } from '../../src/sources/index.js';
import { refusingAgent } from '../sources/live/helpers.js';
import { closedPort } from '../sources/live/stub.js';
import { startApp, type TestApp } from '../support/app.js';

const CREDITS = 1000;
/** generous: a failed call takes well under a second; the request timeout is 60 s */
const FAST_ENOUGH_MS = 10_000;

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['/clipnet/posts', { username: 'brewlab' }],
  ['/clipnet/comments', { post_urls: ['https://www.tiktok.com/@brewlab/video/7321987654321098761'] }],
  ['/clipnet/bulk/posts', { usernames: ['brewlab', 'foamstudio'] }],
  ['/clipnet/hashtag/posts', { hashtags: ['coffee', 'latteart'] }],
  ['/picnet/posts', { username: 'brewlab' }],
  ['/picnet/comments', { post_urls: ['https://www.instagram.com/p/C8abcDE1xyz/'] }],
  ['/picnet/hashtag/posts', { hashtags: ['latteart'] }],
  ['/vidnet/search', { keywords: ['coffee'], sorting: 'date' }],
  ['/vidnet/hashtag/search', { hashtags: ['coffee'], only_shorts: true }],
  ['/vidnet/comments', { post_urls: ['https://youtu.be/dQw4w9WgXcQ'] }],
  ['/vidnet/channel/videos', { browse_ids: ['UCuAXFkgsw1L7xaCfnd5JJOw'] }],
  ['/vidnet/channel/shorts', { browse_ids: ['UCuAXFkgsw1L7xaCfnd5JJOw'] }],
];

async function everyCallFailsFastAndFree(t: TestApp) {
  const before = await t.balance();
  for (const [path, body] of CALLS) {
    const started = Date.now();
    const r = await t.post(path, body);
    const ms = Date.now() - started;
    expect([502, 503], `${path}: ${r.body}`).toContain(r.statusCode);
    const j = r.json();
    expect(['EXTERNAL_API_ERROR', 'SERVICE_UNAVAILABLE']).toContain(j.error.code);
    expect(j.metadata.credits_used).toBe(0);
    expect(ms, `${path} took ${ms} ms`).toBeLessThan(FAST_ENOUGH_MS);
    expect(await t.balance()).toBe(before);
  }
  const rec = await t.ledger.reconcile();
  expect(rec.problems).toEqual([]);
  expect(rec.openHolds).toBe(0);
  for (const url of ['/healthz', '/readyz']) {
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(200);
  }
}

describe('no network: base URLs on a closed port (configuration only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const config = loadConfig({
      CLIPNET_SOURCE: 'scrapekit,datadepth',
      PICNET_SOURCE: 'datadepth',
      VIDNET_SOURCE: 'youtube-data-api,datadepth',
      SCRAPEKIT_BASE_URL: dead,
      SCRAPEKIT_API_KEY: 'test-key',
      DATADEPTH_BASE_URL: `${dead}/apis`,
      DATADEPTH_TOKEN: 'test-token',
      YOUTUBE_API_BASE_URL: `${dead}/youtube/v3`,
      YOUTUBE_API_KEY: 'test-youtube-key',
    });
    t = await startApp({ sources: await createSources(config, pino({ level: 'silent' })), credits: CREDITS });
  });
  afterAll(async () => t?.close());

  it('every content call fails fast, costs nothing, and the service stays healthy', async () => {
    await everyCallFailsFastAndFree(t);
  }, 120_000);
});

describe('no network: a dispatcher that refuses every connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    const config = loadConfig({
      CLIPNET_SOURCE: 'clipnet-research',
      PICNET_SOURCE: 'picnet-graph,scrapekit',
      VIDNET_SOURCE: 'youtubei',
      CLIPNET_RESEARCH_CLIENT_KEY: 'test-client-key',
      CLIPNET_RESEARCH_CLIENT_SECRET: 'test-client-secret',
      PICNET_GRAPH_ACCESS_TOKEN: 'test-graph-token',
      PICNET_GRAPH_USER_ID: '17841400000000000',
      SCRAPEKIT_BASE_URL: 'https://api.scrapekit.test',
      SCRAPEKIT_API_KEY: 'test-key',
    });
    const sources = await createSources(config, pino({ level: 'silent' }), { dispatcher: refusingAgent() });
    t = await startApp({ sources, credits: CREDITS });
  });
  afterAll(async () => t?.close());

  it('every content call fails fast, costs nothing, and the service stays healthy', async () => {
    await everyCallFailsFastAndFree(t);
  }, 120_000);
});
