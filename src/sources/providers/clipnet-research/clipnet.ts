// clipnet on the platform's official Research API (backend name `clipnet-research`). Only
// approved, non-commercial research apps get credentials. What it can and cannot do:
// - user posts: POST /v2/research/video/query/ with username IN [...], walking back in 30-day
//   windows (the API's maximum span), newest window first; an unknown user is indistinguishable
//   from one with no public videos (empty list, not 404).
// - hashtag posts: hashtag_name IN [...], one window of `days` (≤ 30) days.
// - comments: POST /v2/research/video/comment/list/. The comment object has no author field at
//   all; `user` is therefore null (documented), never a made-up name.
// - video ids are 64-bit integers and are read losslessly and sent back as raw JSON integers.
// - the video object's id is `id` in the field list and `video_id` in the documentation's own
//   example answer: both are read. A field the answer leaves out is never made up: a hashtag
//   post without `username` or `like_count` has null there; a user post needs all four counts
//   (the contract's are integers), so one without them is left out and reported (drift.ts).
// Quotas (documented by the platform): 1,000 requests a day, 100,000 records a day.
import { Type } from '@sinclair/typebox';
import type { ClipnetPost, HashtagPost, PostComment } from '../../../contract/items.js';
import { cursorValue, upstreamToken } from '../../cursor.js';
import { readItems } from '../../drift.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { expectShape, idString, parseJson, unixToIso } from '../../http/json.js';
import {
  type ClipnetSource,
  type CommentsQuery,
  type HashtagPostsQuery,
  type Page,
  type SourceCallContext,
  SourceError,
  type UserPostsQuery,
} from '../../interface.js';
import { withinDays } from '../data-provider.js';

export const CLIPNET_RESEARCH_NAME = 'clipnet-research';
export const CLIPNET_RESEARCH_DEFAULT_BASE = 'https://open.tiktokapis.com';

const VIDEO_FIELDS =
  'id,video_description,create_time,username,like_count,comment_count,share_count,view_count';
const COMMENT_FIELDS = 'id,video_id,text,like_count,create_time';
const MAX_COUNT = 100;
const WINDOW_DAYS = 30;
const DAY_S = 86_400;

const Id = Type.Union([Type.String({ pattern: '^\\d+$' }), Type.Integer()]);
const Count = Type.Integer({ minimum: 0 });
const ErrorStruct = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });
const Video = Type.Object({
  id: Type.Optional(Id),
  video_id: Type.Optional(Id),
  video_description: Type.Optional(Type.String()),
  create_time: Type.Integer(),
  username: Type.Optional(Type.String()),
  like_count: Type.Optional(Count),
  comment_count: Type.Optional(Count),
  share_count: Type.Optional(Count),
  view_count: Type.Optional(Count),
});
type Video = (typeof Video)['static'];
// items are checked one by one (readItems): one unreadable item does not fail its page
const VideoQuery = Type.Object({
  data: Type.Object({
    videos: Type.Array(Type.Unknown()),
    cursor: Type.Integer({ minimum: 0 }),
    has_more: Type.Boolean(),
    search_id: Type.Optional(Type.String()),
  }),
  error: ErrorStruct,
});
const Comment = Type.Object({
  id: Id,
  video_id: Id,
  text: Type.String(),
  like_count: Count,
  create_time: Type.Integer(),
});
const CommentList = Type.Object({
  data: Type.Object({
    comments: Type.Array(Type.Unknown()),
    cursor: Type.Integer({ minimum: 0 }),
    has_more: Type.Boolean(),
  }),
  error: ErrorStruct,
});
const Token = Type.Object({ access_token: Type.String(), expires_in: Type.Integer() });

export interface ResearchOptions {
  clientKey: string;
  clientSecret: string;
  baseUrl?: string;
  /** 30-day windows user posts walk back through */
  maxWindows?: number;
  now?: () => Date;
}

interface ResearchCursor {
  /** window index, 0 = the newest 30 days */
  w: number;
  /** search_id of the query in that window ('' before the first page) */
  s: string;
  /** start index within that query */
  c: number;
}

type Condition = { operation: 'IN' | 'EQ'; field_name: string; field_values: string[] };

export class ClipnetResearchSource implements ClipnetSource {
  readonly name = CLIPNET_RESEARCH_NAME;
  readonly kind = 'live' as const;
  readonly #base: string;
  readonly #now: () => Date;
  readonly #maxWindows: number;
  #token: { value: string; expiresAt: number } | undefined;
  #tokenPending: Promise<string> | undefined;

  constructor(
    private readonly opts: ResearchOptions,
    private readonly http: HttpClient,
  ) {
    this.#base = (opts.baseUrl ?? CLIPNET_RESEARCH_DEFAULT_BASE).replace(/\/+$/, '');
    this.#now = opts.now ?? (() => new Date());
    this.#maxWindows = opts.maxWindows ?? 12;
  }

  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<ClipnetPost>> {
    let pos = decodeCursor(q.cursor, this.#maxWindows);
    const items: Page<ClipnetPost>['items'] = [];
    const seen = new Set<string>();
    const cond: Condition = { operation: 'EQ', field_name: 'username', field_values: [q.username] };
    for (let calls = 0; calls < 20 && pos.w < this.#maxWindows; calls++) {
      const { start, end } = this.#window(pos.w);
      const res = await this.#query(
        [cond],
        start,
        end,
        pos,
        Math.min(MAX_COUNT, q.limit - items.length),
        ctx,
      );
      const searchId = res.search_id ?? pos.s;
      const last = res.videos.length - 1;
      const read = this.#videos(res.videos, ctx, (v, i) => ({ post: toPost(v, this.name), i }));
      for (const { post, i } of read) {
        // the same video may come twice (the documentation's own example lists one twice)
        if (seen.has(post.id)) continue;
        seen.add(post.id);
        const next: ResearchCursor =
          i === last ? this.#after(pos.w, searchId, res) : { w: pos.w, s: searchId, c: pos.c + i + 1 };
        items.push({ item: post, cursor: encodeCursor(next) });
      }
      pos = this.#after(pos.w, searchId, res);
      if (items.length >= q.limit) break;
    }
    return { items: items.slice(0, q.limit), hasMore: pos.w < this.#maxWindows };
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.#now();
    const end = ymd(now);
    const start = ymd(new Date(now.getTime() - Math.min(q.days, WINDOW_DAYS) * DAY_S * 1000));
    const cond: Condition = {
      operation: 'IN',
      field_name: 'hashtag_name',
      field_values: [q.hashtag.toLowerCase()],
    };
    const out: HashtagPost[] = [];
    const seen = new Set<string>();
    let pos: ResearchCursor = { w: 0, s: '', c: 0 };
    for (let calls = 0; calls < 20 && out.length < q.max; calls++) {
      const res = await this.#query([cond], start, end, pos, MAX_COUNT, ctx);
      const posts = this.#videos(res.videos, ctx, (v) =>
        withinDays(v.create_time, q.days, now) ? toHashtagPost(v, q.hashtag, this.name) : undefined,
      );
      for (const p of posts) {
        if (seen.has(p.post_id)) continue;
        seen.add(p.post_id);
        out.push(p);
      }
      if (!res.has_more) break;
      pos = { w: 0, s: res.search_id ?? pos.s, c: res.cursor };
    }
    return out.slice(0, q.max);
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    if (q.post.form !== 'id' || !/^\d{1,20}$/.test(q.post.id)) {
      throw new SourceError(
        'unsupported',
        'the Research API takes numeric video ids only; it cannot resolve short links',
        {
          backend: this.name,
        },
      );
    }
    const url = `https://www.tiktok.com/@/video/${q.post.id}`;
    const out: PostComment[] = [];
    let cursor = 0;
    for (let calls = 0; calls < 20 && out.length < q.limit; calls++) {
      // the id goes out as a raw JSON integer: JSON.stringify of a Number would round it
      const body = `{"video_id":${q.post.id},"max_count":${Math.min(MAX_COUNT, q.limit - out.length)},"cursor":${cursor}}`;
      const res = expectShape(
        CommentList,
        await this.#post('comment/list', '/v2/research/video/comment/list/', COMMENT_FIELDS, body, ctx),
        this.name,
        'comment/list',
      );
      const comments = readItems(
        res.data.comments,
        (r): PostComment => {
          const c = expectShape(Comment, r, this.name, 'comment/list comment');
          return {
            id: idString(c.id),
            post_url: url,
            text: c.text,
            // the Research API's comment object names no author
            user: null,
            timestamp: unixToIso(c.create_time),
            likes: c.like_count,
          };
        },
        { backend: this.name, what: 'comment', ctx },
      );
      out.push(...comments);
      if (!res.data.has_more) break;
      cursor = res.data.cursor;
    }
    return out.slice(0, q.limit);
  }

  #after(w: number, searchId: string, res: { has_more: boolean; cursor: number }): ResearchCursor {
    return res.has_more ? { w, s: searchId, c: res.cursor } : { w: w + 1, s: '', c: 0 };
  }

  #window(w: number): { start: string; end: string } {
    const endMs = this.#now().getTime() - w * WINDOW_DAYS * DAY_S * 1000;
    // start..end inclusive spans 30 days: windows touch without overlapping
    return { start: ymd(new Date(endMs - (WINDOW_DAYS - 1) * DAY_S * 1000)), end: ymd(new Date(endMs)) };
  }

  async #query(
    and: Condition[],
    start: string,
    end: string,
    pos: ResearchCursor,
    maxCount: number,
    ctx?: SourceCallContext,
  ): Promise<{ videos: unknown[]; cursor: number; has_more: boolean; search_id?: string }> {
    const body = JSON.stringify({
      query: { and },
      start_date: start,
      end_date: end,
      max_count: Math.max(1, maxCount),
      cursor: pos.c,
      ...(pos.s ? { search_id: pos.s } : {}),
    });
    const res = expectShape(
      VideoQuery,
      await this.#post('video/query', '/v2/research/video/query/', VIDEO_FIELDS, body, ctx),
      this.name,
      'video/query',
    );
    if (res.data.search_id !== undefined && res.data.search_id !== '')
      upstreamToken('digits', res.data.search_id, this.name);
    return res.data;
  }

  /** reads each video of a page, leaving out (and reporting) one it cannot read */
  #videos<T>(
    raw: unknown[],
    ctx: SourceCallContext | undefined,
    map: (v: Video, index: number) => T | undefined,
  ): T[] {
    return readItems(raw, (r, i) => map(expectShape(Video, r, this.name, 'video/query video'), i), {
      backend: this.name,
      what: 'post',
      ctx,
    });
  }

  async #post(
    op: string,
    path: string,
    fields: string,
    body: string,
    ctx?: SourceCallContext,
  ): Promise<unknown> {
    const token = await this.#accessToken(ctx);
    try {
      const res = await this.http.send({
        op,
        method: 'POST',
        idempotent: true,
        url: `${this.#base}${path}`,
        query: { fields },
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        signal: ctx?.signal,
        classify: (r) => this.#classify(op, r),
      });
      return parseJson(res.text, this.name, { lossless: true });
    } catch (e) {
      if (e instanceof SourceError && /access_token_invalid/.test(e.message)) this.#token = undefined;
      throw e;
    }
  }

  #classify(op: string, r: HttpResponse): SourceError | undefined {
    let code: string | undefined;
    let message = '';
    try {
      const j = JSON.parse(r.text) as { error?: { code?: unknown; message?: unknown } };
      if (typeof j.error?.code === 'string') code = j.error.code;
      if (typeof j.error?.message === 'string') message = j.error.message;
    } catch {
      return undefined;
    }
    if (code === undefined || code === 'ok') return undefined;
    const backend = this.name;
    const text = `${backend} ${op}: ${code}${message ? ` (${this.http.upstreamMessage(message)})` : ''}`;
    if (code === 'rate_limit_exceeded' || r.status === 429)
      return new SourceError('throttled', text, { backend });
    if (
      code === 'access_token_invalid' ||
      code === 'scope_not_authorized' ||
      r.status === 401 ||
      r.status === 403
    ) {
      return new SourceError('upstream', `${text}: the Research API refused our credentials`, { backend });
    }
    if (r.status === 404) return new SourceError('not_found', text, { backend });
    return new SourceError('upstream', text, { backend });
  }

  async #accessToken(ctx?: SourceCallContext): Promise<string> {
    const t = this.#token;
    if (t && t.expiresAt > Date.now()) return t.value;
    this.#tokenPending ??= this.#fetchToken(ctx).finally(() => {
      this.#tokenPending = undefined;
    });
    return this.#tokenPending;
  }

  async #fetchToken(ctx?: SourceCallContext): Promise<string> {
    const form = new URLSearchParams({
      client_key: this.opts.clientKey,
      client_secret: this.opts.clientSecret,
      grant_type: 'client_credentials',
    });
    const res = await this.http.send({
      op: 'oauth/token',
      method: 'POST',
      idempotent: true,
      url: `${this.#base}/v2/oauth/token/`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: ctx?.signal,
      classify: (r) =>
        r.status >= 400 && r.status < 500 && r.status !== 429
          ? new SourceError(
              'upstream',
              `${this.name} oauth/token: the Research API refused our client credentials (HTTP ${r.status})`,
              {
                backend: this.name,
              },
            )
          : undefined,
    });
    const j = parseJson(res.text, this.name) as Record<string, unknown>;
    if (typeof j.error === 'string' && j.error !== '') {
      throw new SourceError('upstream', `${this.name} oauth/token: ${j.error}`, { backend: this.name });
    }
    const tok = expectShape(Token, j, this.name, 'oauth/token');
    this.http.redact.add(tok.access_token);
    // renew a minute early so a token never expires mid-call
    this.#token = {
      value: tok.access_token,
      expiresAt: Date.now() + Math.max(0, tok.expires_in - 60) * 1000,
    };
    return tok.access_token;
  }
}

function videoId(v: Video, backend: string): string {
  const id = v.id ?? v.video_id;
  if (id === undefined) throw drift(backend, 'a video without id or video_id');
  return idString(id);
}

/** the video's page; without a username the platform still resolves the id-only form */
function videoUrl(v: Video, id: string): string {
  return `https://www.tiktok.com/@${v.username ?? ''}/video/${id}`;
}

function drift(backend: string, what: string): SourceError {
  return new SourceError('upstream', `${backend} sent ${what} (schema drift)`, { backend });
}

function toPost(v: Video, backend: string): ClipnetPost {
  const id = videoId(v, backend);
  const { view_count: views, like_count: likes, comment_count: comments, share_count: shares } = v;
  if (views === undefined || likes === undefined || comments === undefined || shares === undefined) {
    throw drift(backend, `video ${id} without its view, like, comment and share counts`);
  }
  return {
    id,
    caption: v.video_description ?? '',
    url: videoUrl(v, id),
    timestamp: unixToIso(v.create_time),
    stats: { views, likes, comments, shares },
  };
}

function toHashtagPost(v: Video, hashtag: string, backend: string): HashtagPost {
  const id = videoId(v, backend);
  if (v.comment_count === undefined) throw drift(backend, `video ${id} without comment_count`);
  return {
    post_id: id,
    post_text: v.video_description ?? '',
    post_time: String(v.create_time),
    // the Research API returns no account id: the username is the account's only identifier here
    profile_id: v.username ?? null,
    profile_name: v.username ?? null,
    reaction_count: v.like_count ?? null,
    ...(v.share_count === undefined ? {} : { share_count: v.share_count }),
    ...(v.view_count === undefined ? {} : { play_count: v.view_count }),
    comment_count: v.comment_count,
    source_name: hashtag,
    post_url: videoUrl(v, id),
  };
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

function encodeCursor(c: ResearchCursor): string {
  return JSON.stringify(c);
}

/** the largest start index a cursor may carry (the API returns at most 100,000 records a day) */
const MAX_START = 100_000;

function decodeCursor(s: string | undefined, maxWindows: number): ResearchCursor {
  if (!s) return { w: 0, s: '', c: 0 };
  try {
    const v = JSON.parse(s) as Partial<ResearchCursor>;
    if (
      Number.isInteger(v.w) &&
      (v.w as number) >= 0 &&
      (v.w as number) <= maxWindows &&
      typeof v.s === 'string' &&
      Number.isInteger(v.c) &&
      (v.c as number) >= 0 &&
      (v.c as number) <= MAX_START
    ) {
      // search_id is the upstream's numeric id of the query, or '' before the first page
      if (v.s !== '') cursorValue('digits', v.s);
      return { w: v.w as number, s: v.s, c: v.c as number };
    }
  } catch (e) {
    if (e instanceof SourceError) throw e;
  }
  throw new SourceError('bad_cursor', 'the cursor is malformed: pass back a cursor exactly as returned');
}
