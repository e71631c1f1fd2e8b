// Content endpoints on the live backends, through the real app, wired from configuration
// alone: the backends' base-URL variables (YOUTUBEI_BASE_URL included) point at a local stub
// (node:http on 127.0.0.1) that answers with the recorded upstream fixtures. The provider and
// official backends are checked endpoint by endpoint in live-recordings.test.ts, youtubei in
// youtubei-replay.test.ts; here they serve the failover and cursor cases.
import type { TSchema } from '@sinclair/typebox';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  ClipnetPost,
  HashtagPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../src/contract/items.js';
import { createSources } from '../../src/sources/index.js';
import { assertItems, FIXED_NOW } from '../sources/live/helpers.js';
import { GRAPH_USER_ID, RECORDED_NOW } from '../sources/live/recorded.js';
import { fixtureRoutes, type Stub, startStub } from '../sources/live/stub.js';
import { startApp, type TestApp } from '../support/app.js';

const CREDITS = 10_000;
let stub: Stub;
/** an upstream that is up but failing: every request answers 503 */
let broken: Stub;

beforeAll(async () => {
  stub = await startStub(fixtureRoutes);
  broken = await startStub(() => ({ status: 503, body: '{"detail":"Service temporarily unavailable"}' }));
});
afterAll(async () => {
  await stub?.close();
  await broken?.close();
});

/** the variables every backend needs, all pointing at the stub */
function liveEnv(origin: string): Record<string, string> {
  return {
    SCRAPEKIT_BASE_URL: origin,
    SCRAPEKIT_API_KEY: 'test-key',
    DATADEPTH_BASE_URL: `${origin}/apis`,
    DATADEPTH_TOKEN: 'test-token',
    CLIPNET_RESEARCH_BASE_URL: origin,
    CLIPNET_RESEARCH_CLIENT_KEY: 'test-client-key',
    CLIPNET_RESEARCH_CLIENT_SECRET: 'test-client-secret',
    PICNET_GRAPH_BASE_URL: `${origin}/graph`,
    PICNET_GRAPH_ACCESS_TOKEN: 'test-graph-token',
    PICNET_GRAPH_USER_ID: GRAPH_USER_ID,
    YOUTUBE_API_BASE_URL: `${origin}/youtube/v3`,
    YOUTUBE_API_KEY: 'test-youtube-key',
    YOUTUBEI_BASE_URL: origin,
    // failing calls retry quickly in tests
    UPSTREAM_BACKOFF_BASE_MS: '5',
    UPSTREAM_BACKOFF_MAX_MS: '20',
  };
}

async function liveApp(
  sources: { CLIPNET_SOURCE: string; PICNET_SOURCE: string; VIDNET_SOURCE: string },
  opts: { env?: Record<string, string>; now?: Date } = {},
): Promise<TestApp> {
  const config = loadConfig({ ...liveEnv(stub.origin), ...opts.env, ...sources });
  const now = opts.now ?? FIXED_NOW;
  const built = await createSources(config, pino({ level: 'silent' }), {
    // fixed clock: the fixtures' posts are "recent" relative to it
    now: () => now,
  });
  return startApp({ sources: built, credits: CREDITS });
}

interface Expect {
  /** the items the response holds */
  items: (data: Record<string, unknown>) => unknown[];
  schema: TSchema;
  base: number;
  rate: number;
}

const posts = (schema: TSchema): Expect => ({ items: (d) => d.posts as unknown[], schema, base: 1, rate: 1 });
const comments = (schema: TSchema): Expect => ({
  items: (d) => d.comments as unknown[],
  schema,
  base: 1,
  rate: 0.5,
});
const listed = (key: string, schema: TSchema): Expect => ({
  items: (d) => d[key] as unknown[],
  schema,
  base: 2,
  rate: 1,
});

/** posts, expects a live 200 with contract items, and checks the charge and the balance */
async function billed(t: TestApp, path: string, body: unknown, e: Expect) {
  const before = await t.balance();
  const r = await t.post(path, body);
  expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
  const j = r.json();
  expect(j.success).toBe(true);
  expect(j.metadata.source).toBe('live');
  const items = e.items(j.data);
  expect(items.length, `${path} returned no items`).toBeGreaterThan(0);
  assertItems(e.schema, items);
  const charge = e.base + items.length * e.rate;
  expect(j.metadata.credits_used).toBe(charge);
  expect(await t.balance()).toBe(before - charge);
  return j;
}

/** posts, expects an error that costs nothing */
async function refused(t: TestApp, path: string, body: unknown, status: number, code: string) {
  const before = await t.balance();
  const r = await t.post(path, body);
  expect(r.statusCode, `${path}: ${r.body}`).toBe(status);
  const j = r.json();
  expect(j.error.code).toBe(code);
  expect(j.metadata.credits_used).toBe(0);
  expect(await t.balance()).toBe(before);
  return j;
}

async function ledgerClean(t: TestApp) {
  const rec = await t.ledger.reconcile();
  expect(rec.problems).toEqual([]);
  expect(rec.openHolds).toBe(0);
}

const PIC_URL = 'https://www.instagram.com/p/C8abcDE1xyz/';
const VID_URL = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';

function vidnetEndpoints(name: string, t: () => TestApp, sorting: 'native' | 'emulated') {
  describe(`vidnet on ${name}`, () => {
    it('/vidnet/search', async () => {
      const j = await billed(
        t(),
        '/vidnet/search',
        { keywords: ['coffee'], depth: 2, period: 'week', sorting: 'date', max_posts_per_keyword: 20 },
        listed('videos', VidnetVideo),
      );
      expect(j.metadata.sorting_applied).toBe(sorting);
      if (sorting === 'emulated') {
        // sorted here, newest first (a native order is the platform's, trusted as returned)
        const dates = j.data.videos.map((v: { published_at: string }) => v.published_at);
        expect([...dates].sort().reverse()).toEqual(dates);
      }
    });
    it('/vidnet/hashtag/search (all videos, and Shorts only)', async () => {
      await billed(
        t(),
        '/vidnet/hashtag/search',
        { hashtags: ['coffee'], depth: 2 },
        listed('videos', VidnetHashtagVideo),
      );
      const j = await billed(
        t(),
        '/vidnet/hashtag/search',
        { hashtags: ['coffee'], depth: 1, only_shorts: true },
        listed('videos', VidnetHashtagVideo),
      );
      expect(j.data.videos.every((v: { is_short: boolean }) => v.is_short)).toBe(true);
    });
    it('/vidnet/comments', async () => {
      await billed(
        t(),
        '/vidnet/comments',
        { post_urls: [VID_URL], limit_per_post: 10 },
        comments(VidnetComment),
      );
    });
    it('/vidnet/channel/videos', async () => {
      await billed(
        t(),
        '/vidnet/channel/videos',
        { browse_ids: [CHANNEL], depth: 1 },
        listed('videos', VidnetChannelVideo),
      );
    });
    it('/vidnet/channel/shorts', async () => {
      const j = await billed(
        t(),
        '/vidnet/channel/shorts',
        { browse_ids: [CHANNEL] },
        listed('shorts', VidnetChannelVideo),
      );
      expect(j.data.shorts.every((v: { is_short: boolean }) => v.is_short)).toBe(true);
    });
  });
}

describe('providers: scrapekit on clipnet and picnet, youtubei on vidnet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ CLIPNET_SOURCE: 'scrapekit', PICNET_SOURCE: 'scrapekit', VIDNET_SOURCE: 'youtubei' });
  });
  afterAll(async () => {
    await ledgerClean(t);
    await t?.close();
  });
  vidnetEndpoints('youtubei', () => t, 'emulated');
});

describe('failover and cursors across backends', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await liveApp(
      {
        CLIPNET_SOURCE: 'datadepth,scrapekit',
        PICNET_SOURCE: 'picnet-graph,scrapekit',
        VIDNET_SOURCE: 'datadepth,youtubei',
      },
      // datadepth is up but answers every request with 503
      {
        env: { DATADEPTH_BASE_URL: `${broken.origin}/apis` },
        now: RECORDED_NOW.tiktokApp,
      },
    );
    other = await liveApp({
      CLIPNET_SOURCE: 'scrapekit',
      PICNET_SOURCE: 'scrapekit',
      VIDNET_SOURCE: 'datadepth',
    });
  });
  afterAll(async () => {
    await ledgerClean(t);
    await ledgerClean(other);
    await t?.close();
    await other?.close();
  });

  it('moves on from a backend answering 503 to the next one listed', async () => {
    const before = broken.requests.length;
    const j = await billed(t, '/clipnet/posts', { username: 'brewlab', limit: 2 }, posts(ClipnetPost));
    expect(broken.requests.length).toBeGreaterThan(before);
    // the scrapekit fixture's posts
    expect(j.data.posts[0].id).toBe('6990567184082701573');
    await billed(
      t,
      '/clipnet/hashtag/posts',
      { hashtags: ['coffee'], days: 30 },
      listed('posts', HashtagPost),
    );
  });

  it('a cursor goes back to the backend that issued it, and another backend rejects it with 400', async () => {
    const a = await billed(t, '/clipnet/posts', { username: 'brewlab', limit: 1 }, posts(ClipnetPost));
    // issued by scrapekit (datadepth failed over): continues on scrapekit
    await billed(
      t,
      '/clipnet/posts',
      { username: 'brewlab', limit: 5, cursor: a.data.cursor },
      posts(ClipnetPost),
    );
    // a datadepth cursor, from an app where datadepth serves clipnet, on an app where it does not
    const d = await liveApp({
      CLIPNET_SOURCE: 'datadepth',
      PICNET_SOURCE: 'datadepth',
      VIDNET_SOURCE: 'datadepth',
    });
    let cursor: string;
    try {
      cursor = (await billed(d, '/clipnet/posts', { username: 'brewlab', limit: 1 }, posts(ClipnetPost))).data
        .cursor;
    } finally {
      await d.close();
    }
    const j = await refused(other, '/clipnet/posts', { username: 'brewlab', cursor }, 400, 'BAD_REQUEST');
    expect(j.error.details).toEqual([
      {
        field: 'cursor',
        message: 'this cursor was issued by backend datadepth, which does not serve clipnet here',
      },
    ]);
  });

  it('picnet comments: picnet-graph cannot read them, so the next backend does', async () => {
    const j = await billed(t, '/picnet/comments', { post_urls: [PIC_URL] }, comments(PostComment));
    expect(j.data.comments[0].post_url).toBe(PIC_URL);
  });

  it('vidnet: what datadepth does not offer falls over to youtubei', async () => {
    await billed(
      t,
      '/vidnet/channel/videos',
      { browse_ids: [CHANNEL], depth: 1 },
      listed('videos', VidnetChannelVideo),
    );
    await billed(t, '/vidnet/hashtag/search', { hashtags: ['coffee'] }, listed('videos', VidnetHashtagVideo));
    // search: datadepth answers 503, youtubei serves it
    await billed(t, '/vidnet/search', { keywords: ['coffee'], depth: 1 }, listed('videos', VidnetVideo));
  });

  it('the stub saw only requests it has fixtures for', () => {
    expect(stub.unmatched).toEqual([]);
  });
});
