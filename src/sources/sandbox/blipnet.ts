// blipnet (microblogging) served from the sandbox world: a user's posts and reposts, the reply
// threads under a post, keyword search over the posts' text and posts by hashtag.
import type { Statement } from 'better-sqlite3';
import type {
  BlipnetHashtagPost,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
} from '../../contract/items.js';
import {
  type BlipnetHashtagQuery,
  type BlipnetPeriod,
  type BlipnetSearchQuery,
  type BlipnetSource,
  type BlipnetUserPostsQuery,
  type Page,
  type PostRef,
  SourceError,
} from '../interface.js';
import { BACKEND, clampLimit, decodeCursor, encodeCursor, normalizeTag, notFound, type World } from './db.js';
import { BEGINNING, type Clock, isoAt, windowStart } from './time.js';

/** one unit of search depth is one results page of 25 posts, as on the live backend */
export const SEARCH_PAGE_SIZE = 25;

const COLLECTION = 'app.bsky.feed.post';

export function blipnetPostUrl(handle: string, rkey: string): string {
  return `https://blipnet.app/profile/${handle}/post/${rkey}`;
}

interface Account {
  pk: number;
  did: string;
  handle: string;
  display_name: string | null;
}

interface PostRow {
  pk: number;
  rkey: string;
  ts: number;
  text: string;
  lang: string | null;
  root_pk: number | null;
  parent_pk: number | null;
  depth: number;
  quote_pk: number | null;
  links: string;
  media: string;
  mentions: string;
  replies: number;
  reposts: number;
  likes: number;
  quotes: number;
  did: string;
  handle: string;
  display_name: string | null;
}

const POST_COLUMNS = `p.pk, p.rkey, p.ts, p.text, p.lang, p.root_pk, p.parent_pk, p.depth, p.quote_pk, p.links,
  p.media, p.mentions, p.replies, p.reposts, p.likes, p.quotes, a.did, a.handle, a.display_name`;

const PERIOD_DAYS: Record<Exclude<BlipnetPeriod, 'all'>, number> = {
  today: 1,
  week: 7,
  month: 30,
  year: 365,
};

/** engagement, the order of `top` search results */
const SCORE = '(p.likes + 2 * p.reposts + 3 * p.quotes + p.replies)';

// search cursors name the last post handed out by its sort key: (time, pk) for latest,
// (engagement, pk) for top
const SEARCH_CURSOR = /^sbq1\.([lt])\.(-?\d{1,12})\.(\d{1,9})$/;

function periodStart(period: BlipnetPeriod): number {
  return period === 'all' ? BEGINNING : windowStart(PERIOD_DAYS[period]);
}

/** the terms of a keyword as the full-text index splits them: runs of letters and digits */
function keywordTerms(keyword: string): string[] {
  return keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** an at:// URI's author and record key, when it names a post */
function splitUri(id: string): { actor: string; rkey: string } | undefined {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(id.trim());
  if (!m || m[2] !== COLLECTION) return undefined;
  return { actor: m[1] as string, rkey: m[3] as string };
}

export function createBlipnetSource(world: World): BlipnetSource {
  const db = world.db;
  const byDid = db.prepare('SELECT pk, did, handle, display_name FROM blip_accounts WHERE did = ?');
  const byHandle = db.prepare('SELECT pk, did, handle, display_name FROM blip_accounts WHERE handle = ?');
  const postByPk = db.prepare(
    `SELECT ${POST_COLUMNS} FROM blip_posts p JOIN blip_accounts a ON a.pk = p.account_pk WHERE p.pk = ?`,
  );
  const postByKey = db.prepare(
    `SELECT ${POST_COLUMNS} FROM blip_posts p JOIN blip_accounts a ON a.pk = p.account_pk
     WHERE p.account_pk = ? AND p.rkey = ?`,
  );
  // an account's feed: its posts and replies, and its reposts, newest first
  const feed = db
    .prepare(
      `SELECT ts, rkey AS key, pk AS post_pk, 0 AS repost FROM blip_posts WHERE account_pk = ?
       UNION ALL
       SELECT ts, rkey AS key, post_pk, 1 AS repost FROM blip_reposts WHERE account_pk = ?
       ORDER BY ts DESC, key DESC`,
    )
    .raw(true);
  const thread = db.prepare(
    `SELECT ${POST_COLUMNS} FROM blip_posts p JOIN blip_accounts a ON a.pk = p.account_pk
     WHERE p.root_pk = ? AND p.ts <= ? ORDER BY p.ts ASC, p.pk ASC`,
  );
  const searches: Record<'latest' | 'top', Statement<unknown[]>> = {
    latest: db.prepare(
      `SELECT ${POST_COLUMNS}, p.ts AS sort_key FROM blip_fts JOIN blip_posts p ON p.pk = blip_fts.rowid
       JOIN blip_accounts a ON a.pk = p.account_pk
       WHERE blip_fts MATCH ? AND p.ts >= ? AND p.ts <= ? AND (p.ts < ? OR (p.ts = ? AND p.pk < ?))
       ORDER BY p.ts DESC, p.pk DESC LIMIT ?`,
    ),
    top: db.prepare(
      `SELECT ${POST_COLUMNS}, ${SCORE} AS sort_key FROM blip_fts JOIN blip_posts p ON p.pk = blip_fts.rowid
       JOIN blip_accounts a ON a.pk = p.account_pk
       WHERE blip_fts MATCH ? AND p.ts >= ? AND p.ts <= ?
         AND (${SCORE} < ? OR (${SCORE} = ? AND p.pk < ?))
       ORDER BY ${SCORE} DESC, p.pk DESC LIMIT ?`,
    ),
  };
  const tagged = db.prepare(
    `SELECT ${POST_COLUMNS} FROM blip_tags t JOIN blip_posts p ON p.pk = t.post_pk
     JOIN blip_accounts a ON a.pk = p.account_pk
     WHERE t.tag = ? AND t.ts >= ? AND t.ts <= ? ORDER BY t.ts DESC, p.pk DESC LIMIT ?`,
  );

  const account = (actor: string): Account | undefined =>
    (actor.startsWith('did:') ? byDid.get(actor) : byHandle.get(actor.toLowerCase())) as Account | undefined;

  const uriOf = (did: string, rkey: string) => `at://${did}/${COLLECTION}/${rkey}`;
  const rowByPk = (pk: number | null): PostRow | undefined =>
    pk === null ? undefined : (postByPk.get(pk) as PostRow | undefined);

  const base = (p: PostRow, clock: Clock) => {
    const mentions = JSON.parse(p.mentions) as Array<[string, string]>;
    return {
      id: uriOf(p.did, p.rkey),
      url: blipnetPostUrl(p.handle, p.rkey),
      text: p.text,
      timestamp: isoAt(clock, p.ts),
      author: { id: p.did, handle: p.handle, display_name: p.display_name },
      stats: { replies: p.replies, reposts: p.reposts, likes: p.likes, quotes: p.quotes },
      language: p.lang,
      links: JSON.parse(p.links) as string[],
      media_urls: JSON.parse(p.media) as string[],
      hashtags: [
        ...new Set([...p.text.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((m) => (m[1] as string).toLowerCase())),
      ],
      mentions: mentions.map(([id, handle]) => ({ id, handle })),
      parent_id: p.parent_pk === null ? null : idOf(p.parent_pk),
      quote_of: p.quote_pk === null ? null : idOf(p.quote_pk),
    };
  };
  const ids = new Map<number, string>();
  const idOf = (pk: number): string => {
    let id = ids.get(pk);
    if (id === undefined) {
      const row = rowByPk(pk);
      id = row ? uriOf(row.did, row.rkey) : '';
      if (ids.size >= 100_000) ids.clear();
      ids.set(pk, id);
    }
    return id;
  };

  const findPost = (ref: PostRef, clock: Clock): PostRow | undefined => {
    const parts = splitUri(ref.id);
    if (!parts) return undefined;
    const a = account(parts.actor);
    if (!a) return undefined;
    const row = postByKey.get(a.pk, parts.rkey) as PostRow | undefined;
    return row && row.ts <= clock.nowOffset ? row : undefined;
  };

  const decodeSearchCursor = (cursor: string, sorting: 'latest' | 'top') => {
    const m = SEARCH_CURSOR.exec(cursor);
    if (!m || (m[1] === 'l') !== (sorting === 'latest'))
      throw new SourceError('bad_cursor', 'cursor is malformed or was issued for another search', {
        backend: BACKEND,
      });
    return { key: Number(m[2]), pk: Number(m[3]) };
  };

  return {
    name: 'sandbox',
    kind: 'sandbox',

    async userPosts(q: BlipnetUserPostsQuery): Promise<Page<BlipnetPost>> {
      const a = account(q.username.trim().replace(/^@+/, ''));
      if (!a) throw notFound(`blipnet user ${q.username}`);
      const clock = world.clock();
      const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
      const n = clampLimit(q.limit);
      const items: Page<BlipnetPost>['items'] = [];
      let hasMore = false;
      for (const [ts, key, postPk, repost] of feed.iterate(a.pk, a.pk) as Iterable<
        [number, string, number, number]
      >) {
        if (ts > clock.nowOffset) continue;
        if (after && !(ts < after.ts || (ts === after.ts && key < after.id))) continue;
        if (items.length >= n) {
          hasMore = true;
          break;
        }
        const p = rowByPk(postPk);
        if (!p) continue;
        items.push({
          item: {
            ...base(p, clock),
            is_reply: p.parent_pk !== null,
            is_repost: repost === 1,
            reposted_at: repost === 1 ? isoAt(clock, ts) : null,
          },
          cursor: encodeCursor(ts, key),
        });
      }
      return { items, hasMore };
    },

    async replies(q: { post: PostRef; limit: number }): Promise<BlipnetReply[]> {
      const clock = world.clock();
      const post = findPost(q.post, clock);
      if (!post) throw notFound(`blipnet post ${q.post.input}`);
      const rows = thread.all(post.root_pk ?? post.pk, clock.nowOffset) as PostRow[];
      const kids = new Map<number, PostRow[]>();
      for (const r of rows) {
        if (r.parent_pk === null) continue;
        const list = kids.get(r.parent_pk) ?? [];
        list.push(r);
        kids.set(r.parent_pk, list);
      }
      // the most liked replies first at each level, then the oldest; depth first, so that each
      // reply follows the post it answers
      for (const list of kids.values()) list.sort((x, y) => y.likes - x.likes || x.ts - y.ts || x.pk - y.pk);
      const postUrl = blipnetPostUrl(post.handle, post.rkey);
      const out: BlipnetReply[] = [];
      const limit = clampLimit(q.limit);
      const walk = (pk: number, depth: number) => {
        for (const r of kids.get(pk) ?? []) {
          if (out.length >= limit) return;
          out.push({ ...base(r, clock), parent_id: idOf(pk), post_url: postUrl, depth });
          walk(r.pk, depth + 1);
        }
      };
      walk(post.pk, 1);
      return out;
    },

    async search(q: BlipnetSearchQuery): Promise<Page<BlipnetSearchPost>> {
      const terms = keywordTerms(q.keyword);
      const limit = Math.min(clampLimit(q.max), clampLimit(q.depth) * SEARCH_PAGE_SIZE);
      if (terms.length === 0 || limit === 0) return { items: [], hasMore: false };
      const clock = world.clock();
      const after =
        q.cursor === undefined
          ? { key: Number.MAX_SAFE_INTEGER, pk: Number.MAX_SAFE_INTEGER }
          : decodeSearchCursor(q.cursor, q.sorting);
      // every term must match (implicit AND); quoting keeps FTS5 operators in a keyword literal
      const match = terms.map((t) => `"${t}"`).join(' ');
      const rows = searches[q.sorting].all(
        match,
        periodStart(q.period),
        clock.nowOffset,
        after.key,
        after.key,
        after.pk,
        limit + 1,
      ) as Array<PostRow & { sort_key: number }>;
      const tag = q.sorting === 'latest' ? 'l' : 't';
      return {
        items: rows.slice(0, limit).map((p) => ({
          item: { ...base(p, clock), source_keyword: q.keyword },
          cursor: `sbq1.${tag}.${p.sort_key}.${p.pk}`,
        })),
        hasMore: rows.length > limit,
      };
    },

    async hashtagPosts(q: BlipnetHashtagQuery): Promise<BlipnetHashtagPost[]> {
      const tag = normalizeTag(q.hashtag);
      if (!tag) return [];
      const clock = world.clock();
      const source = q.hashtag.trim().replace(/^#+/, '');
      const rows = tagged.all(tag, windowStart(q.days), clock.nowOffset, clampLimit(q.max)) as PostRow[];
      return rows.map((p) => ({ ...base(p, clock), source_hashtag: source }));
    },
  };
}
