// clipnet and picnet served by the sandbox: user posts and cursors, comments by every URL form,
// hashtag search.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClipnetPost, HashtagPost, PicnetPost, PostComment } from '../../../src/contract/items.js';
import { type PostRef, SourceError } from '../../../src/sources/interface.js';
import { openSandbox, type Sandbox } from '../../../src/sources/sandbox/index.js';
import { DAILY_HASHTAGS, EVERYDAY, TODAY_HASHTAGS } from '../../../src/sources/sandbox/world/featured.js';
import {
  anchorOf,
  at,
  DATES,
  DAY,
  expectValid,
  hasHashtag,
  NOW1,
  NOW2,
  TIMES_OF_DAY,
  tempWorld,
} from './helpers.js';

const world = tempWorld('social');
let sandbox: Sandbox;
let db: Database.Database;
let now = NOW1;

const ref = (id: string, form: PostRef['form'] = 'id'): PostRef => ({ id, form, input: id });
const nowSec = () => Math.floor(now.getTime() / 1000);

async function errorKind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SourceError) return err.kind;
    throw err;
  }
  return 'none';
}

type Acct = { handle: string; user_id: string; pk: number };
function accounts(platform: string, order: 'DESC' | 'ASC', n: number): Acct[] {
  return db
    .prepare(
      `SELECT pk, handle, user_id FROM accounts WHERE platform = ? ORDER BY followers ${order} LIMIT ?`,
    )
    .all(platform, n) as Acct[];
}

beforeAll(() => {
  world.build();
  sandbox = openSandbox({ dbPath: world.path, now: () => now });
  db = new Database(world.path, { readonly: true });
});
afterAll(() => {
  sandbox?.close();
  db?.close();
  world.remove();
});
beforeEach(() => {
  now = NOW1;
});

describe.each(['clipnet', 'picnet'] as const)('%s user posts', (platform) => {
  const source = () => sandbox[platform];

  it('pages to the end with every visible post exactly once, newest first', async () => {
    for (const acct of [...accounts(platform, 'DESC', 3), ...accounts(platform, 'ASC', 2)]) {
      const expected = db
        .prepare('SELECT id FROM posts WHERE account_pk = ? AND ts <= ? ORDER BY ts DESC, id DESC')
        .all(acct.pk, nowSec() - anchorOf(now)) as Array<{ id: string }>;
      const seen: string[] = [];
      const times: number[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const page = await source().userPosts({ username: acct.handle, limit: 7, cursor });
        expect(page.items.length).toBeLessThanOrEqual(7);
        for (const { item } of page.items) {
          seen.push(item.id);
          times.push(Date.parse(item.timestamp));
        }
        if (!page.hasMore) break;
        expect(page.items.length).toBe(7);
        cursor = page.items.at(-1)?.cursor;
      }
      expect(seen).toEqual(expected.map((r) => r.id));
      expect(new Set(seen).size).toBe(seen.length);
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1] as number);
      expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('gives every item a cursor that continues right after it, stable across calls', async () => {
    const [acct] = accounts(platform, 'DESC', 1);
    const all = await source().userPosts({ username: acct!.handle, limit: 30 });
    const third = all.items[2]!;
    const a = await source().userPosts({ username: acct!.handle, limit: 5, cursor: third.cursor });
    const b = await source().userPosts({ username: acct!.handle, limit: 5, cursor: third.cursor });
    expect(a).toEqual(b);
    expect(a.items.map((i) => i.item.id)).toEqual(all.items.slice(3, 8).map((i) => i.item.id));
    // later the same day new posts may appear on top, but a cursor still continues at the same post
    now = new Date(NOW1.getTime() + 9 * 3600 * 1000);
    const later = await source().userPosts({ username: acct!.handle, limit: 5, cursor: third.cursor });
    expect(later.items.map((i) => i.item.id)).toEqual(a.items.map((i) => i.item.id));
  });

  it('matches the username case-insensitively and with a leading @', async () => {
    const [acct] = accounts(platform, 'DESC', 1);
    const plain = await source().userPosts({ username: acct!.handle, limit: 3 });
    const shouted = await source().userPosts({ username: `@${acct!.handle.toUpperCase()}`, limit: 3 });
    expect(shouted).toEqual(plain);
    expect(plain.items.length).toBe(3);
  });

  it('reports unknown users as not_found and bad cursors as bad_cursor', async () => {
    const [acct] = accounts(platform, 'DESC', 1);
    expect(await errorKind(source().userPosts({ username: 'no.such.user.here', limit: 5 }))).toBe(
      'not_found',
    );
    expect(await errorKind(source().userPosts({ username: acct!.handle, limit: 5, cursor: 'garbage' }))).toBe(
      'bad_cursor',
    );
    expect(
      await errorKind(source().userPosts({ username: acct!.handle, limit: 5, cursor: 'sbx1.12.' })),
    ).toBe('bad_cursor');
  });

  it('moves with the clock: same posts and offsets on another day, shifted absolute times', async () => {
    const [acct] = accounts(platform, 'DESC', 1);
    now = NOW1;
    const day1 = await source().userPosts({ username: acct!.handle, limit: 20 });
    now = NOW2;
    const day2 = await source().userPosts({ username: acct!.handle, limit: 20 });
    expect(day2.items.map((i) => i.item.id)).toEqual(day1.items.map((i) => i.item.id));
    expect(day2.items.map((i) => i.cursor)).toEqual(day1.items.map((i) => i.cursor));
    const shift = (anchorOf(NOW2) - anchorOf(NOW1)) * 1000;
    day1.items.forEach((i, k) => {
      expect(Date.parse(day2.items[k]!.item.timestamp) - Date.parse(i.item.timestamp)).toBe(shift);
    });
  });

  it('returns items matching the contract schema', async () => {
    const [acct] = accounts(platform, 'DESC', 1);
    const page = await source().userPosts({ username: acct!.handle, limit: 50 });
    expectValid(
      platform === 'clipnet' ? ClipnetPost : PicnetPost,
      page.items.map((i) => i.item),
    );
  });
});

describe('picnet by numeric user id', () => {
  it('gives the same posts as the username', async () => {
    for (const acct of accounts('picnet', 'DESC', 3)) {
      const byId = await sandbox.picnet.userPosts({ username: acct.user_id, limit: 10 });
      const byName = await sandbox.picnet.userPosts({ username: acct.handle, limit: 10 });
      expect(byId).toEqual(byName);
      expect(byId.items.length).toBeGreaterThan(0);
    }
    expect(await errorKind(sandbox.picnet.userPosts({ username: '123', limit: 5 }))).toBe('not_found');
  });
});

describe('comments', () => {
  type P = { id: string; code: string; handle: string; media_type: string | null; comments: number };
  const popular = (platform: string): P =>
    db
      .prepare(
        `SELECT p.id, p.code, p.media_type, p.comments, a.handle FROM posts p JOIN accounts a ON a.pk = p.account_pk
         WHERE p.platform = ? AND p.ts < 0 ORDER BY p.comments DESC LIMIT 1`,
      )
      .get(platform) as P;

  it('clipnet: resolves the video id and the short-link code to the same post', async () => {
    const p = popular('clipnet');
    const byId = await sandbox.clipnet.comments({ post: ref(p.id), limit: 500 });
    const byCode = await sandbox.clipnet.comments({ post: ref(p.code, 'shortlink'), limit: 500 });
    expect(byCode).toEqual(byId);
    expect(byId.length).toBeGreaterThan(200);
    for (const c of byId) {
      expect(c.post_url).toBe(`https://www.clipnet.com/@${p.handle}/video/${p.id}`);
      expect(c.user).toMatch(/^@[\w.]+$/);
      expect(Date.parse(c.timestamp)).toBeLessThanOrEqual(now.getTime());
    }
    for (let i = 1; i < byId.length; i++) expect(byId[i]!.likes).toBeLessThanOrEqual(byId[i - 1]!.likes);
    expectValid(PostComment, byId);
    const few = await sandbox.clipnet.comments({ post: ref(p.id), limit: 5 });
    expect(few).toEqual(byId.slice(0, 5));
  });

  it('picnet: resolves the shortcode (and the numeric post id)', async () => {
    const p = popular('picnet');
    const byCode = await sandbox.picnet.comments({ post: ref(p.code), limit: 300 });
    expect(byCode.length).toBeGreaterThan(100);
    expect(await sandbox.picnet.comments({ post: ref(p.id), limit: 300 })).toEqual(byCode);
    const path = p.media_type === 'video' ? 'reel' : 'p';
    for (const c of byCode) expect(c.post_url).toBe(`https://www.picnet.com/${path}/${p.code}/`);
    expectValid(PostComment, byCode);
  });

  it('reports unknown posts as not_found', async () => {
    expect(await errorKind(sandbox.clipnet.comments({ post: ref('7000000000000000000'), limit: 5 }))).toBe(
      'not_found',
    );
    expect(await errorKind(sandbox.clipnet.comments({ post: ref('ZZnope123', 'shortlink'), limit: 5 }))).toBe(
      'not_found',
    );
    expect(await errorKind(sandbox.picnet.comments({ post: ref('Cnotreal000'), limit: 5 }))).toBe(
      'not_found',
    );
  });

  it('hides posts and comments whose time has not come yet today', async () => {
    const late = db
      .prepare("SELECT id FROM posts WHERE platform = 'clipnet' AND ts > ? ORDER BY ts LIMIT 1")
      .get(nowSec() - anchorOf(now)) as { id: string } | undefined;
    expect(late).toBeDefined();
    expect(await errorKind(sandbox.clipnet.comments({ post: ref(late!.id), limit: 5 }))).toBe('not_found');
  });
});

describe.each(['clipnet', 'picnet'] as const)('%s hashtag search', (platform) => {
  const topTags = () =>
    (
      db
        .prepare(
          'SELECT tag, COUNT(*) n FROM post_tags WHERE platform = ? GROUP BY tag ORDER BY n DESC LIMIT 6',
        )
        .all(platform) as Array<{ tag: string }>
    ).map((r) => r.tag);

  it('returns posts carrying the tag, inside the window, newest first, at most max', async () => {
    // the most used tags, and those promised for today (a popular tag may have nothing yet today)
    const today = TODAY_HASHTAGS[platform];
    for (const tag of new Set([...topTags(), ...today])) {
      for (const days of [1, 7, 30]) {
        const posts = await sandbox[platform].hashtagPosts({ hashtag: tag, days, max: 200 });
        if (days > 1 || today.includes(tag))
          expect(posts.length, `#${tag}, days: ${days}`).toBeGreaterThan(0);
        expect(posts.length).toBeLessThanOrEqual(200);
        const from = anchorOf(now) - (days - 1) * DAY;
        let prev = Number.POSITIVE_INFINITY;
        for (const p of posts) {
          expect(hasHashtag(p.post_text, tag)).toBe(true);
          const t = Number(p.post_time);
          expect(t).toBeGreaterThanOrEqual(from);
          expect(t).toBeLessThanOrEqual(nowSec());
          expect(t).toBeLessThanOrEqual(prev);
          prev = t;
          expect(p.source_name).toBe(tag);
          if (platform === 'clipnet') {
            expect(p.play_count).toBeTypeOf('number');
            expect(p.share_count).toBeTypeOf('number');
            expect(p.post_url).toMatch(/^www\.clipnet\.com\/@[^/]+\/video\/\d{19}$/);
          } else {
            expect(p).not.toHaveProperty('play_count');
            expect(p).not.toHaveProperty('share_count');
            expect(p.post_url).toMatch(/^https:\/\/www\.picnet\.com\/(p|reel)\/[A-Za-z0-9_-]{11}\/$/);
          }
        }
        expectValid(HashtagPost, posts);
      }
      const few = await sandbox[platform].hashtagPosts({ hashtag: tag, days: 30, max: 3 });
      expect(few.length).toBe(3);
    }
  });

  it('matches the tag case-insensitively and echoes it as given', async () => {
    const [tag] = topTags();
    const lower = await sandbox[platform].hashtagPosts({ hashtag: tag!, days: 7, max: 50 });
    const upper = await sandbox[platform].hashtagPosts({ hashtag: tag!.toUpperCase(), days: 7, max: 50 });
    expect(upper.map((p) => p.post_id)).toEqual(lower.map((p) => p.post_id));
    expect(upper[0]?.source_name).toBe(tag!.toUpperCase());
  });

  it('returns an empty list for an unknown tag', async () => {
    expect(await sandbox[platform].hashtagPosts({ hashtag: 'nosuchtagatallxyz', days: 30, max: 10 })).toEqual(
      [],
    );
  });
});

describe.each(['clipnet', 'picnet'] as const)('%s hashtags that always answer', (platform) => {
  const readme = ['fitness', 'ootd', 'gaming'];

  it('finds posts of today for the README’s and the sample’s hashtags at any time of day', async () => {
    const tags = [...new Set([...readme, ...TODAY_HASHTAGS[platform]])];
    for (const date of DATES)
      for (const time of TIMES_OF_DAY) {
        now = at(date, time);
        for (const tag of tags) {
          const posts = await sandbox[platform].hashtagPosts({ hashtag: tag, days: 1, max: 100 });
          expect(posts.length, `#${tag} at ${date} ${time}`).toBeGreaterThan(0);
          for (const p of posts) {
            expect(Number(p.post_time)).toBeLessThanOrEqual(nowSec());
            expect(Number(p.post_time)).toBeGreaterThanOrEqual(anchorOf(now));
          }
        }
      }
  });

  it('grows through the day: a new post at least every three hours', async () => {
    for (const tag of TODAY_HASHTAGS[platform]) {
      let before = 0;
      for (let hour = 3; hour <= 24; hour += 3) {
        now = new Date((anchorOf(NOW1) + hour * 3600 - 1) * 1000);
        const n = (await sandbox[platform].hashtagPosts({ hashtag: tag, days: 1, max: 500 })).length;
        expect(n, `#${tag} by ${hour}:00`).toBeGreaterThan(before);
        before = n;
      }
    }
  });

  it('finds posts of the last 7 days for the hashtags people try first, at any time of day', async () => {
    expect(DAILY_HASHTAGS[platform]).toEqual(
      expect.arrayContaining([...EVERYDAY, platform === 'clipnet' ? 'fyp' : 'explore']),
    );
    for (const date of DATES)
      for (const time of ['00:00:00', '12:00:00']) {
        now = at(date, time);
        for (const tag of DAILY_HASHTAGS[platform]) {
          const posts = await sandbox[platform].hashtagPosts({ hashtag: tag, days: 7, max: 10 });
          expect(posts.length, `#${tag} at ${date} ${time}`).toBeGreaterThan(0);
        }
      }
  });
});
