// blipnet served by the sandbox: a user's posts with replies and reposts flagged, reply threads
// flattened depth first, keyword search with periods, sorting and cursors, hashtag posts.
import { isValidDid, isValidHandle } from '@atproto/syntax';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BlipnetHashtagPost,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
} from '../../../src/contract/items.js';
import { parsePostRef } from '../../../src/services/post-refs.js';
import { SourceError } from '../../../src/sources/interface.js';
import { openSandbox, type Sandbox } from '../../../src/sources/sandbox/index.js';
import {
  BLIPNET_PINNED_ACCOUNTS,
  BLIPNET_TODAY_HASHTAGS,
} from '../../../src/sources/sandbox/world/featured.js';
import {
  at,
  DATES,
  expectValid,
  hasHashtag,
  NOW1,
  NOW2,
  TIMES_OF_DAY,
  tempWorld,
  tokens,
} from './helpers.js';

const world = tempWorld('blipnet');
let sandbox: Sandbox;
let db: Database.Database;
let now = NOW1;

const MARA = BLIPNET_PINNED_ACCOUNTS[0]!;

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

async function errorKind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SourceError) return err.kind;
    throw err;
  }
  return 'none';
}

const ref = (url: string) => {
  const r = parsePostRef('blipnet', url);
  if (!r) throw new Error(`no post in ${url}`);
  return r;
};

/** every post of a user, paging 17 at a time */
async function allPosts(username: string): Promise<BlipnetPost[]> {
  const out: BlipnetPost[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await sandbox.blipnet.userPosts({ username, limit: 17, cursor });
    out.push(...page.items.map((p) => p.item));
    if (!page.hasMore) return out;
    cursor = page.items[page.items.length - 1]!.cursor;
  }
  throw new Error('never ended');
}

describe('accounts', () => {
  it('have domain-name handles and DIDs, the pinned ones as the docs name them', () => {
    const rows = db.prepare('SELECT did, handle, display_name FROM blip_accounts').all() as Array<{
      did: string;
      handle: string;
      display_name: string | null;
    }>;
    expect(rows.length).toBeGreaterThan(200);
    expect(rows.filter((r) => !isValidHandle(r.handle) || !isValidDid(r.did))).toEqual([]);
    expect(rows.some((r) => r.display_name === null)).toBe(true);
    for (const p of BLIPNET_PINNED_ACCOUNTS)
      expect(rows.find((r) => r.handle === p.handle)).toEqual({
        did: p.did,
        handle: p.handle,
        display_name: p.displayName,
      });
  });
});

describe('user posts', () => {
  it('pages through every post, reply and repost once, newest first, by handle or DID alike', async () => {
    const posts = await allPosts(MARA.handle);
    expectValid(BlipnetPost, posts);
    expect(posts.length).toBeGreaterThan(30);
    // a repost is at the time it was reposted, the others at the time they were written
    const times = posts.map((p) => p.reposted_at ?? p.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(posts.map((p) => `${p.id}:${p.reposted_at}`)).size).toBe(posts.length);
    expect((await allPosts(MARA.did)).map((p) => p.id)).toEqual(posts.map((p) => p.id));
    expect((await allPosts(`@${MARA.handle.toUpperCase()}`)).length).toBe(posts.length);
  });

  it('flags replies and reposts: a repost carries its original author, a reply the post it answers', async () => {
    const posts = await allPosts(MARA.handle);
    const reposts = posts.filter((p) => p.is_repost);
    const replies = posts.filter((p) => p.is_reply);
    const own = posts.filter((p) => !p.is_repost && !p.is_reply);
    expect(reposts.length).toBeGreaterThan(0);
    expect(replies.length).toBeGreaterThan(0);
    expect(own.length).toBeGreaterThan(0);
    for (const p of reposts) {
      expect(p.author.handle).not.toBe(MARA.handle);
      expect(p.reposted_at! >= p.timestamp).toBe(true);
    }
    for (const p of [...replies, ...own]) {
      expect(p.author).toEqual({ id: MARA.did, handle: MARA.handle, display_name: MARA.displayName });
      expect(p.reposted_at).toBeNull();
    }
    for (const p of replies)
      expect(p.parent_id).toMatch(/^at:\/\/did:plc:[a-z2-7]{24}\/app\.bsky\.feed\.post\//);
    for (const p of own) expect(p.parent_id).toBeNull();
    // the web URL names the same post as the id, by the author's handle
    for (const p of posts) expect(ref(p.url).id).toBe(p.id.replace(p.author.id, p.author.handle));
  });

  it('shows nothing written after now, and answers an unknown user or a foreign cursor with the right error', async () => {
    now = at('2025-06-15', '00:00:01');
    const early = await allPosts(MARA.handle);
    now = at('2025-06-15', '23:59:59');
    const late = await allPosts(MARA.handle);
    expect(late.length).toBeGreaterThanOrEqual(early.length);
    for (const p of late) expect(Date.parse(p.reposted_at ?? p.timestamp)).toBeLessThanOrEqual(now.getTime());
    expect(await errorKind(sandbox.blipnet.userPosts({ username: 'nobody.blipnet.social', limit: 5 }))).toBe(
      'not_found',
    );
    expect(
      await errorKind(sandbox.blipnet.userPosts({ username: MARA.handle, limit: 5, cursor: 'sbq1.l.5.5' })),
    ).toBe('bad_cursor');
  });
});

describe('replies', () => {
  /** a well-replied post of the last week */
  function threadRoot(): { url: string; replies: number } {
    const row = db
      .prepare(
        `SELECT a.handle, p.rkey, p.replies FROM blip_posts p JOIN blip_accounts a ON a.pk = p.account_pk
         WHERE p.depth = 0 AND p.ts < -86400 AND EXISTS (SELECT 1 FROM blip_posts c WHERE c.depth >= 3 AND c.root_pk = p.pk)
         ORDER BY p.replies DESC LIMIT 1`,
      )
      .get() as { handle: string; rkey: string; replies: number };
    return { url: `https://blipnet.app/profile/${row.handle}/post/${row.rkey}`, replies: row.replies };
  }

  it('flatten the thread depth first: each reply follows the post it answers, one level deeper', async () => {
    const root = threadRoot();
    const post = ref(root.url);
    const replies = await sandbox.blipnet.replies({ post, limit: 500 });
    expectValid(BlipnetReply, replies);
    expect(replies.filter((r) => r.depth === 1).length).toBe(root.replies);
    expect(Math.max(...replies.map((r) => r.depth))).toBeGreaterThanOrEqual(3);
    const depthOf = new Map<string, number>([[post.id.replace(/^at:\/\/[^/]+/, ''), 0]]);
    const key = (id: string) => id.replace(/^at:\/\/[^/]+/, '');
    for (const r of replies) {
      // the parent came before (or is the post), and the reply is one level below it
      expect(depthOf.get(key(r.parent_id))).toBe(r.depth - 1);
      expect(r.post_url).toBe(root.url);
      depthOf.set(key(r.id), r.depth);
    }
    // the same thread by the post's at:// URI with the author's DID
    const did = (
      db.prepare('SELECT did FROM blip_accounts WHERE handle = ?').get(root.url.split('/')[4]) as {
        did: string;
      }
    ).did;
    const byUri = await sandbox.blipnet.replies({
      post: ref(`at://${did}/app.bsky.feed.post/${root.url.split('/').pop()}`),
      limit: 500,
    });
    expect(byUri.map((r) => r.id)).toEqual(replies.map((r) => r.id));
    const few = await sandbox.blipnet.replies({ post, limit: 3 });
    expect(few.map((r) => r.id)).toEqual(replies.slice(0, 3).map((r) => r.id));
  });

  it('of a reply are its own sub-thread; an unknown post is not found', async () => {
    const root = threadRoot();
    const all = await sandbox.blipnet.replies({ post: ref(root.url), limit: 500 });
    const mid = all.find((r) => all.some((x) => x.parent_id === r.id))!;
    const sub = await sandbox.blipnet.replies({ post: ref(mid.url), limit: 500 });
    expect(sub.length).toBeGreaterThan(0);
    expect(sub.every((r) => all.some((x) => x.id === r.id))).toBe(true);
    expect(sub[0]!.parent_id).toBe(mid.id);
    expect(sub[0]!.depth).toBe(1);
    const missing = ref(`https://blipnet.app/profile/${MARA.handle}/post/3zzzzzzzzzzzz`);
    expect(await errorKind(sandbox.blipnet.replies({ post: missing, limit: 5 }))).toBe('not_found');
  });
});

describe('search', () => {
  it('finds posts holding every word, newest first or by engagement, inside the period', async () => {
    const latest = await sandbox.blipnet.search({
      keyword: 'Coffee',
      max: 200,
      depth: 8,
      period: 'month',
      sorting: 'latest',
    });
    const items = latest.items.map((i) => i.item);
    expectValid(BlipnetSearchPost, items);
    expect(items.length).toBeGreaterThan(10);
    for (const p of items) {
      expect(tokens(p.text).has('coffee')).toBe(true);
      expect(p.source_keyword).toBe('Coffee');
      expect(Date.parse(p.timestamp)).toBeGreaterThanOrEqual(Date.parse('2025-05-17T00:00:00Z'));
    }
    const times = items.map((p) => p.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const top = (
      await sandbox.blipnet.search({ keyword: 'coffee', max: 200, depth: 8, period: 'month', sorting: 'top' })
    ).items.map((i) => i.item);
    const score = (p: BlipnetSearchPost) =>
      p.stats.likes! + 2 * p.stats.reposts! + 3 * p.stats.quotes! + p.stats.replies!;
    expect(top.map(score)).toEqual([...top.map(score)].sort((a, b) => b - a));
    expect(new Set(top.map((p) => p.id))).toEqual(new Set(items.map((p) => p.id)));
    const week = await sandbox.blipnet.search({
      keyword: 'coffee',
      max: 200,
      depth: 8,
      period: 'week',
      sorting: 'latest',
    });
    expect(week.items.length).toBeLessThan(items.length);
    const two = await sandbox.blipnet.search({
      keyword: 'nothing matches zzqx',
      max: 10,
      depth: 1,
      period: 'all',
      sorting: 'top',
    });
    expect(two.items).toEqual([]);
  });

  it('pages by depth (25 a page) and continues from a cursor without repeats, in either order', async () => {
    for (const sorting of ['latest', 'top'] as const) {
      const whole = await sandbox.blipnet.search({
        keyword: 'books',
        max: 500,
        depth: 20,
        period: 'all',
        sorting,
      });
      const one = await sandbox.blipnet.search({
        keyword: 'books',
        max: 500,
        depth: 1,
        period: 'all',
        sorting,
      });
      expect(one.items).toHaveLength(25);
      expect(one.hasMore).toBe(true);
      const next = await sandbox.blipnet.search({
        keyword: 'books',
        max: 10,
        depth: 1,
        period: 'all',
        sorting,
        cursor: one.items[24]!.cursor,
      });
      expect([...one.items, ...next.items].map((i) => i.item.id)).toEqual(
        whole.items.slice(0, 35).map((i) => i.item.id),
      );
      const other = sorting === 'latest' ? 'top' : 'latest';
      expect(
        await errorKind(
          sandbox.blipnet.search({
            keyword: 'books',
            max: 5,
            depth: 1,
            period: 'all',
            sorting: other,
            cursor: one.items[0]!.cursor,
          }),
        ),
      ).toBe('bad_cursor');
    }
  });
});

describe('hashtag posts', () => {
  it('are the posts carrying the hashtag within the window, newest first', async () => {
    const posts = await sandbox.blipnet.hashtagPosts({ hashtag: '#Books', days: 7, max: 500 });
    expectValid(BlipnetHashtagPost, posts);
    expect(posts.length).toBeGreaterThan(5);
    const start = Date.parse('2025-06-09T00:00:00Z');
    for (const p of posts) {
      expect(hasHashtag(p.text, 'books')).toBe(true);
      expect(p.hashtags).toContain('books');
      expect(p.source_hashtag).toBe('Books');
      expect(Date.parse(p.timestamp)).toBeGreaterThanOrEqual(start);
    }
    const times = posts.map((p) => p.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const three = await sandbox.blipnet.hashtagPosts({ hashtag: 'books', days: 7, max: 3 });
    expect(three.map((p) => p.id)).toEqual(posts.slice(0, 3).map((p) => p.id));
  });

  it('the promised hashtags have posts today at any time of day, and on each of the last days', async () => {
    for (const date of DATES)
      for (const time of TIMES_OF_DAY) {
        now = at(date, time);
        for (const tag of BLIPNET_TODAY_HASHTAGS) {
          const today = await sandbox.blipnet.hashtagPosts({ hashtag: tag, days: 1, max: 5 });
          expect(today.length, `#${tag} at ${date} ${time}`).toBeGreaterThan(0);
        }
      }
    now = NOW2;
    for (const tag of BLIPNET_TODAY_HASHTAGS) {
      const week = await sandbox.blipnet.hashtagPosts({ hashtag: tag, days: 7, max: 500 });
      const days = new Set(week.map((p) => p.timestamp.slice(0, 10)));
      expect(days.size, `#${tag}`).toBe(7);
    }
  });
});

describe('the platform’s own idioms', () => {
  it('posts carry links, images, mentions, quotes, several languages and numbered self-threads', async () => {
    const q = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(q("SELECT COUNT(*) n FROM blip_posts WHERE links <> '[]'")).toBeGreaterThan(100);
    expect(q("SELECT COUNT(*) n FROM blip_posts WHERE media <> '[]'")).toBeGreaterThan(100);
    expect(q("SELECT COUNT(*) n FROM blip_posts WHERE mentions <> '[]'")).toBeGreaterThan(100);
    expect(q('SELECT COUNT(*) n FROM blip_posts WHERE quote_pk IS NOT NULL')).toBeGreaterThan(50);
    expect(q('SELECT COUNT(DISTINCT lang) n FROM blip_posts WHERE lang IS NOT NULL')).toBeGreaterThanOrEqual(
      5,
    );
    expect(q("SELECT COUNT(*) n FROM blip_posts WHERE text GLOB '* 1/[234]*'")).toBeGreaterThan(10);
    // no other platform's words
    expect(
      q(
        "SELECT COUNT(*) n FROM blip_posts WHERE text LIKE '%#fyp%' OR text LIKE '%#shorts%' OR text LIKE '%link in bio%'",
      ),
    ).toBe(0);
    // the quoted post is older and someone else's
    expect(
      q(`SELECT COUNT(*) n FROM blip_posts p JOIN blip_posts q ON q.pk = p.quote_pk
         WHERE q.ts >= p.ts OR q.account_pk = p.account_pk`),
    ).toBe(0);
  });
});
