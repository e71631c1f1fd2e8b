// The blipnet endpoints on the atproto backend: the real app, configured from environment
// variables alone (BLIPNET_SOURCE=atproto, ATPROTO_APPVIEW_URL), against a local AppView stand-in
// answering with lexicon-valid fixtures (test/fixtures/live/atproto/SOURCES.md). Each test asserts
// what a caller sees and pays, and which XRPC requests reached the upstream for it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  BlipnetHashtagPost,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
} from '../../src/contract/items.js';
import { createSources } from '../../src/sources/index.js';
import { ATPROTO, atprotoRoutes } from '../sources/live/atproto-routes.js';
import { assertItems } from '../sources/live/helpers.js';
import { type Stub, type StubRequest, startStub } from '../sources/live/stub.js';
import { startApp, type TestApp } from '../support/app.js';

let stub: Stub;
let t: TestApp;

/** the real app with blipnet on the atproto backend, from the environment alone */
async function liveApp(env: Record<string, string>): Promise<TestApp> {
  const config = loadConfig({ BLIPNET_SOURCE: 'atproto', ...env });
  const sources = await createSources(config, pino({ level: 'silent' }));
  return startApp({ sources, credits: 100_000, env: { CACHE_TTL_SECONDS: '0' } });
}

beforeAll(async () => {
  stub = await startStub(atprotoRoutes(() => new Date()));
  t = await liveApp({
    ATPROTO_APPVIEW_URL: stub.origin,
    UPSTREAM_RETRIES: '1',
    UPSTREAM_BACKOFF_BASE_MS: '5',
    UPSTREAM_BACKOFF_MAX_MS: '10',
    UPSTREAM_DEADLINE_MS: '3000',
    UPSTREAM_BREAKER_THRESHOLD: '1000',
  });
});
afterAll(async () => {
  expect(stub.unmatched).toEqual([]);
  await t?.close();
  await stub?.close();
});

interface Call {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  /** the upstream requests this call sent, in order */
  upstream: StubRequest[];
}

async function call(app: TestApp, path: string, body: unknown): Promise<Call> {
  const before = stub.requests.length;
  const r = await app.post(path, body);
  return { status: r.statusCode, body: r.json(), headers: r.headers, upstream: stub.requests.slice(before) };
}

async function ok(path: string, body: unknown): Promise<Call> {
  const c = await call(t, path, body);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  expect(c.body.metadata.source).toBe('live');
  return c;
}

const nsids = (reqs: StubRequest[]) => reqs.map((r) => r.path.replace('/xrpc/', ''));

describe('POST /blipnet/posts on the author feed', () => {
  it('resolves the handle by its profile, reads the feed with replies, and flags reposts and replies', async () => {
    const c = await ok('/blipnet/posts', { username: ATPROTO.profileHandle, limit: 3 });
    const posts = c.body.data.posts as BlipnetPost[];
    assertItems(BlipnetPost, posts);
    expect(nsids(c.upstream)).toEqual(['app.bsky.actor.getProfile', 'app.bsky.feed.getAuthorFeed']);
    const feed = c.upstream[1]!.query;
    expect([feed.get('actor'), feed.get('filter'), feed.get('limit'), feed.get('cursor')]).toEqual([
      ATPROTO.profileDid,
      'posts_with_replies',
      '3',
      null,
    ]);
    // the first item is a repost of someone else's post with two mentions and an image
    expect(posts[0]).toEqual({
      id: 'at://did:plc:gggcwmwoyak6op4pkqm76ckz/app.bsky.feed.post/3jukz62npim26',
      url: 'https://bsky.app/profile/christopherpmoore.xyz/post/3jukz62npim26',
      text: 'Had a great time at the Seattle meetup! Even got a chance to chat with @rose.bsky.team and @jay.bsky.team!',
      timestamp: '2023-04-30T06:26:07.001Z',
      author: {
        id: 'did:plc:gggcwmwoyak6op4pkqm76ckz',
        handle: 'christopherpmoore.xyz',
        display_name: 'C. P. Moore',
      },
      stats: { replies: 6, reposts: 8, likes: 100, quotes: null },
      language: null,
      links: [],
      media_urls: [
        'https://cdn.bsky.social/imgproxy/5DeoD2mnyO4pL_ljZrc25iKbg1jJsmg8k8Af8cVEers/rs:fit:2000:2000:1:0/plain/bafkreiactiikzqoiisabzjvapodlm4ldcrgvh2pc7bqyasdgsz67vi2l7a@jpeg',
      ],
      hashtags: [],
      mentions: [
        { id: 'did:plc:qjeavhlw222ppsre4rscd3n2', handle: 'rose.bsky.team' },
        { id: 'did:plc:oky5czdrnfjpqslsw2a5iclo', handle: 'jay.bsky.team' },
      ],
      parent_id: null,
      quote_of: null,
      is_reply: false,
      is_repost: true,
      reposted_at: '2023-04-30T06:33:13.578Z',
    });
    expect(posts.slice(1).map((p) => [p.is_reply, p.is_repost, p.author.handle, p.parent_id])).toEqual([
      [
        true,
        false,
        'shinyakato.dev',
        'at://did:plc:gojiv3xdlwobtke4csnksyyb/app.bsky.feed.post/3jukqq23rvy2w',
      ],
      [
        true,
        false,
        'shinyakato.dev',
        'at://did:plc:einhie6wjgbhwkbui3f4rbhp/app.bsky.feed.post/3jukpafkpy62y',
      ],
    ]);
    expect(c.body.data.has_more).toBe(true);
    expect(c.body.metadata.credits_used).toBe(4);
  });

  it('continues within the page, then on the upstream cursor, to the end; the DID is remembered', async () => {
    const a = await ok('/blipnet/posts', { username: ATPROTO.profileHandle, limit: 3 });
    // the account's DID is known now: no second profile request
    expect(nsids(a.upstream)).toEqual(['app.bsky.feed.getAuthorFeed']);
    const b = await ok('/blipnet/posts', {
      username: ATPROTO.profileHandle,
      limit: 10,
      cursor: a.body.data.cursor,
    });
    const ids = (c: Call) => c.body.data.posts.map((p: BlipnetPost) => p.id.split('/').pop());
    // the rest of the first upstream page, then the second (the recorded feed, split in two)
    expect(ids(b)).toEqual([
      '3juktdgry3k2y',
      '3jukoxegkhw2s',
      '3jukjo4mkjz2m',
      '3jukf53n6ba25',
      '3jukdwsblqu2l',
      '3jukcjaxrjo2p',
      '3juhed6iawd2h',
      '3jukamqbf2c2q',
    ]);
    expect(b.body.data.has_more).toBe(false);
    expect(b.body.data.cursor).toBeNull();
    expect(b.upstream.map((r) => r.query.get('cursor'))).toEqual([null, ATPROTO.feedCursor]);
    // a post the AppView sent without counts has null counts, not zeros
    const last = b.body.data.posts.at(-1) as BlipnetPost;
    expect(last.stats).toEqual({ replies: null, reposts: null, likes: null, quotes: null });
    expect(
      b.body.data.posts.filter((p: BlipnetPost) => p.is_repost).map((p: BlipnetPost) => p.author.handle),
    ).toEqual(['xychelsea.tv']);
  });

  it('refuses a forged cursor before any request, at no cost', async () => {
    const forged = (inner: string) =>
      Buffer.from(JSON.stringify({ v: 1, b: 'atproto', c: inner })).toString('base64url');
    for (const inner of [
      JSON.stringify(['x&actor=did:plc:other', 0]),
      JSON.stringify(['1682809172466::bafy rei', 0]),
      JSON.stringify([ATPROTO.feedCursor, -1]),
      '{"page":"25"}',
    ]) {
      const c = await call(t, '/blipnet/posts', { username: ATPROTO.profileDid, cursor: forged(inner) });
      expect(c.status, inner).toBe(400);
      expect(c.body.error.details).toEqual([{ field: 'cursor', message: expect.stringMatching(/cursor/) }]);
      expect(c.body.metadata.credits_used).toBe(0);
      expect(c.upstream, inner).toEqual([]);
    }
  });

  it('answers an unknown account 404 at no cost', async () => {
    const c = await call(t, '/blipnet/posts', { username: 'nobody.bsky.social' });
    expect(c.status).toBe(404);
    expect(c.body.error.code).toBe('NOT_FOUND');
    expect(c.body.metadata.credits_used).toBe(0);
    expect(nsids(c.upstream)).toEqual(['app.bsky.actor.getProfile']);
  });
});

describe('POST /blipnet/comments on post threads', () => {
  it('resolves the handle of a web URL, flattens the thread depth first and leaves out blocked and deleted replies', async () => {
    const url = `https://bsky.app/profile/${ATPROTO.threadHandle}/post/${ATPROTO.threadRkey}`;
    const c = await ok('/blipnet/comments', { post_urls: [url], limit_per_post: 50 });
    const comments = c.body.data.comments as BlipnetReply[];
    assertItems(BlipnetReply, comments);
    expect(nsids(c.upstream)).toEqual(['com.atproto.identity.resolveHandle', 'app.bsky.feed.getPostThread']);
    expect(c.upstream[1]!.query.get('uri')).toBe(
      `at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.threadRkey}`,
    );
    expect(comments.map((x) => [x.depth, x.author.handle, x.text, x.parent_id.split('/').pop()])).toEqual([
      [1, 'nvpkp.bsky.social', '🔥', ATPROTO.threadRkey],
      [
        1,
        'bcgraham.outgroup.social',
        'can someone who bikes without a helmet get my graph for me',
        ATPROTO.threadRkey,
      ],
      [2, 'tautologer.com', '', '3jtviwrkkbn2e'],
    ]);
    for (const x of comments) expect(x.post_url).toBe(url);
    expect(comments[2]!.media_urls).toHaveLength(1);
    expect(c.body.metadata.credits_used).toBe(1 + 0.5 * 3);
    const one = await ok('/blipnet/comments', {
      post_urls: [`at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.threadRkey}`],
      limit_per_post: 1,
    });
    // by DID: no handle to resolve
    expect(nsids(one.upstream)).toEqual(['app.bsky.feed.getPostThread']);
    expect(one.body.data.comments).toHaveLength(1);
  });

  it('warns about a deleted or missing post and a handle that resolves to nothing; one such post alone is 404', async () => {
    const deleted = `at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.deletedRkey}`;
    const missing = `https://bsky.app/profile/${ATPROTO.threadDid}/post/3zzzzzzzzzzzz`;
    const noHandle = 'https://bsky.app/profile/gone.bsky.social/post/3jtvi2jrijx2y';
    const good = `at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.threadRkey}`;
    const c = await ok('/blipnet/comments', { post_urls: [deleted, missing, noHandle, good] });
    expect(c.body.data.comments).toHaveLength(3);
    expect(c.body.metadata.warnings.map((w: { target: string; code: string }) => [w.target, w.code])).toEqual(
      [
        [deleted, 'NOT_FOUND'],
        [missing, 'NOT_FOUND'],
        [noHandle, 'NOT_FOUND'],
      ],
    );
    const alone = await call(t, '/blipnet/comments', { post_urls: [deleted] });
    expect(alone.status).toBe(404);
    expect(alone.body.metadata.credits_used).toBe(0);
  });
});

describe('POST /blipnet/search on searchPosts', () => {
  it('asks for the period and sorting, pages 25 at a time by depth, and ends where the upstream ends', async () => {
    const before = Date.now();
    const c = await ok('/blipnet/search', {
      keywords: ['bluesky'],
      period: 'week',
      sorting: 'top',
      depth: 4,
    });
    const posts = c.body.data.posts as BlipnetSearchPost[];
    assertItems(BlipnetSearchPost, posts);
    expect(posts.map((p) => p.author.handle)).toEqual([
      'luy.gay',
      'shinyakato.dev',
      'shinyakato.dev',
      'shinyakato.dev',
    ]);
    expect(posts.every((p) => p.source_keyword === 'bluesky')).toBe(true);
    expect(c.upstream.map((r) => [r.query.get('sort'), r.query.get('limit'), r.query.get('cursor')])).toEqual(
      [
        ['top', '25', null],
        ['top', '25', '25'],
      ],
    );
    // a week: today and the six days before, from midnight UTC
    const since = Date.parse(c.upstream[0]!.query.get('since')!);
    expect(since).toBe(Math.floor(before / 86_400_000) * 86_400_000 - 6 * 86_400_000);
    expect(c.body.data.has_more).toBe(false);
    expect(c.body.metadata.credits_used).toBe(2 + 4);
    const all = await ok('/blipnet/search', { keywords: ['bluesky'], period: 'all' });
    expect(all.upstream[0]!.query.has('since')).toBe(false);
    expect(all.upstream[0]!.query.get('sort')).toBe('latest');
  });

  it('cuts at max_posts_per_keyword, and its cursor continues right after the last post', async () => {
    const a = await ok('/blipnet/search', { keywords: ['bluesky'], max_posts_per_keyword: 2 });
    expect(a.body.data.posts).toHaveLength(2);
    expect(a.upstream).toHaveLength(1);
    const b = await ok('/blipnet/search', { keywords: ['bluesky'], cursor: a.body.data.cursor });
    expect(b.body.data.posts.map((p: BlipnetSearchPost) => p.id.split('/').pop())).toEqual([
      '3jukdwsblqu2l',
      '3jukamqbf2c2q',
    ]);
    expect(b.upstream.map((r) => r.query.get('cursor'))).toEqual([null, '25']);
  });

  it('passes a rate limit on with the wait from ratelimit-reset, a 5xx as a 502, and a refused anonymous search as a 502', async () => {
    const limited = await call(t, '/blipnet/search', { keywords: ['ratelimited'] });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(ATPROTO.resetIn - 2);
    expect(wait).toBeLessThanOrEqual(ATPROTO.resetIn + 1);
    // the wait is longer than the deadline allows: no retry
    expect(limited.upstream).toHaveLength(1);
    expect(limited.body.metadata.credits_used).toBe(0);
    const broken = await call(t, '/blipnet/search', { keywords: ['broken'] });
    expect(broken.status).toBe(502);
    expect(broken.body.error.code).toBe('EXTERNAL_API_ERROR');
    expect(broken.upstream).toHaveLength(2);
    const forbidden = await call(t, '/blipnet/search', { keywords: ['forbidden'] });
    expect(forbidden.status).toBe(502);
    expect(forbidden.body.error.message).toMatch(/not open to anonymous readers/);
  });
});

describe('POST /blipnet/hashtag/posts on searchPosts with a tag', () => {
  it('is a search for the tag since the window start, with hashtags, links, mentions, quote and languages read', async () => {
    const before = Date.now();
    const c = await ok('/blipnet/hashtag/posts', { hashtags: ['#coffee'], days: 3 });
    const posts = c.body.data.posts as BlipnetHashtagPost[];
    assertItems(BlipnetHashtagPost, posts);
    const q = c.upstream[0]!.query;
    expect([q.get('q'), q.get('tag'), q.get('sort')]).toEqual(['#coffee', 'coffee', 'latest']);
    expect(Date.parse(q.get('since')!)).toBe(Math.floor(before / 86_400_000) * 86_400_000 - 2 * 86_400_000);
    expect(posts[0]).toMatchObject({
      language: 'en',
      links: ['https://example.com/brew'],
      hashtags: ['coffee', 'Tokyo'],
      mentions: [{ id: 'did:plc:iijrtk7ocored6zuziwmqq3c', handle: 'shinyakato.dev' }],
      quote_of: 'at://did:plc:iijrtk7ocored6zuziwmqq3c/app.bsky.feed.post/3jukterj4bp2j',
      stats: { replies: 1, reposts: 2, likes: 12, quotes: 1 },
      source_hashtag: 'coffee',
    });
    expect(c.body.metadata.credits_used).toBe(3);
  });
});

describe('a rate limit that resets soon', () => {
  let limited: Stub;
  let app: TestApp;
  let answered = 0;
  beforeAll(async () => {
    const routes = atprotoRoutes(() => new Date());
    limited = await startStub((r) => {
      if (r.path === '/xrpc/app.bsky.feed.searchPosts' && answered++ === 0)
        return {
          status: 429,
          body: '{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}',
          headers: { 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) },
        };
      return routes(r);
    });
    app = await liveApp({
      ATPROTO_APPVIEW_URL: limited.origin,
      UPSTREAM_RETRIES: '2',
      UPSTREAM_BACKOFF_BASE_MS: '1',
      UPSTREAM_BACKOFF_MAX_MS: '1',
      UPSTREAM_DEADLINE_MS: '10000',
    });
  });
  afterAll(async () => {
    await app?.close();
    await limited?.close();
  });

  it('is waited out (until ratelimit-reset, not the short backoff) and the search answered', async () => {
    const started = Date.now();
    const r = await app.post('/blipnet/search', { keywords: ['bluesky'], max_posts_per_keyword: 3 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.posts).toHaveLength(3);
    expect(limited.requests.filter((q) => q.path === '/xrpc/app.bsky.feed.searchPosts')).toHaveLength(2);
    // the backoff alone would have retried after 1 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });
});

describe('timeouts', () => {
  let hanging: Server;
  let slow: TestApp;
  beforeAll(async () => {
    hanging = createServer(() => {
      // never answers
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    slow = await liveApp({
      ATPROTO_APPVIEW_URL: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
      UPSTREAM_TIMEOUT_MS: '150',
      UPSTREAM_DEADLINE_MS: '400',
      UPSTREAM_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await slow?.close();
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  it('an AppView that does not answer is a 502 at no cost', async () => {
    const r = await slow.post('/blipnet/posts', { username: 'did:plc:iijrtk7ocored6zuziwmqq3c' });
    expect(r.statusCode).toBe(502);
    expect(r.json().error).toEqual({
      code: 'EXTERNAL_API_ERROR',
      message: 'the platform did not answer in time',
    });
    expect(r.json().metadata.credits_used).toBe(0);
  });
});

describe('signed in (ATPROTO_IDENTIFIER, ATPROTO_APP_PASSWORD)', () => {
  let pds: Stub;
  let signed: TestApp;
  let expireNext = false;
  beforeAll(async () => {
    const routes = atprotoRoutes(() => new Date());
    pds = await startStub((r) => {
      if (expireNext && r.path === '/xrpc/app.bsky.feed.searchPosts') {
        expireNext = false;
        return { status: 400, body: '{"error":"ExpiredToken","message":"Token has expired"}' };
      }
      return routes(r);
    });
    signed = await liveApp({
      ATPROTO_PDS_URL: pds.origin,
      // the AppView is not asked at all once signed in
      ATPROTO_APPVIEW_URL: 'http://127.0.0.1:9',
      ATPROTO_IDENTIFIER: ATPROTO.profileHandle,
      ATPROTO_APP_PASSWORD: ATPROTO.appPassword,
      UPSTREAM_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await signed?.close();
    await pds?.close();
  });

  it('signs in once, reads through the PDS with the session token, and signs in again when it expires', async () => {
    const before = pds.requests.length;
    const a = await signed.post('/blipnet/search', { keywords: ['bluesky'], max_posts_per_keyword: 3 });
    expect(a.statusCode, a.body).toBe(200);
    const b = await signed.post('/blipnet/hashtag/posts', { hashtags: ['coffee'] });
    expect(b.statusCode).toBe(200);
    expireNext = true;
    const c = await signed.post('/blipnet/search', { keywords: ['bluesky'], max_posts_per_keyword: 3 });
    expect(c.statusCode).toBe(200);
    expect(c.json().data.posts).toEqual(a.json().data.posts);
    expect(nsids(pds.requests.slice(before))).toEqual([
      'com.atproto.server.createSession',
      'app.bsky.feed.searchPosts',
      'app.bsky.feed.searchPosts',
      'app.bsky.feed.searchPosts',
      'com.atproto.server.createSession',
      'app.bsky.feed.searchPosts',
    ]);
  });

  it('a refused sign-in is a 502 that names no credential', async () => {
    const wrong = await liveApp({
      ATPROTO_PDS_URL: pds.origin,
      ATPROTO_IDENTIFIER: ATPROTO.profileHandle,
      ATPROTO_APP_PASSWORD: 'wrong-pass-word-1234',
      UPSTREAM_RETRIES: '0',
    });
    try {
      const r = await wrong.post('/blipnet/posts', { username: ATPROTO.profileHandle });
      expect(r.statusCode).toBe(502);
      expect(r.body).not.toContain('wrong-pass-word-1234');
    } finally {
      await wrong.close();
    }
  });
});
