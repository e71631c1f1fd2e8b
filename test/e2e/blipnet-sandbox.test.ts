// The blipnet endpoints through the real app on the embedded sandbox, wired from configuration
// as `npm start` wires it: what a caller sees, pays and pages.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSources } from '../../src/sources/index.js';
import { BLIPNET_PINNED_ACCOUNTS } from '../../src/sources/sandbox/world/featured.js';
import { startApp, type TestApp } from '../support/app.js';
import { fakeEnricher } from '../support/fakes.js';

const MARA = BLIPNET_PINNED_ACCOUNTS[0]!;
const NICO = BLIPNET_PINNED_ACCOUNTS[1]!;
/** the sandbox anchored to one clock, so that pages never shift during a test */
const NOW = new Date('2026-01-15T12:00:00Z');

let t: TestApp;
beforeAll(async () => {
  const config = loadConfig({});
  expect(config.sources.blipnet).toEqual(['sandbox']);
  const sources = await createSources(config, pino({ level: 'silent' }), { now: () => NOW });
  t = await startApp({ credits: 100_000, sources, enricher: fakeEnricher() });
}, 120_000);
afterAll(async () => t?.close());

async function ok(path: string, body: unknown) {
  const r = await t.post(path, body);
  expect(r.statusCode, r.body).toBe(200);
  const j = r.json();
  expect(j.metadata.source).toBe('sandbox');
  return j;
}

describe('POST /blipnet/posts', () => {
  it('pages a user to the end through opaque cursors: every post once, newest first, 1 + 1 per post', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < 100; pages++) {
      const j = await ok('/blipnet/posts', {
        username: `@${MARA.handle}`,
        limit: 40,
        ...(cursor ? { cursor } : {}),
      });
      expect(j.metadata.credits_used).toBe(1 + j.data.posts.length);
      for (const p of j.data.posts) seen.push(`${p.id}@${p.reposted_at ?? p.timestamp}`);
      if (!j.data.has_more) {
        expect(j.data.cursor).toBeNull();
        break;
      }
      cursor = j.data.cursor;
    }
    expect(pages).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    const times = seen.map((s) => s.split('@')[1]!);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('takes the account id as well as the handle, flags replies and reposts, and 404s an unknown user', async () => {
    const byHandle = await ok('/blipnet/posts', { username: NICO.handle, limit: 60 });
    const byDid = await ok('/blipnet/posts', { username: NICO.did, limit: 60 });
    expect(byDid.data).toEqual(byHandle.data);
    const posts = byHandle.data.posts as Array<{
      is_reply: boolean;
      is_repost: boolean;
      author: { id: string };
    }>;
    expect(posts.some((p) => p.is_reply)).toBe(true);
    expect(posts.some((p) => p.is_repost && p.author.id !== NICO.did)).toBe(true);
    const r = await t.post('/blipnet/posts', { username: 'nobody-here.blipnet.social' });
    expect(r.statusCode).toBe(404);
    expect(r.json().metadata.credits_used).toBe(0);
    const bad = await t.post('/blipnet/posts', { username: 'not a handle' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /blipnet/comments', () => {
  it('returns the flattened threads of posts named by web URL or at:// URI, 1 + 0.5 per reply, with a warning for a missing one', async () => {
    // a well-replied older post of Mara's, by its web URL and by its at:// URI
    const posts = (await ok('/blipnet/posts', { username: MARA.handle, limit: 100 })).data.posts as Array<{
      id: string;
      url: string;
      stats: { replies: number };
      is_reply: boolean;
      is_repost: boolean;
    }>;
    const post = posts
      .filter((p) => !p.is_reply && !p.is_repost)
      .sort((a, b) => b.stats.replies - a.stats.replies)[0]!;
    expect(post.stats.replies).toBeGreaterThan(0);
    const missing = `https://blipnet.app/profile/${MARA.handle}/post/3zzzzzzzzzzzz`;
    // the web URL and the at:// URI by the same handle name one post: one target (a URI by the
    // account id would be a second target: the handle is not resolved before pricing)
    const byHandle = `at://${MARA.handle}/app.bsky.feed.post/${post.url.split('/').pop()}`;
    const j = await ok('/blipnet/comments', {
      post_urls: [post.url, missing, byHandle],
      limit_per_post: 500,
    });
    const comments = j.data.comments as Array<{
      id: string;
      parent_id: string;
      depth: number;
      post_url: string;
    }>;
    expect(comments.filter((c) => c.depth === 1)).toHaveLength(post.stats.replies);
    expect(j.metadata.credits_used).toBe(1 + 0.5 * comments.length);
    const seen = new Set([post.id]);
    for (const c of comments) {
      expect(seen.has(c.parent_id)).toBe(true);
      expect(c.post_url).toBe(post.url);
      seen.add(c.id);
    }
    expect(j.metadata.warnings).toEqual([
      { target: missing, code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    const one = await t.post('/blipnet/comments', { post_urls: [missing] });
    expect(one.statusCode).toBe(404);
    const bad = await t.post('/blipnet/comments', { post_urls: ['https://bsky.app/profile/jay.bsky.team'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('post_urls[0]');
  });
});

describe('POST /blipnet/search', () => {
  it('searches several keywords at 2 + 1 per post, newest or most engaging first', async () => {
    const j = await ok('/blipnet/search', {
      keywords: ['coffee', 'gaming', 'COFFEE'],
      max_posts_per_keyword: 5,
      period: 'month',
      sorting: 'top',
    });
    expect(j.data.keywords).toEqual(['coffee', 'gaming']);
    expect(j.data.total_posts).toBe(10);
    expect(j.metadata.credits_used).toBe(2 + 10);
    expect(j.data.posts.map((p: { source_keyword: string }) => p.source_keyword)).toEqual([
      ...Array(5).fill('coffee'),
      ...Array(5).fill('gaming'),
    ]);
    // several keywords: no cursor to continue by, but more to read
    expect(j.data.cursor).toBeNull();
    expect(j.data.has_more).toBe(true);
  });

  it('continues one keyword by its cursor, and refuses a cursor with several keywords', async () => {
    const whole = await ok('/blipnet/search', {
      keywords: ['books'],
      max_posts_per_keyword: 30,
      period: 'all',
    });
    const a = await ok('/blipnet/search', { keywords: ['books'], max_posts_per_keyword: 12, period: 'all' });
    expect(a.data.has_more).toBe(true);
    const b = await ok('/blipnet/search', {
      keywords: ['books'],
      max_posts_per_keyword: 18,
      period: 'all',
      cursor: a.data.cursor,
    });
    const ids = (j: { data: { posts: Array<{ id: string }> } }) => j.data.posts.map((p) => p.id);
    expect([...ids(a), ...ids(b)]).toEqual(ids(whole));
    const r = await t.post('/blipnet/search', { keywords: ['books', 'tech'], cursor: a.data.cursor });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.details).toEqual([
      { field: 'cursor', message: expect.stringMatching(/one keyword/) },
    ]);
    const wrongSort = await t.post('/blipnet/search', { keywords: ['books'], sorting: 'relevance' });
    expect(wrongSort.statusCode).toBe(400);
  });

  it('cut short by the balance, hands out a cursor right after the last post it returned', async () => {
    const poor = await t.newKey(5);
    const r = await t.post(
      '/blipnet/search',
      { keywords: ['books'], max_posts_per_keyword: 20, period: 'all' },
      { 'x-api-key': poor.key },
    );
    expect(r.statusCode).toBe(200);
    const j = r.json();
    expect(j.metadata.truncated).toBe(true);
    expect(j.data.posts).toHaveLength(3);
    expect(j.metadata.credits_used).toBe(5);
    const next = await ok('/blipnet/search', {
      keywords: ['books'],
      max_posts_per_keyword: 2,
      period: 'all',
      cursor: j.data.cursor,
    });
    const whole = await ok('/blipnet/search', {
      keywords: ['books'],
      max_posts_per_keyword: 5,
      period: 'all',
    });
    expect(next.data.posts.map((p: { id: string }) => p.id)).toEqual(
      whole.data.posts.slice(3, 5).map((p: { id: string }) => p.id),
    );
  });
});

describe('POST /blipnet/hashtag/posts', () => {
  it('returns posts carrying each hashtag in the window, 2 + 1 per post, warning about a tag with none', async () => {
    const j = await ok('/blipnet/hashtag/posts', {
      hashtags: ['#coffee', 'tech', 'zzznotatag'],
      days: 1,
      max_posts_per_hashtag: 4,
    });
    expect(j.data.hashtags).toEqual(['coffee', 'tech', 'zzznotatag']);
    expect(j.data.days).toBe(1);
    const posts = j.data.posts as Array<{ hashtags: string[]; source_hashtag: string; timestamp: string }>;
    expect(posts.length).toBeGreaterThan(1);
    expect(j.metadata.credits_used).toBe(2 + posts.length);
    for (const p of posts) {
      expect(p.hashtags).toContain(p.source_hashtag);
      expect(p.timestamp.slice(0, 10)).toBe('2026-01-15');
    }
    expect(j.metadata.warnings).toEqual([
      { target: 'zzznotatag', code: 'NO_RESULTS', message: 'no posts found' },
    ]);
  });

  it('adds enrichment to each post and charges it per post', async () => {
    const j = await ok('/blipnet/hashtag/posts', {
      hashtags: ['books'],
      max_posts_per_hashtag: 3,
      enrich: ['sentiment'],
    });
    expect(j.data.posts).toHaveLength(3);
    for (const p of j.data.posts) expect(p.enrichment).toHaveProperty('sentiment');
    expect(j.metadata.credits_used).toBe(2 + 3 * 1.5);
    expect(j.metadata.enrichments).toEqual(['sentiment']);
  });
});
