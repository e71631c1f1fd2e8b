// picnet on the platform's official Graph API (backend name `picnet-graph`). It runs as the
// app's own professional account (PICNET_GRAPH_USER_ID) and can only:
// - read the media of other *business or creator* accounts, by username, through
//   business_discovery (personal accounts and numeric ids are out of reach);
// - search a hashtag (ig_hashtag_search, at most 30 distinct hashtags per 7 days per account)
//   and read its recent_media, which covers the last 24 hours only and names no author.
// It cannot read comments on posts of other accounts: comments() throws `unsupported` so that
// failover can try the next backend.
// Paging: the media edge nested in business_discovery carries only `paging.cursors.after` (no
// `next` URL, which only top-level edges get), so user posts page on `after` alone and stop at an
// empty page or a repeated cursor. The `after` value is spliced into the `fields` expression, so
// a cursor's value must look like a Graph cursor (base64) before it is sent (see cursor.ts).
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import { readItems } from '../../drift.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { expectShape, parseJson } from '../../http/json.js';
import {
  type CommentsQuery,
  type HashtagPostsQuery,
  type Page,
  type PicnetSource,
  type SourceCallContext,
  SourceError,
  type UserPostsQuery,
} from '../../interface.js';

export const PICNET_GRAPH_NAME = 'picnet-graph';
export const PICNET_GRAPH_DEFAULT_BASE = 'https://graph.facebook.com';

const MEDIA_FIELDS = 'id,caption,media_type,permalink,timestamp,like_count,comments_count';
const PAGE_SIZE = 50;
/** Graph error codes that mean "slow down" (app, user, page and IG rate limits) */
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80002]);

const Media = Type.Object({
  id: Type.String(),
  caption: Type.Optional(Type.String()),
  media_type: Type.Union([Type.Literal('IMAGE'), Type.Literal('VIDEO'), Type.Literal('CAROUSEL_ALBUM')]),
  permalink: Type.String(),
  timestamp: Type.String(),
  // omitted when the owner hides like counts
  like_count: Type.Optional(Type.Integer({ minimum: 0 })),
  comments_count: Type.Integer({ minimum: 0 }),
});
type Media = (typeof Media)['static'];
const Paging = Type.Optional(
  Type.Object({
    cursors: Type.Optional(Type.Object({ after: Type.Optional(Type.String()) })),
    next: Type.Optional(Type.String()),
  }),
);
/** items are read one by one (see drift.ts): one unreadable media item does not fail the page */
const MediaList = Type.Object({ data: Type.Array(Type.Unknown()), paging: Paging });
const Discovery = Type.Object({
  business_discovery: Type.Object({
    id: Type.String(),
    media: Type.Optional(MediaList),
  }),
});
const HashtagSearch = Type.Object({ data: Type.Array(Type.Object({ id: Type.String() })) });

export interface GraphOptions {
  accessToken: string;
  igUserId: string;
  baseUrl?: string;
  apiVersion?: string;
  now?: () => Date;
}

export class PicnetGraphSource implements PicnetSource {
  readonly name = PICNET_GRAPH_NAME;
  readonly kind = 'live' as const;
  readonly #root: string;
  readonly #now: () => Date;

  constructor(
    private readonly opts: GraphOptions,
    private readonly http: HttpClient,
  ) {
    this.#root = `${(opts.baseUrl ?? PICNET_GRAPH_DEFAULT_BASE).replace(/\/+$/, '')}/${opts.apiVersion ?? 'v21.0'}`;
    this.#now = opts.now ?? (() => new Date());
  }

  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<PicnetPost>> {
    if (!/^[A-Za-z0-9._]{1,30}$/.test(q.username) || /^\d+$/.test(q.username)) {
      throw new SourceError(
        'unsupported',
        'the Graph API finds accounts by username only (business discovery)',
        {
          backend: this.name,
        },
      );
    }
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'graph' }, async (page) => {
      const media = `media.limit(${PAGE_SIZE})${page ? `.after(${page})` : ''}{${MEDIA_FIELDS}}`;
      const res = expectShape(
        Discovery,
        await this.#get(
          'business_discovery',
          `/${this.opts.igUserId}`,
          {
            fields: `business_discovery.username(${q.username}){id,username,${media}}`,
          },
          ctx,
        ),
        this.name,
        'business_discovery',
      );
      const list = res.business_discovery.media ?? { data: [] };
      const after = list.paging?.cursors?.after;
      return {
        items: this.#read(list.data, 'business_discovery', ctx, (m) => this.#post(m)),
        next: after ?? null,
        // a nested edge has no `next`: an `after` cursor beside a non-empty page is the signal
        hasMore: after !== undefined && list.data.length > 0,
      };
    });
  }

  async comments(_q: CommentsQuery): Promise<PostComment[]> {
    throw new SourceError('unsupported', 'the Graph API cannot read comments on posts of other accounts', {
      backend: this.name,
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const found = expectShape(
      HashtagSearch,
      await this.#get(
        'ig_hashtag_search',
        '/ig_hashtag_search',
        { user_id: this.opts.igUserId, q: q.hashtag },
        ctx,
      ),
      this.name,
      'ig_hashtag_search',
    );
    const tag = found.data[0];
    if (!tag)
      throw new SourceError('not_found', `hashtag #${q.hashtag} does not exist`, { backend: this.name });
    const since = this.#now().getTime() - q.days * 86_400_000;
    return collectPages(q.max, async (page) => {
      const res = expectShape(
        MediaList,
        await this.#get(
          'recent_media',
          `/${tag.id}/recent_media`,
          {
            user_id: this.opts.igUserId,
            fields: MEDIA_FIELDS,
            limit: String(PAGE_SIZE),
            after: page ?? undefined,
          },
          ctx,
        ),
        this.name,
        'recent_media',
      );
      const after = res.paging?.cursors?.after;
      const media = this.#read(res.data, 'recent_media', ctx, (m) => this.#hashtagPost(m, q.hashtag));
      return {
        items: media.filter((p) => Number(p.post_time) * 1000 >= since),
        next: after ?? null,
        // a top-level edge says "last page" by leaving `next` out
        hasMore: Boolean(res.paging?.next && after),
      };
    });
  }

  /** reads each media item of a page, leaving out (and reporting) one it cannot read */
  #read<T>(raw: unknown[], op: string, ctx: SourceCallContext | undefined, map: (m: Media) => T): T[] {
    return readItems(raw, (r) => map(expectShape(Media, r, this.name, `${op} media item`)), {
      backend: this.name,
      what: 'post',
      ctx,
    });
  }

  #post(m: Media): PicnetPost {
    return {
      id: m.id,
      shortcode: this.#shortcode(m),
      caption: m.caption ?? '',
      url: m.permalink,
      timestamp: this.#iso(m.timestamp),
      media_type: m.media_type === 'IMAGE' ? 'image' : m.media_type === 'VIDEO' ? 'video' : 'carousel',
      // hidden like counts: the contract has no null here; 0 is documented as "hidden or none"
      stats: { likes: m.like_count ?? null, comments: m.comments_count },
    };
  }

  #hashtagPost(m: Media, hashtag: string): HashtagPost {
    return {
      post_id: m.id,
      post_text: m.caption ?? '',
      post_time: String(Math.floor(Date.parse(this.#iso(m.timestamp)) / 1000)),
      // hashtag media carry no owner: empty means "not given by the Graph API"
      profile_id: null,
      profile_name: null,
      reaction_count: m.like_count ?? null,
      comment_count: m.comments_count,
      source_name: hashtag,
      post_url: m.permalink,
    };
  }

  #shortcode(m: Media): string {
    const code = /\/(?:p|reel|tv)\/([A-Za-z0-9_-]+)/.exec(m.permalink)?.[1];
    if (!code) {
      throw new SourceError('upstream', `${this.name} sent a permalink without a shortcode (schema drift)`, {
        backend: this.name,
      });
    }
    return code;
  }

  #iso(ts: string): string {
    // Graph timestamps look like 2024-05-01T10:00:00+0000
    const t = Date.parse(ts.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    if (Number.isNaN(t))
      throw new SourceError('upstream', `${this.name} sent an unreadable timestamp`, { backend: this.name });
    return new Date(t).toISOString();
  }

  async #get(
    op: string,
    path: string,
    query: Record<string, string | undefined>,
    ctx?: SourceCallContext,
  ): Promise<unknown> {
    const res = await this.http.send({
      op,
      url: `${this.#root}${path}`,
      query: { ...query, access_token: this.opts.accessToken },
      signal: ctx?.signal,
      classify: (r) => this.#classify(op, r),
    });
    return parseJson(res.text, this.name);
  }

  #classify(op: string, r: HttpResponse): SourceError | undefined {
    if (r.status < 400) return undefined;
    let err: { code?: number; error_subcode?: number; message?: string } | undefined;
    try {
      err = (JSON.parse(r.text) as { error?: typeof err }).error;
    } catch {
      return undefined;
    }
    if (!err) return undefined;
    const backend = this.name;
    const text = `${backend} ${op}: ${this.http.upstreamMessage(err.message ?? '')} (code ${err.code ?? '?'})`;
    if (err.code === 110 || err.error_subcode === 2207013 || err.code === 24) {
      return new SourceError('not_found', `${text}: not an existing business or creator account`, {
        backend,
      });
    }
    if (err.code !== undefined && THROTTLE_CODES.has(err.code))
      return new SourceError('throttled', text, { backend });
    if (err.code === 190 || err.code === 10 || err.code === 200) {
      return new SourceError('upstream', `${text}: the Graph API refused our access token or permissions`, {
        backend,
      });
    }
    return undefined;
  }
}
