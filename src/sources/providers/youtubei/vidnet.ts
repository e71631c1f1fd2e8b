// vidnet on the platform's own web API (InnerTube) through youtubei.js (backend name
// `youtubei`, the default live vidnet backend; no key, no quota, but unofficial).
//
// youtubei.js builds the session offline (client context, visitor data, headers) and sends
// each request through our HTTP layer via an injected fetch; YOUTUBEI_BASE_URL replaces the
// https://www.youtube.com origin of every request (a mirror, or a replay server in tests). The
// request parameters are encoded here (innertube.ts) and the *responses* are read here from the
// raw InnerTube JSON rather than through youtubei.js's node classes: its parsers skip what they
// do not recognise, so a renamed renderer would silently give empty results, where these
// readers skip and report one unreadable item and fail a page of which none can be read
// (../drift.ts).
//
// Every operation stops before the request it does not need: no next page once `max` (or a
// comments `limit`) is met, and /player only for the Shorts returned (a Shorts list shows no
// date, which the contract requires).
//
// Exactness (list pages show display text): view counts are exact when shown in full
// ("1,234,567 views"), rounded when abbreviated ("1.2M views"); published_at is *estimated*
// from relative text ("3 days ago" = now − 3 days, a month = 30 days, a year = 365 days)
// except where a /player read gives the exact date (Shorts); likes and comment counts are not
// on list pages: null. Descriptions on search pages are the snippet the page shows.
import { Innertube } from 'youtubei.js';
import type {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../contract/items.js';
import { dedupeBy } from '../../../dedupe.js';
import { readItems } from '../../drift.js';
import type { HttpClient } from '../../http/client.js';
import {
  type PostRef,
  type SourceCallContext,
  SourceError,
  type VidnetChannelQuery,
  type VidnetHashtagQuery,
  type VidnetSearchQuery,
  type VidnetSearchResult,
  type VidnetSource,
} from '../../interface.js';
import { sortVideos } from '../shapes/vidnet.js';
import {
  channelOwner,
  commentEntities,
  commentsToken,
  drift,
  findChip,
  hashtagParams,
  type Json,
  type ListVideo,
  type Owner,
  pageList,
  readCommentItem,
  readPlayer,
  readVideoItem,
  searchParams,
} from './innertube.js';

export {
  commentsToken,
  hashtagParams,
  type ListVideo,
  parseCount,
  parseDuration,
  parseRelativeTime,
  parseViews,
  readPlayer,
  searchParams,
  text,
  videoRenderer,
} from './innertube.js';

export const YOUTUBEI_NAME = 'youtubei';

/** the origin youtubei.js sends every InnerTube request to */
export const YOUTUBEI_ORIGIN = 'https://www.youtube.com';

/** channel tab params (protobuf, base64) the web client sends for the Videos and Shorts tabs */
const VIDEOS_TAB = 'EgZ2aWRlb3PyBgQKAjoA';
const SHORTS_TAB = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';
/** continuation pages a comments call reads at most (a page holds about 20 threads) */
const MAX_COMMENT_PAGES = 50;

export interface YoutubeiOptions {
  lang?: string;
  location?: string;
  /** replaces https://www.youtube.com in every request (YOUTUBEI_BASE_URL) */
  baseUrl?: string;
  now?: () => Date;
}

interface PagesQuery {
  endpoint: string;
  op: string;
  depth: number;
  /** stop once this many videos (that `keep` accepts) are in hand */
  max: number;
  owner?: Owner;
  keep?: (v: ListVideo) => boolean;
}

export class YoutubeiSource implements VidnetSource {
  readonly name = YOUTUBEI_NAME;
  readonly kind = 'live' as const;
  readonly #now: () => Date;
  #session: Promise<Innertube> | undefined;

  constructor(
    private readonly opts: YoutubeiOptions,
    private readonly http: HttpClient,
  ) {
    this.#now = opts.now ?? (() => new Date());
  }

  async search(q: VidnetSearchQuery, ctx?: SourceCallContext): Promise<VidnetSearchResult> {
    const op = 'search';
    const first = await this.#execute(
      '/search',
      { query: q.keyword, params: searchParams(q.period) },
      ctx,
      op,
    );
    // relevance is the only order the platform's search still offers; the others are emulated
    // over everything `depth` pages returned, which is why the whole depth is read then
    const sorting = q.sorting;
    const max = sorting === 'relevance' ? q.max : Number.POSITIVE_INFINITY;
    const found = await this.#pages(first, { endpoint: '/search', op, depth: q.depth, max }, ctx);
    const sorted = sortVideos(found, sorting).slice(0, q.max);
    const complete = await this.#complete(sorted, ctx);
    return {
      videos: complete.map(
        ({ duration_seconds: _d, is_short: _s, ...v }): VidnetVideo => ({ ...v, source_keyword: q.keyword }),
      ),
      sortingApplied: sorting === 'relevance' ? 'native' : 'emulated',
    };
  }

  async hashtag(q: VidnetHashtagQuery, ctx?: SourceCallContext): Promise<VidnetHashtagVideo[]> {
    const op = 'hashtag';
    let first = await this.#execute(
      '/browse',
      { browseId: 'FEhashtag', params: hashtagParams(q.hashtag) },
      ctx,
      op,
    );
    if (q.onlyShorts) {
      const chip = findChip(first, 'shorts');
      if (!chip) {
        throw new SourceError('upstream', `${this.name} hashtag page has no Shorts filter (schema drift)`, {
          backend: this.name,
        });
      }
      first = await this.#execute('/browse', chip, ctx, 'hashtag.shorts');
    }
    const keep = q.onlyShorts ? (v: ListVideo) => v.is_short : undefined;
    const found = await this.#pages(
      first,
      { endpoint: '/browse', op, depth: q.depth, max: q.max, ...(keep ? { keep } : {}) },
      ctx,
    );
    const complete = await this.#complete(found.slice(0, q.max), ctx);
    return complete
      .filter((v) => !q.onlyShorts || v.is_short)
      .map((v) => ({ ...v, source_hashtag: q.hashtag }));
  }

  async comments(q: { video: PostRef; limit: number }, ctx?: SourceCallContext): Promise<VidnetComment[]> {
    const op = 'comments';
    const videoId = q.video.id;
    let page = await this.#execute('/next', { continuation: commentsToken(videoId) }, ctx, op);
    const out: VidnetComment[] = [];
    for (let n = 1; ; n++) {
      const list = pageList(page);
      if (!list) throw drift(this.name, 'a comments page');
      const entities = commentEntities(page);
      const now = this.#now();
      out.push(
        ...readItems(list.items, (item) => readCommentItem(item, entities, videoId, now, this.name), {
          backend: this.name,
          what: 'comment',
          ctx,
        }),
      );
      // the page's own continuation: each thread's "view replies" token stays inside its item
      if (dedupeBy(out, (c) => c.id).length >= q.limit || !list.next || n >= MAX_COMMENT_PAGES) break;
      page = await this.#execute('/next', { continuation: list.next }, ctx, op);
    }
    return dedupeBy(out, (c) => c.id).slice(0, q.limit);
  }

  async channelVideos(q: VidnetChannelQuery, ctx?: SourceCallContext): Promise<VidnetChannelVideo[]> {
    const op = 'channel.videos';
    const first = await this.#execute('/browse', { browseId: q.browseId, params: VIDEOS_TAB }, ctx, op, true);
    const owner = channelOwner(first, q.browseId, this.name);
    const found = await this.#pages(
      first,
      { endpoint: '/browse', op, depth: q.depth, max: q.max, owner },
      ctx,
    );
    const complete = await this.#complete(found.slice(0, q.max), ctx);
    return complete.map((v) => ({ ...v, source_browse_id: q.browseId }));
  }

  async channelShorts(
    q: Omit<VidnetChannelQuery, 'depth'>,
    ctx?: SourceCallContext,
  ): Promise<VidnetChannelVideo[]> {
    const op = 'channel.shorts';
    const first = await this.#execute('/browse', { browseId: q.browseId, params: SHORTS_TAB }, ctx, op, true);
    const owner = channelOwner(first, q.browseId, this.name);
    // a Shorts tab page holds about 48; the depth only bounds a tab that keeps answering empty pages
    const depth = Math.ceil(q.max / 20) + 1;
    const found = await this.#pages(first, { endpoint: '/browse', op, depth, max: q.max, owner }, ctx);
    const complete = await this.#complete(
      found.slice(0, q.max).map((v) => ({ ...v, is_short: true })),
      ctx,
    );
    return complete.map((v) => ({ ...v, is_short: true, source_browse_id: q.browseId }));
  }

  /**
   * Reads up to `depth` pages (the first included) of video items, following the page's own
   * continuation, and sends no further request once `max` videos are in hand.
   */
  async #pages(first: Json, q: PagesQuery, ctx: SourceCallContext | undefined): Promise<ListVideo[]> {
    const out: ListVideo[] = [];
    const seen = new Set<string>();
    let page = first;
    for (let n = 1; ; n++) {
      const list = pageList(page);
      if (!list) {
        throw new SourceError(
          'upstream',
          `${this.name} ${q.op} response has an unknown layout (schema drift)`,
          {
            backend: this.name,
          },
        );
      }
      const now = this.#now();
      const videos = readItems(list.items, (item) => readVideoItem(item, now, this.name, q.owner), {
        backend: this.name,
        what: 'video',
        ctx,
      });
      for (const v of videos) {
        if (seen.has(v.video_id) || (q.keep && !q.keep(v))) continue;
        seen.add(v.video_id);
        out.push(v);
      }
      if (out.length >= q.max || !list.next || n >= q.depth) break;
      page = await this.#execute(q.endpoint, { continuation: list.next }, ctx, q.op);
    }
    return out;
  }

  /**
   * Shorts items name neither a date nor (outside a channel's own tab) a channel: those of the
   * videos returned are read from /player, one request each, exactly. A Short that is gone by
   * then is left out; one whose answer cannot be read is skipped and reported.
   */
  async #complete(videos: ListVideo[], ctx: SourceCallContext | undefined): Promise<ListVideo[]> {
    if (!videos.some((v) => v.published_at === '')) return videos;
    const players = await Promise.all(
      videos.map((v) =>
        v.published_at === ''
          ? this.#execute(
              '/player',
              { videoId: v.video_id, contentCheckOk: true, racyCheckOk: true },
              ctx,
              'player',
            )
          : undefined,
      ),
    );
    return readItems(
      videos,
      (v, i) => {
        const p = players[i];
        if (p === undefined) return v;
        const d = readPlayer(p, this.name);
        if (!d) return undefined;
        return { ...d, title: v.title || d.title, is_short: v.is_short || d.is_short };
      },
      { backend: this.name, what: 'video', ctx },
    );
  }

  async #execute(
    endpoint: string,
    args: Json,
    ctx: SourceCallContext | undefined,
    op: string,
    notFound = false,
  ): Promise<Json> {
    const yt = await this.#yt();
    try {
      const res = await this.http.runInScope({ signal: ctx?.signal, op }, () =>
        yt.actions.execute(endpoint, { ...args, parse: false }),
      );
      const data = (res as { data?: unknown }).data;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        throw new SourceError('upstream', `${this.name} ${op}: unexpected response`, { backend: this.name });
      }
      return data as Json;
    } catch (e) {
      throw this.#wrap(e, op, notFound);
    }
  }

  #wrap(e: unknown, op: string, notFound: boolean): SourceError {
    if (e instanceof SourceError) {
      // InnerTube answers a browse for an id that is no channel with 400/404
      if (notFound && (e.kind === 'not_found' || (e.kind === 'upstream' && /HTTP 400\b/.test(e.message)))) {
        return new SourceError('not_found', `channel does not exist (${op})`, { backend: this.name });
      }
      return e;
    }
    if (e instanceof SyntaxError) {
      return new SourceError('upstream', `${this.name} ${op}: the response is not valid JSON`, {
        backend: this.name,
      });
    }
    const msg = this.http.redact.text(e instanceof Error ? e.message : String(e)).slice(0, 200);
    return new SourceError('upstream', `${this.name} ${op} failed: ${msg}`, { backend: this.name, cause: e });
  }

  /** every request of youtubei.js goes through our HTTP layer, to the configured origin */
  #fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const base = this.opts.baseUrl;
    if (!base) return this.http.fetch(input, init);
    const request = input instanceof Request ? input : undefined;
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== YOUTUBEI_ORIGIN) {
      // nothing but InnerTube calls is expected; with a base URL set, nothing may leave for elsewhere
      throw new SourceError(
        'upstream',
        `${this.name}: a request to ${url.origin} is not covered by YOUTUBEI_BASE_URL and was not sent`,
        { backend: this.name },
      );
    }
    const target = `${base.replace(/\/+$/, '')}${url.pathname}${url.search}`;
    return this.http.fetch(target, {
      ...init,
      method: init?.method ?? request?.method ?? 'GET',
      headers: init?.headers ?? request?.headers,
      body: init?.body ?? (request && request.method !== 'GET' ? await request.text() : undefined),
    });
  };

  #yt(): Promise<Innertube> {
    this.#session ??= Innertube.create({
      // all offline: no /sw.js_data, no /config, no player script
      fetch: this.#fetch as typeof fetch,
      retrieve_player: false,
      generate_session_locally: true,
      retrieve_innertube_config: false,
      enable_session_cache: false,
      lang: this.opts.lang ?? 'en',
      location: this.opts.location ?? 'US',
    }).catch((e: unknown) => {
      this.#session = undefined;
      throw this.#wrap(e, 'session', false);
    });
    return this.#session;
  }
}
