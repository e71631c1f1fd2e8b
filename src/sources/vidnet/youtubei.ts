// vidnet on the platform's own web API (InnerTube) through youtubei.js (backend name
// `youtubei`, the default live vidnet backend; no key, no quota, but unofficial).
//
// youtubei.js builds the session (client context, visitor data, headers) offline and encodes
// the request parameters (search filters, the comments-section token, the hashtag feed); every
// request goes through our HTTP layer via an injected fetch. The *responses* are read here from
// the raw InnerTube JSON rather than through youtubei.js's node classes: its parsers skip what
// they do not recognise, so a renamed renderer would silently give empty results, where this
// reader reports schema drift as an upstream error. youtubei.js's own parse of a first page is
// still attempted by the library; if it fails on a new layout we keep the raw JSON we captured.
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
} from '../../contract/items.js';
import type { HttpClient } from '../http/client.js';
import { parseJson } from '../http/json.js';
import {
  type PostRef,
  type SourceCallContext,
  SourceError,
  type VidnetChannelQuery,
  type VidnetHashtagQuery,
  type VidnetPeriod,
  type VidnetSearchQuery,
  type VidnetSearchResult,
  type VidnetSource,
} from '../interface.js';
import { dedupeBy, SHORTS_MAX_SECONDS, sortVideos } from './common.js';

export const YOUTUBEI_NAME = 'youtubei';

/** channel tab params (protobuf, base64) the web client sends for the Videos and Shorts tabs */
const VIDEOS_TAB = 'EgZ2aWRlb3PyBgQKAjoA';
const SHORTS_TAB = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';
/** Shorts without a duration on the page are read through /player, at most this many per call */
const MAX_DETAIL_READS = 60;

type Json = Record<string, unknown>;
type Base = Omit<VidnetVideo, 'source_keyword' | 'enrichment'> & {
  duration_seconds: number | null;
  is_short: boolean;
};
/** a video read from an InnerTube list item, before it is tied to a keyword, hashtag or channel */
export type ListVideo = Base;

export interface YoutubeiOptions {
  lang?: string;
  location?: string;
  now?: () => Date;
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
    const yt = await this.#yt();
    const first = await this.#captured('search', ctx, '/youtubei/v1/search', () =>
      yt.search(q.keyword, { type: 'video', upload_date: UPLOAD_DATE[q.period] }),
    );
    // relevance is the only order the platform's search still offers; the others are emulated
    // over everything `depth` pages returned, which is why the whole depth is read first
    const sorting = q.sorting;
    const cap = sorting === 'relevance' ? q.max : Number.POSITIVE_INFINITY;
    const found = await this.#pages(first, '/search', q.depth, cap, ctx, 'search');
    const videos = sortVideos(
      found.map(({ duration_seconds: _d, is_short: _s, ...v }) => ({ ...v, source_keyword: q.keyword })),
      sorting,
    );
    return {
      videos: videos.slice(0, q.max),
      sortingApplied: sorting === 'relevance' ? 'native' : 'emulated',
    };
  }

  async hashtag(q: VidnetHashtagQuery, ctx?: SourceCallContext): Promise<VidnetHashtagVideo[]> {
    const yt = await this.#yt();
    let first = await this.#captured('hashtag', ctx, '/youtubei/v1/browse', () => yt.getHashtag(q.hashtag));
    if (q.onlyShorts) {
      const chip = findChip(first, 'shorts');
      if (!chip) {
        throw new SourceError('upstream', `${this.name} hashtag page has no Shorts filter (schema drift)`, {
          backend: this.name,
        });
      }
      first = await this.#execute('/browse', chip, ctx, 'hashtag.shorts');
    }
    const found = await this.#pages(first, '/browse', q.depth, q.max, ctx, 'hashtag');
    const complete = await this.#completeShorts(found, ctx);
    return complete
      .filter((v) => !q.onlyShorts || v.is_short)
      .slice(0, q.max)
      .map((v) => ({ ...v, source_hashtag: q.hashtag }));
  }

  async comments(q: { video: PostRef; limit: number }, ctx?: SourceCallContext): Promise<VidnetComment[]> {
    const yt = await this.#yt();
    let page = await this.#captured('comments', ctx, '/youtubei/v1/next', () => yt.getComments(q.video.id));
    const out: VidnetComment[] = [];
    for (let n = 0; n < 50 && out.length < q.limit; n++) {
      const { comments, next, recognised } = readComments(page, q.video.id, this.#now(), this.name);
      if (!recognised) {
        throw new SourceError(
          'upstream',
          `${this.name} comments response has an unknown layout (schema drift)`,
          {
            backend: this.name,
          },
        );
      }
      out.push(...comments);
      if (!next) break;
      page = await this.#execute('/next', { continuation: next }, ctx, 'comments');
    }
    return dedupeBy(out, (c) => c.id).slice(0, q.limit);
  }

  async channelVideos(q: VidnetChannelQuery, ctx?: SourceCallContext): Promise<VidnetChannelVideo[]> {
    const first = await this.#execute(
      '/browse',
      { browseId: q.browseId, params: VIDEOS_TAB },
      ctx,
      'channel.videos',
      true,
    );
    const owner = channelOwner(first, q.browseId);
    const found = await this.#pages(first, '/browse', q.depth, q.max, ctx, 'channel.videos', owner);
    const complete = await this.#completeShorts(found, ctx);
    return complete.slice(0, q.max).map((v) => ({ ...v, source_browse_id: q.browseId }));
  }

  async channelShorts(
    q: Omit<VidnetChannelQuery, 'depth'>,
    ctx?: SourceCallContext,
  ): Promise<VidnetChannelVideo[]> {
    const first = await this.#execute(
      '/browse',
      { browseId: q.browseId, params: SHORTS_TAB },
      ctx,
      'channel.shorts',
      true,
    );
    const owner = channelOwner(first, q.browseId);
    const found = await this.#pages(
      first,
      '/browse',
      Math.ceil(q.max / 20) + 1,
      q.max,
      ctx,
      'channel.shorts',
      owner,
    );
    const complete = await this.#completeShorts(
      found.map((v) => ({ ...v, is_short: true })),
      ctx,
    );
    return complete.slice(0, q.max).map((v) => ({ ...v, is_short: true, source_browse_id: q.browseId }));
  }

  /** reads `depth` pages (the first included) of video items, following continuations */
  async #pages(
    first: Json,
    endpoint: string,
    depth: number,
    max: number,
    ctx: SourceCallContext | undefined,
    op: string,
    owner?: { id: string; title: string },
  ): Promise<Base[]> {
    const out: Base[] = [];
    let page = first;
    for (let n = 0; n < depth && out.length < max; n++) {
      const { videos, next, recognised } = readVideos(page, this.#now(), this.name, owner);
      if (!recognised) {
        throw new SourceError(
          'upstream',
          `${this.name} ${op} response has an unknown layout (schema drift)`,
          {
            backend: this.name,
          },
        );
      }
      out.push(...videos);
      if (!next || n + 1 >= depth) break;
      page = await this.#execute(endpoint, { continuation: next }, ctx, op);
    }
    return dedupeBy(out, (v) => v.video_id);
  }

  /** Shorts shelves name neither channel nor date: read those exactly from /player */
  async #completeShorts(videos: Base[], ctx?: SourceCallContext): Promise<Base[]> {
    const incomplete = videos.filter((v) => v.published_at === '').slice(0, MAX_DETAIL_READS);
    const details = new Map<string, Base | null>();
    await Promise.all(
      incomplete.map(async (v) => {
        const p = await this.#execute('/player', { videoId: v.video_id }, ctx, 'player');
        details.set(v.video_id, readPlayer(p, this.name));
      }),
    );
    return videos.flatMap((v) => {
      if (v.published_at !== '') return [v];
      const d = details.get(v.video_id);
      if (!d) return [];
      return [{ ...d, title: v.title || d.title, is_short: v.is_short || d.is_short }];
    });
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
      if (typeof data !== 'object' || data === null) {
        throw new SourceError('upstream', `${this.name} ${op}: empty response`, { backend: this.name });
      }
      return data as Json;
    } catch (e) {
      throw this.#wrap(e, op, notFound);
    }
  }

  /**
   * Runs a youtubei.js call that encodes its own request, keeping the raw JSON of the response.
   * A parser failure inside youtubei.js after a successful response is not our failure: the
   * raw JSON is read here regardless.
   */
  async #captured(
    op: string,
    ctx: SourceCallContext | undefined,
    path: string,
    call: () => Promise<unknown>,
  ): Promise<Json> {
    let raw: string | undefined;
    const onResponse = (url: string, text: string) => {
      if (new URL(url).pathname.startsWith(path)) raw ??= text;
    };
    try {
      await this.http.runInScope({ signal: ctx?.signal, op, onResponse }, call);
    } catch (e) {
      if (e instanceof SourceError || raw === undefined) throw this.#wrap(e, op, false);
    }
    if (raw === undefined)
      throw new SourceError('upstream', `${this.name} ${op}: no response`, { backend: this.name });
    const data = parseJson(raw, this.name);
    if (typeof data !== 'object' || data === null) {
      throw new SourceError('upstream', `${this.name} ${op}: unexpected response`, { backend: this.name });
    }
    return data as Json;
  }

  #wrap(e: unknown, op: string, notFound: boolean): SourceError {
    if (e instanceof SourceError) {
      // InnerTube answers a browse for a channel that does not exist with 400/404
      if (notFound && e.kind === 'upstream' && /HTTP (400|404)\b/.test(e.message)) {
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

  #yt(): Promise<Innertube> {
    this.#session ??= Innertube.create({
      // all offline: no /sw.js_data, no /config, no player script
      fetch: this.http.fetch as typeof fetch,
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

const UPLOAD_DATE: Record<VidnetPeriod, 'today' | 'week' | 'month' | 'all'> = {
  today: 'today',
  week: 'week',
  month: 'month',
  all: 'all',
};

// ---------------------------------------------------------------------------------------------
// raw InnerTube JSON readers

function* walk(node: unknown): Generator<[string, Json]> {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const cur = stack.pop();
    if (Array.isArray(cur)) {
      for (let i = cur.length - 1; i >= 0; i--) stack.push(cur[i]);
    } else if (cur && typeof cur === 'object') {
      const entries = Object.entries(cur as Json);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i] as [string, unknown];
        if (v && typeof v === 'object' && !Array.isArray(v)) yield [k, v as Json];
        stack.push(v);
      }
    }
  }
}

function get(o: unknown, ...path: Array<string | number>): unknown {
  let cur = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

/** the text of an InnerTube text object ({simpleText} or {runs:[{text}]}) or a view-model {content} */
export function text(t: unknown): string | undefined {
  if (typeof t === 'string') return t;
  if (!t || typeof t !== 'object') return undefined;
  const o = t as Json;
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (typeof o.content === 'string') return o.content;
  if (Array.isArray(o.runs))
    return o.runs.map((r) => (typeof get(r, 'text') === 'string' ? (get(r, 'text') as string) : '')).join('');
  return undefined;
}

function isLayout(page: Json): boolean {
  return (
    'contents' in page ||
    'onResponseReceivedCommands' in page ||
    'onResponseReceivedActions' in page ||
    'onResponseReceivedEndpoints' in page ||
    'continuationContents' in page
  );
}

function continuationOf(page: Json): string | undefined {
  for (const [k, v] of walk(page)) {
    if (k === 'continuationItemRenderer') {
      const token =
        get(v, 'continuationEndpoint', 'continuationCommand', 'token') ??
        get(v, 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token');
      if (typeof token === 'string') return token;
    }
  }
  return undefined;
}

function drift(backend: string, what: string): SourceError {
  return new SourceError('upstream', `${backend} changed the shape of ${what} (schema drift)`, { backend });
}

function readVideos(
  page: Json,
  now: Date,
  backend: string,
  owner?: { id: string; title: string },
): { videos: Base[]; next: string | undefined; recognised: boolean } {
  if (!isLayout(page)) return { videos: [], next: undefined, recognised: false };
  const videos: Base[] = [];
  for (const [k, v] of walk(page)) {
    if (k === 'videoRenderer' || k === 'gridVideoRenderer') {
      const item = videoRenderer(v, now, backend, owner);
      if (item) videos.push(item);
    } else if (k === 'reelItemRenderer' || k === 'shortsLockupViewModel') {
      videos.push(shortItem(k, v, backend, owner));
    }
  }
  return { videos, next: continuationOf(page), recognised: true };
}

/** reads a videoRenderer; null for live streams and premieres (no views or date yet) */
export function videoRenderer(
  v: Json,
  now: Date,
  backend: string,
  owner?: { id: string; title: string },
): Base | null {
  const id = v.videoId;
  const title = text(v.title);
  if (typeof id !== 'string' || title === undefined) throw drift(backend, 'a video item');
  const viewText = text(v.viewCountText);
  const published = text(v.publishedTimeText);
  // live streams show concurrent viewers, upcoming premieres no date: neither is a video with
  // a view count and a publication time yet
  if (published === undefined || viewText === undefined || /watching|waiting|scheduled/i.test(viewText))
    return null;
  const views = parseViews(viewText);
  const at = parseRelativeTime(published, now);
  if (views === null || at === null)
    throw drift(backend, `a video item's display text ("${viewText}", "${published}")`);
  const channelId =
    (get(v, 'ownerText', 'runs', 0, 'navigationEndpoint', 'browseEndpoint', 'browseId') as
      | string
      | undefined) ??
    (get(v, 'longBylineText', 'runs', 0, 'navigationEndpoint', 'browseEndpoint', 'browseId') as
      | string
      | undefined) ??
    owner?.id;
  const channelTitle = text(v.ownerText) ?? text(v.longBylineText) ?? owner?.title;
  if (channelId === undefined || channelTitle === undefined) throw drift(backend, "a video item's channel");
  const thumbs = get(v, 'thumbnail', 'thumbnails');
  const thumb = Array.isArray(thumbs)
    ? (get(thumbs[thumbs.length - 1], 'url') as string | undefined)
    : undefined;
  const snippet = get(v, 'detailedMetadataSnippets', 0, 'snippetText') ?? v.descriptionSnippet;
  const duration = parseDuration(text(v.lengthText));
  return {
    video_id: id,
    title,
    description: text(snippet) ?? '',
    channel_id: channelId,
    channel_title: channelTitle,
    published_at: at.toISOString(),
    thumbnail: thumb ?? `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
    stats: { views, likes: null, comments: null },
    duration_seconds: duration,
    is_short: duration !== null && duration <= SHORTS_MAX_SECONDS,
  };
}

/** a Shorts shelf item: id and title only; the rest is completed from /player (published_at '') */
function shortItem(kind: string, v: Json, backend: string, owner?: { id: string; title: string }): Base {
  const id =
    kind === 'reelItemRenderer'
      ? v.videoId
      : (get(v, 'onTap', 'innertubeCommand', 'reelWatchEndpoint', 'videoId') ??
        (typeof v.entityId === 'string' ? v.entityId.replace(/^shorts-shelf-item-/, '') : undefined));
  const title =
    kind === 'reelItemRenderer' ? text(v.headline) : text(get(v, 'overlayMetadata', 'primaryText'));
  if (typeof id !== 'string' || title === undefined) throw drift(backend, 'a Shorts item');
  return {
    video_id: id,
    title,
    description: '',
    channel_id: owner?.id ?? '',
    channel_title: owner?.title ?? '',
    published_at: '',
    thumbnail: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
    stats: { views: 0, likes: null, comments: null },
    duration_seconds: null,
    is_short: true,
  };
}

function readPlayer(p: Json, backend: string): Base | null {
  const status = get(p, 'playabilityStatus', 'status');
  if (status === 'ERROR' || status === 'LOGIN_REQUIRED') return null; // gone or age-gated
  const d = p.videoDetails as Json | undefined;
  const mf = get(p, 'microformat', 'playerMicroformatRenderer') as Json | undefined;
  if (!d || !mf) throw drift(backend, 'a player response');
  const { videoId, title, channelId, author, viewCount, lengthSeconds } = d;
  const published = (mf.publishDate ?? mf.uploadDate) as unknown;
  if (
    typeof videoId !== 'string' ||
    typeof title !== 'string' ||
    typeof channelId !== 'string' ||
    typeof author !== 'string' ||
    typeof viewCount !== 'string' ||
    !/^\d+$/.test(viewCount) ||
    typeof published !== 'string' ||
    Number.isNaN(Date.parse(published))
  ) {
    throw drift(backend, 'a player response');
  }
  const thumbs = get(d, 'thumbnail', 'thumbnails');
  const thumb = Array.isArray(thumbs)
    ? (get(thumbs[thumbs.length - 1], 'url') as string | undefined)
    : undefined;
  const duration =
    typeof lengthSeconds === 'string' && /^\d+$/.test(lengthSeconds) ? Number(lengthSeconds) : null;
  return {
    video_id: videoId,
    title,
    description: typeof d.shortDescription === 'string' ? d.shortDescription : '',
    channel_id: channelId,
    channel_title: author,
    published_at: new Date(Date.parse(published)).toISOString(),
    thumbnail: thumb ?? `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`,
    stats: { views: Number(viewCount), likes: null, comments: null },
    duration_seconds: duration,
    is_short: duration !== null && duration <= SHORTS_MAX_SECONDS,
  };
}

function channelOwner(page: Json, browseId: string): { id: string; title: string } {
  const meta = get(page, 'metadata', 'channelMetadataRenderer') as Json | undefined;
  const title =
    (meta?.title as string | undefined) ?? text(get(page, 'header', 'c4TabbedHeaderRenderer', 'title'));
  const id = (meta?.externalId as string | undefined) ?? browseId;
  if (title === undefined) {
    // a browse answered with an alert and no channel means the channel does not exist
    if (JSON.stringify(page.alerts ?? '').includes('exist')) {
      throw new SourceError('not_found', `channel ${browseId} does not exist`, { backend: YOUTUBEI_NAME });
    }
    throw drift(YOUTUBEI_NAME, 'a channel page');
  }
  return { id, title };
}

function findChip(page: Json, label: string): Json | undefined {
  for (const [k, v] of walk(page)) {
    if (k === 'chipCloudChipRenderer' || k === 'chipViewModel') {
      if ((text(v.text) ?? '').trim().toLowerCase() !== label) continue;
      const browse =
        get(v, 'navigationEndpoint', 'browseEndpoint') ??
        get(v, 'tapCommand', 'innertubeCommand', 'browseEndpoint');
      if (browse && typeof browse === 'object') return browse as Json;
      const token =
        get(v, 'navigationEndpoint', 'continuationCommand', 'token') ??
        get(v, 'tapCommand', 'innertubeCommand', 'continuationCommand', 'token');
      if (typeof token === 'string') return { continuation: token };
    }
  }
  return undefined;
}

function readComments(
  page: Json,
  videoId: string,
  now: Date,
  backend: string,
): { comments: VidnetComment[]; next: string | undefined; recognised: boolean } {
  if (!isLayout(page) && !('frameworkUpdates' in page))
    return { comments: [], next: undefined, recognised: false };
  const comments: VidnetComment[] = [];
  for (const [k, v] of walk(page)) {
    if (k === 'commentEntityPayload') {
      const p = v.properties as Json | undefined;
      const id = p?.commentId;
      const body = text(get(p, 'content'));
      const author = get(v, 'author', 'displayName');
      const when = p?.publishedTime;
      const likes = parseCount(get(v, 'toolbar', 'likeCountNotliked') ?? get(v, 'toolbar', 'likeCountLiked'));
      if (
        typeof id !== 'string' ||
        body === undefined ||
        typeof author !== 'string' ||
        typeof when !== 'string'
      ) {
        throw drift(backend, 'a comment');
      }
      comments.push(comment(id, videoId, body, author, when, likes, now, backend));
    } else if (k === 'commentRenderer') {
      const id = v.commentId;
      const body = text(v.contentText);
      const author = text(v.authorText);
      const when = text(v.publishedTimeText);
      if (typeof id !== 'string' || body === undefined || author === undefined || when === undefined) {
        throw drift(backend, 'a comment');
      }
      comments.push(
        comment(id, videoId, body, author, when, parseCount(text(v.voteCount) ?? '0'), now, backend),
      );
    }
  }
  return { comments, next: continuationOf(page), recognised: true };
}

function comment(
  id: string,
  videoId: string,
  body: string,
  author: string,
  when: string,
  likes: number | null,
  now: Date,
  backend: string,
): VidnetComment {
  const at = parseRelativeTime(when, now);
  if (at === null || likes === null) throw drift(backend, `a comment's display text ("${when}")`);
  return { id, video_id: videoId, text: body, author, timestamp: at.toISOString(), likes };
}

// ---------------------------------------------------------------------------------------------
// display text → values

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/** "1,234,567 views" → 1234567 (exact); "1.2M views" → 1200000 (rounded as shown); "No views" → 0 */
export function parseViews(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^no views?$/.test(t)) return 0;
  return parseCount(t.replace(/\s*views?$/, ''));
}

/** "12", "1,234", "1.2K", "3M", "" (= 0, the platform's empty like count) → integer */
export function parseCount(s: unknown): number | null {
  if (typeof s !== 'string') return null;
  const t = s.trim().toLowerCase().replace(/,/g, '');
  if (t === '') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*([kmb])?$/.exec(t);
  if (!m) return null;
  return Math.round(Number(m[1]) * (m[2] ? (SUFFIX[m[2]] ?? 1) : 1));
}

/** "1:02:03" → 3723, "12:31" → 751; anything else (e.g. "SHORTS", absent) → null */
export function parseDuration(s: string | undefined): number | null {
  if (!s) return null;
  const t = s.trim();
  if (!/^\d+(:\d{1,2}){1,2}$/.test(t)) return null;
  return t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

const UNIT_S: Record<string, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
};

/**
 * "3 days ago", "Streamed 2 weeks ago", "1 year ago (edited)" → now minus that much. The result
 * is an estimate at the precision of the text: "1 year ago" may be off by months.
 */
export function parseRelativeTime(s: string, now: Date): Date | null {
  const m = /(\d+)\s*(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(s);
  if (!m) return null;
  const unit = UNIT_S[(m[2] as string).toLowerCase()];
  if (unit === undefined) return null;
  return new Date(now.getTime() - Number(m[1]) * unit * 1000);
}
