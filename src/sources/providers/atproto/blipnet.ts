// blipnet on the AT Protocol's public read API (an AppView, https://public.api.bsky.app by
// default): XRPC GET methods that answer JSON, no key needed for public data. Through our HTTP
// layer (retries, timeouts, breaker, proxy, metrics), not @atproto/api: decision 0008.
// Methods used:
//   app.bsky.actor.getProfile?actor=                      → the account (its DID), posts' first page
//   com.atproto.identity.resolveHandle?handle=            → a handle in a post URL → its DID
//   app.bsky.feed.getAuthorFeed?actor=&filter=posts_with_replies&limit=&cursor=
//                                                         → { feed: [{ post, reply?, reason? }], cursor? }
//   app.bsky.feed.getPostThread?uri=&depth=&parentHeight=0 → { thread: threadViewPost | notFoundPost | blockedPost }
//   app.bsky.feed.searchPosts?q=&sort=&since=&tag=&limit=&cursor=
//                                                         → { posts: [postView], cursor?, hitsTotal? }
// Errors are `{ "error": "<name>", "message": "…" }`: an unknown account or post is HTTP 400 with
// InvalidRequest/NotFound ("Profile not found", "Post not found"), a rate limit HTTP 429 with the
// reset time in `ratelimit-reset` (unix seconds). Some AppViews (Bluesky's among them, at times)
// refuse anonymous post search (HTTP 403): with ATPROTO_IDENTIFIER and ATPROTO_APP_PASSWORD every
// read goes, signed in, through the account's PDS, which proxies it to its AppView.
import { type TSchema, Type } from '@sinclair/typebox';
import type {
  BlipnetHashtagPost,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
} from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import { readItems } from '../../drift.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { expectShape } from '../../http/json.js';
import {
  type BlipnetHashtagQuery,
  type BlipnetPeriod,
  type BlipnetSearchQuery,
  type BlipnetSource,
  type BlipnetUserPostsQuery,
  type Page,
  type PostRef,
  type SourceCallContext,
  SourceError,
} from '../../interface.js';

export const ATPROTO_NAME = 'atproto';
export const DEFAULT_APPVIEW_URL = 'https://public.api.bsky.app';
export const DEFAULT_PDS_URL = 'https://bsky.social';

/** posts per search page: one unit of `depth` */
const SEARCH_PAGE = 25;
/** posts per author-feed page (the method's largest) */
const FEED_PAGE = 100;
/** how deep a thread is asked for: replies below it are not returned */
export const THREAD_DEPTH = 10;
const POST_COLLECTION = 'app.bsky.feed.post';

export interface AtprotoOptions {
  appviewUrl: string;
  pdsUrl: string;
  identifier?: string;
  appPassword?: string;
  now?: () => Date;
}

// ---- the parts of the responses we rely on (items are checked one by one, see drift.ts) ----

const Author = Type.Object({
  did: Type.String({ pattern: '^did:' }),
  handle: Type.String(),
  displayName: Type.Optional(Type.String()),
});
const StrongRef = Type.Object({ uri: Type.String() });
const Facet = Type.Object({
  index: Type.Object({ byteStart: Type.Integer(), byteEnd: Type.Integer() }),
  features: Type.Array(Type.Object({ $type: Type.Optional(Type.String()) }, { additionalProperties: true })),
});
const PostView = Type.Object({
  uri: Type.String({ pattern: '^at://' }),
  author: Author,
  record: Type.Object({
    text: Type.String(),
    createdAt: Type.String(),
    langs: Type.Optional(Type.Array(Type.String())),
    facets: Type.Optional(Type.Array(Facet)),
    tags: Type.Optional(Type.Array(Type.String())),
    reply: Type.Optional(Type.Object({ parent: StrongRef, root: StrongRef })),
    embed: Type.Optional(Type.Unknown()),
  }),
  embed: Type.Optional(Type.Unknown()),
  replyCount: Type.Optional(Type.Integer()),
  repostCount: Type.Optional(Type.Integer()),
  likeCount: Type.Optional(Type.Integer()),
  quoteCount: Type.Optional(Type.Integer()),
  indexedAt: Type.String(),
});
type PostView = typeof PostView.static;

const FeedItem = Type.Object({
  post: PostView,
  reason: Type.Optional(
    Type.Object(
      { $type: Type.String(), indexedAt: Type.Optional(Type.String()) },
      { additionalProperties: true },
    ),
  ),
});
const Cursor = Type.Optional(Type.String());
const AuthorFeed = Type.Object({ feed: Type.Array(Type.Unknown()), cursor: Cursor });
const SearchPosts = Type.Object({ posts: Type.Array(Type.Unknown()), cursor: Cursor });
const Thread = Type.Object({ thread: Type.Object({ $type: Type.String() }, { additionalProperties: true }) });
const Profile = Type.Object({ did: Type.String({ pattern: '^did:' }), handle: Type.String() });
const ResolvedHandle = Type.Object({ did: Type.String({ pattern: '^did:' }) });
const Session = Type.Object({ accessJwt: Type.String(), refreshJwt: Type.String(), did: Type.String() });

// ---- reading a post view into the contract's item ----

interface Obj {
  [k: string]: unknown;
}
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** the author's id of an at:// URI, and its record key, when it names a post */
function postUriParts(uri: string): { did: string; rkey: string } | undefined {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/.exec(uri);
  if (!m || m[2] !== POST_COLLECTION) return undefined;
  return { did: m[1] as string, rkey: m[3] as string };
}

export function bskyPostUrl(handleOrDid: string, rkey: string): string {
  return `https://bsky.app/profile/${handleOrDid}/post/${rkey}`;
}

/** the URLs of a view embed's images and video, and the link of its card */
function readEmbed(embed: unknown, links: string[], media: string[]): void {
  const e = obj(embed);
  if (!e) return;
  const type = e.$type;
  if (type === 'app.bsky.embed.images#view' && Array.isArray(e.images)) {
    for (const i of e.images) {
      const u = str(obj(i)?.fullsize) ?? str(obj(i)?.thumb);
      if (u) media.push(u);
    }
  } else if (type === 'app.bsky.embed.video#view') {
    const u = str(e.playlist);
    if (u) media.push(u);
  } else if (type === 'app.bsky.embed.external#view') {
    const u = str(obj(e.external)?.uri);
    if (u) links.push(u);
  } else if (type === 'app.bsky.embed.recordWithMedia#view') {
    readEmbed(e.media, links, media);
  }
}

/** the post a record quotes (embed.record or embed.recordWithMedia), when it is a post */
function quotedPost(recordEmbed: unknown): string | null {
  const e = obj(recordEmbed);
  if (!e) return null;
  const ref =
    e.$type === 'app.bsky.embed.record'
      ? obj(e.record)
      : e.$type === 'app.bsky.embed.recordWithMedia'
        ? obj(obj(e.record)?.record)
        : undefined;
  const uri = str(ref?.uri);
  return uri && postUriParts(uri) ? uri : null;
}

function iso(s: string, fallback: string): string {
  const t = Date.parse(s);
  if (!Number.isNaN(t)) return new Date(t).toISOString();
  const f = Date.parse(fallback);
  if (!Number.isNaN(f)) return new Date(f).toISOString();
  throw new SourceError('upstream', `a post carries no readable time ("${s.slice(0, 40)}")`);
}

/** the fields every blipnet item has, from an AppView post view */
export function postFields(p: PostView) {
  const parts = postUriParts(p.uri);
  if (!parts) throw new SourceError('upstream', `a post's uri names no post: ${p.uri.slice(0, 80)}`);
  const bytes = Buffer.from(p.record.text, 'utf8');
  const links: string[] = [];
  const media: string[] = [];
  const tags: string[] = [];
  const mentions: Array<{ id: string; handle: string | null }> = [];
  for (const f of p.record.facets ?? []) {
    for (const feature of f.features) {
      const ft = feature as Obj;
      if (ft.$type === 'app.bsky.richtext.facet#link' && str(ft.uri)) links.push(ft.uri as string);
      else if (ft.$type === 'app.bsky.richtext.facet#tag' && str(ft.tag)) tags.push(ft.tag as string);
      else if (ft.$type === 'app.bsky.richtext.facet#mention' && str(ft.did)) {
        // the handle as written: the text the facet covers, without its @
        const written = bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8');
        mentions.push({ id: ft.did as string, handle: written.startsWith('@') ? written.slice(1) : null });
      }
    }
  }
  tags.push(...(p.record.tags ?? []));
  readEmbed(p.embed, links, media);
  const seen = new Set<string>();
  const hashtags = tags
    .map((t) => t.replace(/^#/, ''))
    .filter((t) => t !== '' && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  const handle = p.author.handle === 'handle.invalid' ? p.author.did : p.author.handle;
  return {
    id: p.uri,
    url: bskyPostUrl(handle, parts.rkey),
    text: p.record.text,
    timestamp: iso(p.record.createdAt, p.indexedAt),
    author: { id: p.author.did, handle: p.author.handle, display_name: str(p.author.displayName) ?? null },
    stats: {
      replies: p.replyCount ?? null,
      reposts: p.repostCount ?? null,
      likes: p.likeCount ?? null,
      quotes: p.quoteCount ?? null,
    },
    language: p.record.langs?.[0] ?? null,
    links: [...new Set(links)],
    media_urls: [...new Set(media)],
    hashtags,
    mentions,
    parent_id: p.record.reply?.parent.uri ?? null,
    quote_of: quotedPost(p.record.embed),
  };
}

/** when the search's window starts: calendar days ending today (UTC), as on the sandbox */
export function periodSince(period: BlipnetPeriod, now: Date): string | undefined {
  const days = { today: 1, week: 7, month: 30, year: 365, all: 0 }[period];
  return days === 0 ? undefined : daysSince(days, now);
}

function daysSince(days: number, now: Date): string {
  const startOfToday = Math.floor(now.getTime() / 86_400_000) * 86_400_000;
  return new Date(startOfToday - (Math.max(1, days) - 1) * 86_400_000).toISOString();
}

// ---- the source ----

export class AtprotoBlipnetSource implements BlipnetSource {
  readonly name = ATPROTO_NAME;
  readonly kind = 'live' as const;
  private readonly now: () => Date;
  /** DIDs of handles already resolved (bounded: the handles are the callers' to choose) */
  private readonly dids = new Map<string, string>();
  private session: Promise<{ accessJwt: string }> | undefined;

  constructor(
    private readonly opts: AtprotoOptions,
    private readonly http: HttpClient,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  private get signedIn(): boolean {
    return this.opts.identifier !== undefined && this.opts.appPassword !== undefined;
  }

  /** one XRPC query, checked against the part of its output we read */
  private async query<T extends TSchema>(
    nsid: string,
    params: Record<string, string | number | undefined>,
    schema: T,
    ctx: SourceCallContext | undefined,
    retried = false,
  ): Promise<T['static']> {
    const headers: Record<string, string> = {};
    let base = this.opts.appviewUrl;
    if (this.signedIn) {
      base = this.opts.pdsUrl;
      headers.authorization = `Bearer ${(await this.login(ctx)).accessJwt}`;
    }
    let expired = false;
    try {
      const body = await this.http.json({
        op: nsid,
        url: `${base}/xrpc/${nsid}`,
        query: params,
        headers,
        signal: ctx?.signal,
        classify: (res) => {
          const e = this.classify(nsid, res);
          if (e?.message.includes('ExpiredToken')) expired = true;
          return e;
        },
      });
      return expectShape(schema, body, this.name, nsid);
    } catch (e) {
      if (expired && !retried) {
        // an access token lives minutes: sign in again once
        this.session = undefined;
        return this.query(nsid, params, schema, ctx, true);
      }
      throw e;
    }
  }

  private login(ctx: SourceCallContext | undefined): Promise<{ accessJwt: string }> {
    this.session ??= (async () => {
      const body = await this.http.json({
        op: 'com.atproto.server.createSession',
        method: 'POST',
        url: `${this.opts.pdsUrl}/xrpc/com.atproto.server.createSession`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: this.opts.identifier, password: this.opts.appPassword }),
        // signing in changes nothing upstream: safe to retry
        idempotent: true,
        signal: ctx?.signal,
        classify: (res) =>
          res.status === 401 || res.status === 400
            ? new SourceError(
                'upstream',
                `${this.name}: sign-in refused (HTTP ${res.status}): check the credentials`,
                {
                  backend: this.name,
                },
              )
            : undefined,
      });
      const s = expectShape(Session, body, this.name, 'createSession');
      this.http.redact.add(s.accessJwt, s.refreshJwt);
      return s;
    })().catch((e: unknown) => {
      this.session = undefined;
      throw e;
    });
    return this.session;
  }

  /** how the AppView's own errors read, before the HTTP layer's default mapping */
  private classify(nsid: string, res: HttpResponse): SourceError | undefined {
    if (res.status >= 200 && res.status < 300) return undefined;
    let name = '';
    let message = '';
    try {
      const j = JSON.parse(res.text) as { error?: unknown; message?: unknown };
      name = typeof j.error === 'string' ? j.error : '';
      message = typeof j.message === 'string' ? j.message : '';
    } catch {
      // not JSON: the default mapping reads the status
    }
    const backend = this.name;
    const detail = this.http.redact.text(`${name}${message ? `: ${message}` : ''}`.slice(0, 200));
    if (res.status === 429) {
      // ratelimit-reset is the unix time at which the window resets
      const reset = Number(res.headers['ratelimit-reset']);
      const wait = Number.isFinite(reset) ? Math.ceil(reset - this.now().getTime() / 1000) : Number.NaN;
      return new SourceError('throttled', `${backend} ${nsid}: rate limited (${detail || 'HTTP 429'})`, {
        backend,
        ...(Number.isFinite(wait) ? { retryAfterSeconds: Math.max(1, wait) } : {}),
      });
    }
    if (res.status === 400 || res.status === 404) {
      if (
        /^(NotFound|ActorNotFound|BlockedActor|BlockedByActor|AccountDeactivated|AccountTakedown)$/.test(
          name,
        ) ||
        /not found|unable to resolve|could not find|deactivated|blocked/i.test(message)
      )
        return new SourceError('not_found', `${backend} ${nsid}: ${detail}`, { backend });
    }
    if (res.status === 400 || res.status === 401) {
      if (name === 'ExpiredToken' || name === 'InvalidToken')
        return new SourceError('upstream', `${backend} ${nsid}: ExpiredToken (${detail})`, { backend });
    }
    if (res.status === 403 && nsid === 'app.bsky.feed.searchPosts' && !this.signedIn) {
      return new SourceError(
        'unsupported',
        'post search is not open to anonymous readers on this AppView right now; the operator can sign the backend in to an account',
        { backend },
      );
    }
    return undefined;
  }

  /** an account's DID from a handle or a DID */
  private async did(actor: string, ctx: SourceCallContext | undefined): Promise<string> {
    if (actor.startsWith('did:')) return actor;
    const handle = actor.toLowerCase();
    const known = this.dids.get(handle);
    if (known) return known;
    const r = await this.query('com.atproto.identity.resolveHandle', { handle }, ResolvedHandle, ctx);
    if (this.dids.size >= 10_000) this.dids.clear();
    this.dids.set(handle, r.did);
    return r.did;
  }

  async userPosts(q: BlipnetUserPostsQuery, ctx?: SourceCallContext): Promise<Page<BlipnetPost>> {
    let actor = q.username.replace(/^@+/, '');
    if (q.cursor === undefined && !actor.startsWith('did:')) {
      // the first page learns the account (and that it exists) from its profile
      const known = this.dids.get(actor.toLowerCase());
      if (known) actor = known;
      else {
        const profile = await this.query('app.bsky.actor.getProfile', { actor }, Profile, ctx);
        this.dids.set(actor.toLowerCase(), profile.did);
        actor = profile.did;
      }
    } else actor = await this.did(actor, ctx);
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'atproto' }, async (page) => {
      const res = await this.query(
        'app.bsky.feed.getAuthorFeed',
        {
          actor,
          filter: 'posts_with_replies',
          limit: Math.min(FEED_PAGE, Math.max(1, q.limit)),
          cursor: page ?? undefined,
        },
        AuthorFeed,
        ctx,
      );
      const items = readItems(
        res.feed,
        (raw): BlipnetPost | undefined => {
          const f = expectShape(FeedItem, raw, this.name, 'feed item');
          const repost = f.reason?.$type === 'app.bsky.feed.defs#reasonRepost';
          return {
            ...postFields(f.post),
            is_reply: f.post.record.reply !== undefined,
            is_repost: repost,
            reposted_at: repost && f.reason?.indexedAt ? iso(f.reason.indexedAt, f.post.indexedAt) : null,
          };
        },
        { backend: this.name, what: 'post', ctx },
      );
      const next = res.cursor ?? null;
      return { items, next, hasMore: next !== null && res.feed.length > 0 };
    });
  }

  async replies(q: { post: PostRef; limit: number }, ctx?: SourceCallContext): Promise<BlipnetReply[]> {
    const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(q.post.id);
    if (!m)
      throw new SourceError('not_found', `blipnet post ${q.post.input} not found`, { backend: this.name });
    const did = await this.did(m[1] as string, ctx);
    const uri = `at://${did}/${m[2]}/${m[3]}`;
    const res = await this.query(
      'app.bsky.feed.getPostThread',
      { uri, depth: THREAD_DEPTH, parentHeight: 0 },
      Thread,
      ctx,
    );
    const root = res.thread as Obj;
    if (root.$type === 'app.bsky.feed.defs#notFoundPost')
      throw new SourceError('not_found', `blipnet post ${q.post.input} was deleted or never existed`, {
        backend: this.name,
      });
    if (root.$type === 'app.bsky.feed.defs#blockedPost')
      throw new SourceError('not_found', `blipnet post ${q.post.input} is not visible (blocked)`, {
        backend: this.name,
      });
    const top = expectShape(PostView, root.post, this.name, 'thread post');
    const parts = postUriParts(top.uri);
    const postUrl = bskyPostUrl(
      top.author.handle === 'handle.invalid' ? top.author.did : top.author.handle,
      parts?.rkey ?? '',
    );
    const out: BlipnetReply[] = [];
    const limit = Math.max(0, q.limit);
    // depth first, in the AppView's order: each reply follows the post it answers. Deleted and
    // blocked replies (notFoundPost, blockedPost) are no posts: they are left out with their
    // sub-threads, which the AppView does not send.
    const walk = (node: Obj, parentId: string, depth: number) => {
      const replies = Array.isArray(node.replies) ? (node.replies as unknown[]) : [];
      const views = readItems(
        replies,
        (r) => {
          const o = obj(r);
          if (o?.$type !== 'app.bsky.feed.defs#threadViewPost') return undefined;
          return { node: o, post: expectShape(PostView, o.post, this.name, 'reply') };
        },
        { backend: this.name, what: 'comment', ctx },
      );
      for (const v of views) {
        if (out.length >= limit) return;
        const fields = postFields(v.post);
        out.push({ ...fields, parent_id: fields.parent_id ?? parentId, post_url: postUrl, depth });
        walk(v.node, v.post.uri, depth + 1);
      }
    };
    walk(root, top.uri, 1);
    return out;
  }

  async search(q: BlipnetSearchQuery, ctx?: SourceCallContext): Promise<Page<BlipnetSearchPost>> {
    const since = periodSince(q.period, this.now());
    const limit = Math.min(q.max, q.depth * SEARCH_PAGE);
    return readPages(q.cursor, limit, { backend: this.name, shape: 'atproto' }, async (page) => {
      const res = await this.query(
        'app.bsky.feed.searchPosts',
        { q: q.keyword, sort: q.sorting, since, limit: SEARCH_PAGE, cursor: page ?? undefined },
        SearchPosts,
        ctx,
      );
      const items = readItems(
        res.posts,
        (raw) => ({
          ...postFields(expectShape(PostView, raw, this.name, 'post')),
          source_keyword: q.keyword,
        }),
        { backend: this.name, what: 'post', ctx },
      );
      const next = res.cursor ?? null;
      return { items, next, hasMore: next !== null && res.posts.length > 0 };
    });
  }

  async hashtagPosts(q: BlipnetHashtagQuery, ctx?: SourceCallContext): Promise<BlipnetHashtagPost[]> {
    const tag = q.hashtag.trim().replace(/^#+/, '');
    // there is no hashtag feed: a search for the tag, newest first, since the window's start
    const since = daysSince(q.days, this.now());
    return collectPages(q.max, async (page) => {
      const res = await this.query(
        'app.bsky.feed.searchPosts',
        { q: `#${tag}`, tag, sort: 'latest', since, limit: SEARCH_PAGE, cursor: page ?? undefined },
        SearchPosts,
        ctx,
      );
      const items = readItems(
        res.posts,
        (raw) => ({ ...postFields(expectShape(PostView, raw, this.name, 'post')), source_hashtag: tag }),
        { backend: this.name, what: 'post', ctx },
      );
      const next = res.cursor ?? null;
      return { items, next, hasMore: next !== null && res.posts.length > 0 };
    });
  }
}
