// What clipnet and picnet share: accounts, posts, comments and hashtags live in the same tables,
// told apart by their platform column.
import type { Statement } from 'better-sqlite3';
import type { PostRef } from '../interface.js';
import { clampLimit, decodeCursor, encodeCursor, normalizeTag, type World } from './db.js';
import { type Clock, windowStart } from './time.js';

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

export interface CommentRecord {
  id: string;
  ts: number;
  user: string;
  text: string;
  likes: number;
}

const POST_COLUMNS =
  'p.pk, p.id, p.ts, p.caption, p.code, p.media_type, p.views, p.likes, p.comments, p.shares, a.handle, a.user_id';

export class SocialTables {
  private byHandle: Statement;
  private byUserId: Statement;
  private page: Statement;
  private postById: Statement;
  private postByCode: Statement;
  private topComments: Statement;
  private tagged: Statement;

  constructor(
    readonly world: World,
    readonly platform: 'clipnet' | 'picnet',
  ) {
    const db = world.db;
    this.byHandle = db.prepare('SELECT pk, handle, user_id FROM accounts WHERE platform = ? AND handle = ?');
    this.byUserId = db.prepare('SELECT pk, handle, user_id FROM accounts WHERE platform = ? AND user_id = ?');
    // newest first, ties by id (descending), continuing strictly after the cursor's key
    this.page = db.prepare(
      `SELECT ${POST_COLUMNS} FROM posts p JOIN accounts a ON a.pk = p.account_pk
       WHERE p.account_pk = ? AND (p.ts < ? OR (p.ts = ? AND p.id < ?)) AND p.ts <= ?
       ORDER BY p.ts DESC, p.id DESC LIMIT ?`,
    );
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
    return this.byHandle.get(this.platform, handle) as AccountRecord | undefined;
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
    const rows = this.page.all(
      account.pk,
      after.ts,
      after.ts,
      after.id,
      clock.nowOffset,
      n + 1,
    ) as PostRecord[];
    const hasMore = rows.length > n;
    return {
      rows: rows.slice(0, n).map((row) => ({ row, cursor: encodeCursor(row.ts, row.id) })),
      hasMore,
    };
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
}
