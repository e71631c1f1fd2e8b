// The whole API on the embedded sandbox, wired from configuration as `npm start` wires it.

import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSources } from '../../src/sources/index.js';
import { startApp, type TestApp } from '../support/app.js';
import { fakeEnricher } from '../support/fakes.js';

let t: TestApp;
beforeAll(async () => {
  const sources = await createSources(loadConfig({}), pino({ level: 'silent' }));
  t = await startApp({ credits: 100_000, sources, enricher: fakeEnricher() });
}, 120_000);
afterAll(async () => t?.close());

test('paging a user to the end yields every post once, newest first, through opaque cursors', async () => {
  const seen: string[] = [];
  const times: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await t.post('/clipnet/posts', {
      username: 'rafatech',
      limit: 7,
      ...(cursor ? { cursor } : {}),
    });
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    expect(j.metadata.source).toBe('sandbox');
    for (const p of j.data.posts) {
      seen.push(p.id);
      times.push(p.timestamp);
    }
    if (!j.data.has_more) {
      expect(j.data.cursor).toBeNull();
      break;
    }
    cursor = j.data.cursor;
    expect(cursor).not.toMatch(/^\d+$/);
  }
  expect(seen.length).toBeGreaterThan(7);
  expect(new Set(seen).size).toBe(seen.length);
  expect([...times].sort().reverse()).toEqual(times);
});

test('a cursor from another backend or garbage is a clear 400', async () => {
  const other = Buffer.from(JSON.stringify({ v: 1, b: 'youtubei', c: 'x' })).toString('base64url');
  for (const cursor of [other, 'not-a-cursor']) {
    const r = await t.post('/clipnet/posts', { username: 'rafatech', cursor });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.details[0].field).toBe('cursor');
  }
});

test('picnet by username and numeric id; unknown users are 404', async () => {
  const a = await t.post('/picnet/posts', { username: 'critterswithliam', limit: 3 });
  expect(a.statusCode).toBe(200);
  const b = await t.post('/picnet/posts', { username: '69365011', limit: 3 });
  expect(b.json().data.posts).toEqual(a.json().data.posts);
  expect((await t.post('/picnet/posts', { username: 'no_such_user_zz' })).json().error.code).toBe(
    'NOT_FOUND',
  );
});

test('comments by every URL form, mixed, with a warning for an unknown post', async () => {
  // a post two days old or more: the world's comments arrive over time after a post, so the
  // newest post (minutes old just after midnight) may have none yet
  const posts = (await t.post('/clipnet/posts', { username: 'rafatech', limit: 10 })).json().data.posts;
  const old = posts.find((p: { timestamp: string }) => Date.parse(p.timestamp) < Date.now() - 2 * 86_400_000);
  expect(old).toBeDefined();
  const url = old.url as string;
  const id = old.id as string;
  const r = await t.post('/clipnet/comments', {
    post_urls: [url, url.replace('https://', ''), id, '7000000000000000001'],
    limit_per_post: 5,
  });
  expect(r.statusCode).toBe(200);
  const j = r.json();
  expect(j.data.comments.length).toBeGreaterThan(0);
  expect(j.metadata.warnings.map((w: { target: string }) => w.target)).toContain('7000000000000000001');

  const pic = (await t.post('/picnet/posts', { username: 'critterswithliam', limit: 1 })).json().data
    .posts[0];
  const pr = await t.post('/picnet/comments', {
    post_urls: [pic.url, pic.url.replace('https://', ''), pic.shortcode],
    limit_per_post: 3,
  });
  expect(pr.statusCode).toBe(200);
  expect(pr.json().metadata.warnings ?? []).toEqual(
    expect.not.arrayContaining([expect.objectContaining({ code: 'NOT_FOUND' })]),
  );
});

test('hashtag, search, channel endpoints answer from the world', async () => {
  const h = (
    await t.post('/clipnet/hashtag/posts', { hashtags: ['#fitness'], days: 7, max_posts_per_hashtag: 20 })
  ).json();
  expect(h.data.posts.length).toBeGreaterThan(0);
  for (const p of h.data.posts) {
    expect(p.post_text.toLowerCase()).toContain('#fitness');
    expect(p.source_name).toBe('fitness');
  }
  const s = (
    await t.post('/vidnet/search', {
      keywords: ['budgeting'],
      period: 'all',
      sorting: 'viewCount',
      max_posts_per_keyword: 20,
    })
  ).json();
  expect(s.data.videos.length).toBeGreaterThan(1);
  const views = s.data.videos.map((v: { stats: { views: number } }) => v.stats.views);
  expect([...views].sort((a, b) => b - a)).toEqual(views);
  expect(s.metadata.sorting_applied).toBe('native');
  const c = (
    await t.post('/vidnet/channel/videos', { browse_ids: ['UCFTj_UgjSmO3GpS1X1fSzqw'], depth: 1 })
  ).json();
  expect(c.data.videos.every((v: { is_short: boolean }) => !v.is_short)).toBe(true);
  const sh = (
    await t.post('/vidnet/channel/shorts', {
      browse_ids: ['UCFTj_UgjSmO3GpS1X1fSzqw', 'UCjJIW06Pn16B4JQV2JZBzyw'],
    })
  ).json();
  expect(sh.data.shorts.length).toBeGreaterThan(0);
  expect(sh.data.shorts.every((v: { is_short: boolean }) => v.is_short)).toBe(true);
  const vh = (await t.post('/vidnet/hashtag/search', { hashtags: ['gaming'], only_shorts: true })).json();
  expect(vh.data.videos.every((v: { is_short: boolean }) => v.is_short)).toBe(true);
});
