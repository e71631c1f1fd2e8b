// What clipnet and picnet share: accounts, posts, comments and hashtags live in the same tables,
// told apart by their platform column.
import type { Statement } from 'better-sqlite3';
import type { HashtagPost, PostComment } from '../../contract/items.js';
import { reusable } from '../../reusable-json.js';
import type { HashtagPostsQuery, PostRef } from '../interface.js';
import { clampLimit, decodeCursor, encodeCursor, normalizeTag, type World } from './db.js';
import { type Clock, isoAt, unixAt, windowStart } from './time.js';

export interface AccountRecord {
  pk: number;
  handle: string;
  user_id: string;
}

export interface PostRecord {
  pk: number;
  id: string;
  ts: number;
  caption: string;
  code: string;
  media_type: string | null;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  handle: string;
  user_id: string;
}

/** a post of an account's in-memory list, with the sandbox cursor that continues after it */
interface ListedPost extends PostRecord {
  cursor: string;
}

export interface CommentRecord {
  id: string;
  ts: number;
  user: string;
  text: string;
  likes: number;
}

const POST_COLUMNS =
  'p.pk, p.id, p.ts, p.caption, p.code, p.media_type, p.views, p.likes, p.comments, p.shares, a.handle, a.user_id';

/** the columns of user_posts, in PostRecord order, read as arrays by the page statement */
const PAGE_COLUMNS = 'pk, id, ts, caption, code, media_type, views, likes, comments, shares';
type PageRow = [number, string, number, string, string, string | null, number, number, number, number];

/** a post's contract item as of a day, built once per post and day and `reusable` (frozen, its
 *  JSON text kept): an account's pages are read again and again, and only the day changes them */
export function dailyItems<T extends object>(
  make: (row: PostRecord, clock: Clock) => T,
): (row: PostRecord, clock: Clock) => T {
  const memo = new WeakMap<PostRecord, { anchor: number; item: T }>();
  return (row, clock) => {
    const m = memo.get(row);
    if (m !== undefined && m.anchor === clock.anchor) return m.item;
    const item = reusable(make(row, clock));
    memo.set(row, { anchor: clock.anchor, item });
    return item;
  };
}

export class SocialTables {
  private byHandle: Statement;
  private byUserId: Statement;
  private page: Statement;
  private postById: Statement;
  private postByCode: Statement;
  private topComments: Statement;
  private tagged: Statement;
  /** each account's posts once read (newest first): the world never changes while it is open,
   *  and a page is then a binary search and a slice instead of a query */
  private readonly accountPosts = new Map<number, readonly ListedPost[]>();
  private readonly accounts = new Map<string, AccountRecord | undefined>();

  constructor(
    readonly world: World,
    readonly platform: 'clipnet' | 'picnet',
  ) {
    const db = world.db;
    this.byHandle = db.prepare('SELECT pk, handle, user_id FROM accounts WHERE platform = ? AND handle = ?');
    this.byUserId = db.prepare('SELECT pk, handle, user_id FROM accounts WHERE platform = ? AND user_id = ?');
    // an account's posts, newest first, ties by id (descending): one backward range scan of the
    // clustered copy (no join, no row lookups), rows as arrays
    this.page = db
      .prepare(`SELECT ${PAGE_COLUMNS} FROM user_posts WHERE account_pk = ? ORDER BY ts DESC, id DESC`)
      .raw(true);
    this.postById = db.prepare(
      `SELECT ${POST_COLUMNS} FROM posts p JOIN accounts a ON a.pk = p.account_pk WHERE p.platform = ? AND p.id = ?`,
    );
    this.postByCode = db.prepare(
      `SELECT ${POST_COLUMNS} FROM posts p JOIN accounts a ON a.pk = p.account_pk WHERE p.platform = ? AND p.code = ?`,
    );
    // top comments first: most liked, then newest
    this.topComments = db.prepare(
      `SELECT id, ts, user, text, likes FROM comments WHERE post_pk = ? AND ts <= ?
       ORDER BY likes DESC, ts DESC, pk ASC LIMIT ?`,
    );
    this.tagged = db.prepare(
      `SELECT ${POST_COLUMNS} FROM post_tags t JOIN posts p ON p.pk = t.post_pk JOIN accounts a ON a.pk = p.account_pk
       WHERE t.platform = ? AND t.tag = ? AND t.ts >= ? AND t.ts <= ?
       ORDER BY t.ts DESC, p.id DESC LIMIT ?`,
    );
  }

  accountByHandle(handle: string): AccountRecord | undefined {
    if (this.accounts.has(handle)) return this.accounts.get(handle);
    const account = this.byHandle.get(this.platform, handle) as AccountRecord | undefined;
    // handles asked for are the callers' to choose: bounded, unknown ones included
    if (this.accounts.size >= 10_000) this.accounts.clear();
    this.accounts.set(handle, account ? Object.freeze(account) : undefined);
    return account;
  }

  private postsOf(account: AccountRecord): readonly ListedPost[] {
    let posts = this.accountPosts.get(account.pk);
    if (!posts) {
      posts = (this.page.all(account.pk) as PageRow[]).map((r) =>
        Object.freeze({
          pk: r[0],
          id: r[1],
          ts: r[2],
          caption: r[3],
          code: r[4],
          media_type: r[5],
          views: r[6],
          likes: r[7],
          comments: r[8],
          shares: r[9],
          handle: account.handle,
          user_id: account.user_id,
          cursor: encodeCursor(r[2], r[1]),
        }),
      );
      this.accountPosts.set(account.pk, posts);
    }
    return posts;
  }

  accountByUserId(userId: string): AccountRecord | undefined {
    return this.byUserId.get(this.platform, userId) as AccountRecord | undefined;
  }

  /** one page of an account's visible posts, newest first, with the cursor after each */
  postsPage(
    account: AccountRecord,
    clock: Clock,
    limit: number,
    cursor: string | undefined,
  ): { rows: Array<{ row: PostRecord; cursor: string }>; hasMore: boolean } {
    const after = cursor === undefined ? { ts: clock.nowOffset + 1, id: '' } : decodeCursor(cursor);
    const n = clampLimit(limit);
    const posts = this.postsOf(account);
    // newest first, continuing strictly after the cursor's key, none after now: the posts that
    // qualify are a suffix of the list; find where it starts (ids are ASCII, so JavaScript's
    // string order is SQLite's)
    const qualifies = (p: PostRecord) =>
      p.ts <= clock.nowOffset && (p.ts < after.ts || (p.ts === after.ts && p.id < after.id));
    let lo = 0;
    let hi = posts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (qualifies(posts[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    const end = Math.min(posts.length, lo + n);
    const rows: Array<{ row: PostRecord; cursor: string }> = [];
    for (let i = lo; i < end; i++) {
      const row = posts[i]!;
      rows.push({ row, cursor: row.cursor });
    }
    return { rows, hasMore: posts.length > end };
  }

  findPost(ref: PostRef, clock: Clock, idFirst: 'id' | 'code'): PostRecord | undefined {
    const key = ref.id.trim();
    const byId = () => this.postById.get(this.platform, key) as PostRecord | undefined;
    const byCode = () => this.postByCode.get(this.platform, key) as PostRecord | undefined;
    const row = idFirst === 'id' ? (byId() ?? byCode()) : (byCode() ?? byId());
    // a post whose time has not come yet today does not exist yet
    return row && row.ts <= clock.nowOffset ? row : undefined;
  }

  comments(post: PostRecord, clock: Clock, limit: number): CommentRecord[] {
    return this.topComments.all(post.pk, clock.nowOffset, clampLimit(limit)) as CommentRecord[];
  }

  byHashtag(hashtag: string, days: number, max: number, clock: Clock): PostRecord[] {
    const tag = normalizeTag(hashtag);
    if (!tag) return [];
    return this.tagged.all(
      this.platform,
      tag,
      windowStart(days),
      clock.nowOffset,
      clampLimit(max),
    ) as PostRecord[];
  }

  /** a post's top comments in the contract's shape */
  postComments(post: PostRecord, clock: Clock, limit: number, postUrl: string): PostComment[] {
    return this.comments(post, clock, limit).map((c) => ({
      id: c.id,
      post_url: postUrl,
      text: c.text,
      user: `@${c.user}`,
      timestamp: isoAt(clock, c.ts),
      likes: c.likes,
    }));
  }

  /** hashtag search results in the contract's shape; `extra` adds the platform's own fields */
  hashtagPosts(
    q: HashtagPostsQuery,
    clock: Clock,
    postUrl: (p: PostRecord) => string,
    extra: (p: PostRecord) => Partial<HashtagPost> = () => ({}),
  ): HashtagPost[] {
    const source = q.hashtag.trim().replace(/^#+/, '');
    return this.byHashtag(q.hashtag, q.days, q.max, clock).map((p) => ({
      post_id: p.id,
      post_text: p.caption,
      post_time: String(unixAt(clock, p.ts)),
      profile_id: p.user_id,
      profile_name: p.handle,
      reaction_count: p.likes,
      ...extra(p),
      comment_count: p.comments,
      source_name: source,
      post_url: postUrl(p),
    }));
  }
}
