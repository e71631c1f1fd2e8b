// vidnet on the official YouTube Data API v3 (backend name `youtube-data-api`).
//
// Quota is the binding limit: a key has 10,000 units a day by default (reset at midnight
// Pacific time); search.list costs 100 units, every other call here 1. This backend counts the
// units of every request it sends (retries included), logs them, refuses a call that would pass
// the configured daily quota (as `throttled`, so failover can move on), and calls search.list at
// most `depth` times per keyword.
import { type Static, Type } from '@sinclair/typebox';
import type {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../contract/items.js';
import { dedupeBy } from '../../../dedupe.js';
import { upstreamToken } from '../../cursor.js';
import { readItems } from '../../drift.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { expectShape, parseJson } from '../../http/json.js';
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
import { isoDurationSeconds, periodStart, SHORTS_MAX_SECONDS } from '../shapes/vidnet.js';

export const YOUTUBE_DATA_API_NAME = 'youtube-data-api';
export const YOUTUBE_DATA_API_DEFAULT_BASE = 'https://www.googleapis.com/youtube/v3';

/** documented per-call costs, in quota units */
export const QUOTA_COST = {
  'search.list': 100,
  'videos.list': 1,
  'commentThreads.list': 1,
  'channels.list': 1,
  'playlistItems.list': 1,
} as const;
type Op = keyof typeof QUOTA_COST;

const PAGE_SIZE = 50;
/** channelShorts has no depth: read at most this many upload pages (250 uploads) looking for Shorts */
const SHORTS_SCAN_PAGES = 5;

const Thumbs = Type.Record(Type.String(), Type.Object({ url: Type.String() }));

// list items are checked one by one (readItems): one unreadable item does not fail its page
const SearchItem = Type.Object({ id: Type.Object({ videoId: Type.Optional(Type.String()) }) });
const SearchList = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  items: Type.Array(Type.Unknown()),
});

const VideoItem = Type.Object({
  id: Type.String(),
  snippet: Type.Object({
    publishedAt: Type.String(),
    channelId: Type.String(),
    title: Type.String(),
    description: Type.String(),
    channelTitle: Type.String(),
    thumbnails: Thumbs,
  }),
  statistics: Type.Object({
    viewCount: Type.Optional(Type.String()),
    likeCount: Type.Optional(Type.String()),
    commentCount: Type.Optional(Type.String()),
  }),
  contentDetails: Type.Object({ duration: Type.Optional(Type.String()) }),
});
const VideosList = Type.Object({ items: Type.Array(Type.Unknown()) });
type VideoItem = (typeof VideoItem)['static'];

const CommentThread = Type.Object({
  snippet: Type.Object({
    videoId: Type.String(),
    topLevelComment: Type.Object({
      id: Type.String(),
      snippet: Type.Object({
        textDisplay: Type.String(),
        authorDisplayName: Type.String(),
        likeCount: Type.Integer(),
        publishedAt: Type.String(),
      }),
    }),
  }),
});
const CommentThreads = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  items: Type.Array(Type.Unknown()),
});

const ChannelsList = Type.Object({
  // an unknown channel is an answer without items, so the kind is what tells it from drift
  kind: Type.Literal('youtube#channelListResponse'),
  items: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        contentDetails: Type.Object({ relatedPlaylists: Type.Object({ uploads: Type.String() }) }),
      }),
    ),
  ),
});

const PlaylistItem = Type.Object({ contentDetails: Type.Object({ videoId: Type.String() }) });
const PlaylistItems = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  items: Type.Array(Type.Unknown()),
});

export interface YoutubeDataApiOptions {
  apiKey: string;
  baseUrl?: string;
  dailyQuota?: number;
  now?: () => Date;
}

type BaseVideo = Omit<VidnetVideo, 'source_keyword' | 'enrichment'> & { duration_seconds: number | null };

export class YoutubeDataApiSource implements VidnetSource {
  readonly name = YOUTUBE_DATA_API_NAME;
  readonly kind = 'live' as const;
  readonly #http: HttpClient;
  readonly #key: string;
  readonly #base: string;
  readonly #dailyQuota: number;
  readonly #now: () => Date;
  #quotaDay = '';
  #spent = 0;

  constructor(opts: YoutubeDataApiOptions, http: HttpClient) {
    this.#http = http;
    this.#key = opts.apiKey;
    this.#base = (opts.baseUrl ?? YOUTUBE_DATA_API_DEFAULT_BASE).replace(/\/+$/, '');
    this.#dailyQuota = opts.dailyQuota ?? 10_000;
    this.#now = opts.now ?? (() => new Date());
  }

  /** quota units spent today (Pacific day) by this process */
  quotaUnitsSpent(): number {
    this.#rollQuotaDay();
    return this.#spent;
  }

  async search(q: VidnetSearchQuery, ctx?: SourceCallContext): Promise<VidnetSearchResult> {
    const since = periodStart(q.period, this.#now());
    const ids = await this.#searchIds(
      { q: q.keyword, order: q.sorting, publishedAfter: since?.toISOString() },
      q.depth,
      q.max,
      ctx,
    );
    // only the videos that can be returned are completed (videos.list: 50 ids per call)
    const videos = await this.#videos(ids.slice(0, q.max), ctx);
    return {
      videos: videos.map(({ duration_seconds: _d, ...v }) => ({ ...v, source_keyword: q.keyword })),
      sortingApplied: 'native',
    };
  }

  async hashtag(q: VidnetHashtagQuery, ctx?: SourceCallContext): Promise<VidnetHashtagVideo[]> {
    // The Data API has no hashtag feed; a search for "#tag" is the documented way to find
    // videos that carry it. videoDuration=short (< 4 min) narrows the search before the
    // duration test picks the Shorts.
    const ids = await this.#searchIds(
      { q: `#${q.hashtag}`, order: 'relevance', videoDuration: q.onlyShorts ? 'short' : undefined },
      q.depth,
      q.onlyShorts ? Number.POSITIVE_INFINITY : q.max,
      ctx,
    );
    // Shorts are told apart by duration only, so videos are completed batch by batch until
    // `max` Shorts are found; otherwise only the first `max` ids are completed
    const videos = q.onlyShorts
      ? await this.#videos(ids, ctx, (got) => got.filter((v) => isShort(v.duration_seconds)).length >= q.max)
      : await this.#videos(ids.slice(0, q.max), ctx);
    return videos
      .map((v) => ({ ...v, source_hashtag: q.hashtag, is_short: isShort(v.duration_seconds) }))
      .filter((v) => !q.onlyShorts || v.is_short)
      .slice(0, q.max);
  }

  async comments(q: { video: PostRef; limit: number }, ctx?: SourceCallContext): Promise<VidnetComment[]> {
    const out: VidnetComment[] = [];
    const seen = new Set<string>();
    let pageToken: string | undefined;
    do {
      const res = await this.#call(
        'commentThreads.list',
        '/commentThreads',
        {
          part: 'snippet',
          videoId: q.video.id,
          maxResults: Math.min(100, q.limit - out.length),
          pageToken,
          textFormat: 'plainText',
        },
        ctx,
        (r) => r.status === 403 && googleReason(r.text) === 'commentsDisabled',
      );
      // comments switched off by the owner: the honest answer is "no comments", not an error
      if (res === 'accepted') return [];
      const page = expectShape(CommentThreads, res, this.name, 'commentThreads.list');
      const comments = readItems(
        page.items,
        (r): VidnetComment => {
          const t = expectShape(CommentThread, r, this.name, 'commentThreads.list item');
          const c = t.snippet.topLevelComment;
          return {
            id: c.id,
            video_id: t.snippet.videoId,
            text: c.snippet.textDisplay,
            author: c.snippet.authorDisplayName,
            timestamp: isoOrDrift(c.snippet.publishedAt, this.name),
            likes: c.snippet.likeCount,
          };
        },
        { backend: this.name, what: 'comment', ctx },
      );
      // a thread repeated on the next page (the list shifted while paging) is returned once
      for (const c of comments) {
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        out.push(c);
      }
      pageToken = page.nextPageToken && upstreamToken('page-token', page.nextPageToken, this.name);
    } while (pageToken && out.length < q.limit);
    return out.slice(0, q.limit);
  }

  async channelVideos(q: VidnetChannelQuery, ctx?: SourceCallContext): Promise<VidnetChannelVideo[]> {
    const uploads = await this.#uploadsPlaylist(q.browseId, ctx);
    const ids = await this.#playlistIds(uploads, q.depth, q.max, ctx);
    const videos = await this.#videos(ids.slice(0, q.max), ctx);
    return videos.map((v) => ({
      ...v,
      source_browse_id: q.browseId,
      is_short: isShort(v.duration_seconds),
    }));
  }

  async channelShorts(
    q: Omit<VidnetChannelQuery, 'depth'>,
    ctx?: SourceCallContext,
  ): Promise<VidnetChannelVideo[]> {
    const uploads = await this.#uploadsPlaylist(q.browseId, ctx);
    const shorts: VidnetChannelVideo[] = [];
    await this.#eachPage(
      PlaylistItems,
      'playlistItems.list',
      '/playlistItems',
      { part: 'contentDetails', playlistId: uploads, maxResults: PAGE_SIZE },
      SHORTS_SCAN_PAGES,
      () => shorts.length < q.max,
      async (res) => {
        const videos = await this.#videos(this.#playlistVideoIds(res.items, ctx), ctx);
        for (const v of videos) {
          if (isShort(v.duration_seconds))
            shorts.push({ ...v, source_browse_id: q.browseId, is_short: true });
        }
      },
      ctx,
    );
    return shorts.slice(0, q.max);
  }

  async #searchIds(
    params: Record<string, string | undefined>,
    depth: number,
    max: number,
    ctx?: SourceCallContext,
  ): Promise<string[]> {
    const ids: string[] = [];
    // one search.list call per depth unit, never more, whatever happens
    await this.#eachPage(
      SearchList,
      'search.list',
      '/search',
      { part: 'snippet', type: 'video', maxResults: PAGE_SIZE, ...params },
      depth,
      () => ids.length < max,
      (res) => {
        // channels and playlists among the results have no videoId: left out silently
        const found = readItems(
          res.items,
          (r) => expectShape(SearchItem, r, this.name, 'search.list item').id.videoId,
          { backend: this.name, what: 'video', ctx },
        );
        ids.push(...found);
      },
      ctx,
    );
    return dedupeBy(ids, (x) => x);
  }

  async #uploadsPlaylist(browseId: string, ctx?: SourceCallContext): Promise<string> {
    const byHandle = browseId.startsWith('@');
    const res = expectShape(
      ChannelsList,
      await this.#call(
        'channels.list',
        '/channels',
        { part: 'contentDetails', ...(byHandle ? { forHandle: browseId } : { id: browseId }) },
        ctx,
      ),
      this.name,
      'channels.list',
    );
    const ch = res.items?.[0];
    if (!ch) throw new SourceError('not_found', `channel ${browseId} does not exist`, { backend: this.name });
    return ch.contentDetails.relatedPlaylists.uploads;
  }

  async #playlistIds(
    playlistId: string,
    depth: number,
    max: number,
    ctx?: SourceCallContext,
  ): Promise<string[]> {
    const ids: string[] = [];
    await this.#eachPage(
      PlaylistItems,
      'playlistItems.list',
      '/playlistItems',
      { part: 'contentDetails', playlistId, maxResults: PAGE_SIZE },
      depth,
      () => ids.length < max,
      (res) => {
        ids.push(...this.#playlistVideoIds(res.items, ctx));
      },
      ctx,
    );
    return ids;
  }

  /**
   * Walks a list call by pageToken: at most `pages` calls, and another only while `more()`
   * holds; each page is handed to `take` before the next one is asked for.
   */
  async #eachPage<T extends typeof SearchList | typeof PlaylistItems>(
    schema: T,
    op: Op,
    path: string,
    query: Record<string, string | number | undefined>,
    pages: number,
    more: () => boolean,
    take: (res: Static<T>) => void | Promise<void>,
    ctx?: SourceCallContext,
  ): Promise<void> {
    let pageToken: string | undefined;
    for (let page = 0; page < pages && more(); page++) {
      const res = expectShape(
        schema,
        await this.#call(op, path, { ...query, pageToken }, ctx),
        this.name,
        op,
      );
      await take(res);
      pageToken = res.nextPageToken && upstreamToken('page-token', res.nextPageToken, this.name);
      if (!pageToken) break;
    }
  }

  #playlistVideoIds(items: unknown[], ctx?: SourceCallContext): string[] {
    return readItems(
      items,
      (r) => expectShape(PlaylistItem, r, this.name, 'playlistItems.list item').contentDetails.videoId,
      { backend: this.name, what: 'video', ctx },
    );
  }

  /**
   * statistics, full descriptions and durations, 50 ids per call, in the order asked; with
   * `enough`, no further call once it holds for the videos completed so far
   */
  async #videos(
    ids: string[],
    ctx?: SourceCallContext,
    enough?: (got: BaseVideo[]) => boolean,
  ): Promise<BaseVideo[]> {
    const byId = new Map<string, BaseVideo>();
    const inOrder = (upTo: number) => ids.slice(0, upTo).flatMap((id) => byId.get(id) ?? []);
    for (let i = 0; i < ids.length; i += PAGE_SIZE) {
      if (enough && i > 0 && enough(inOrder(i))) break;
      const batch = ids.slice(i, i + PAGE_SIZE);
      const res = expectShape(
        VideosList,
        await this.#call(
          'videos.list',
          '/videos',
          { part: 'snippet,statistics,contentDetails', id: batch.join(','), maxResults: PAGE_SIZE },
          ctx,
        ),
        this.name,
        'videos.list',
      );
      const videos = readItems(
        res.items,
        (r) => this.#video(expectShape(VideoItem, r, this.name, 'videos.list item')),
        { backend: this.name, what: 'video', ctx },
      );
      for (const v of videos) byId.set(v.video_id, v);
    }
    // a video deleted or made private between the search and videos.list is simply gone; none of
    // them at all is not that, and an empty answer would claim the search found nothing
    const out = inOrder(ids.length);
    if (ids.length > 0 && out.length === 0)
      throw new SourceError(
        'upstream',
        `${this.name}: videos.list answered none of the ${ids.length} videos the listing named`,
        { backend: this.name },
      );
    return out;
  }

  #video(it: VideoItem): BaseVideo {
    const views = it.statistics.viewCount;
    if (views === undefined || !/^\d+$/.test(views)) {
      throw new SourceError(
        'upstream',
        `${this.name} sent video ${it.id} without a view count (schema drift)`,
        {
          backend: this.name,
        },
      );
    }
    const t = it.snippet.thumbnails;
    const thumb = t.maxres ?? t.high ?? t.medium ?? t.standard ?? t.default ?? Object.values(t)[0];
    return {
      video_id: it.id,
      title: it.snippet.title,
      description: it.snippet.description,
      channel_id: it.snippet.channelId,
      channel_title: it.snippet.channelTitle,
      published_at: isoOrDrift(it.snippet.publishedAt, this.name),
      thumbnail: thumb?.url ?? `https://i.ytimg.com/vi/${it.id}/hqdefault.jpg`,
      stats: {
        views: Number(views),
        // absent when the owner hides likes or turns comments off: null, never 0
        likes: countOrNull(it.statistics.likeCount),
        comments: countOrNull(it.statistics.commentCount),
      },
      duration_seconds: isoDurationSeconds(it.contentDetails.duration),
    };
  }

  async #call(
    op: Op,
    path: string,
    query: Record<string, string | number | undefined>,
    ctx?: SourceCallContext,
    accept?: (r: HttpResponse) => boolean,
  ): Promise<unknown | 'accepted'> {
    const units = QUOTA_COST[op];
    this.#rollQuotaDay();
    if (this.#spent + units > this.#dailyQuota) {
      throw new SourceError(
        'throttled',
        `${this.name} has spent its daily quota (${this.#spent} of ${this.#dailyQuota} units); it resets at midnight Pacific time`,
        { backend: this.name, retryAfterSeconds: secondsToPacificMidnight(this.#now()) },
      );
    }
    let accepted = false;
    const res = await this.#http.send({
      op,
      url: `${this.#base}${path}`,
      query: { ...query, key: this.#key },
      signal: ctx?.signal,
      units,
      onAttempt: () => {
        this.#rollQuotaDay();
        this.#spent += units;
      },
      accept: accept
        ? (r) => {
            accepted = accept(r);
            return accepted;
          }
        : undefined,
      classify: (r) => this.#classify(op, r),
    });
    if (accepted) return 'accepted';
    return parseJson(res.text, this.name);
  }

  #classify(op: Op, r: HttpResponse): SourceError | undefined {
    if (r.status < 400) return undefined;
    const reason = googleReason(r.text);
    const backend = this.name;
    if (
      reason &&
      ['quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'userRateLimitExceeded'].includes(reason)
    ) {
      return new SourceError('throttled', `${backend} ${op}: ${reason}`, {
        backend,
        ...(reason === 'quotaExceeded' || reason === 'dailyLimitExceeded'
          ? { retryAfterSeconds: secondsToPacificMidnight(this.#now()) }
          : {}),
      });
    }
    if (reason && /NotFound$/.test(reason))
      return new SourceError('not_found', `${backend} ${op}: ${reason}`, { backend });
    if (reason === 'keyInvalid' || reason === 'forbidden' || reason === 'accessNotConfigured') {
      return new SourceError('upstream', `${backend} ${op}: the API key was refused (${reason})`, {
        backend,
      });
    }
    return undefined;
  }

  #rollQuotaDay(): void {
    const day = pacificDay(this.#now());
    if (day !== this.#quotaDay) {
      this.#quotaDay = day;
      this.#spent = 0;
    }
  }
}

function isShort(d: number | null): boolean {
  return d !== null && d > 0 && d <= SHORTS_MAX_SECONDS;
}

function countOrNull(v: string | undefined): number | null {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

function isoOrDrift(v: string, backend: string): string {
  const t = Date.parse(v);
  if (Number.isNaN(t))
    throw new SourceError('upstream', `${backend} sent an unreadable date "${v.slice(0, 40)}"`, { backend });
  return new Date(t).toISOString();
}

/** the first `reason` of a Google API error body */
function googleReason(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as { error?: { errors?: Array<{ reason?: unknown }> } };
    const r = j.error?.errors?.[0]?.reason;
    return typeof r === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

const pacificFmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function pacificParts(d: Date): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of pacificFmt.formatToParts(d)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

function pacificDay(d: Date): string {
  const p = pacificParts(d);
  return `${p.year}-${p.month}-${p.day}`;
}

function secondsToPacificMidnight(d: Date): number {
  const p = pacificParts(d);
  const elapsed = (p.hour ?? 0) * 3600 + (p.minute ?? 0) * 60 + (p.second ?? 0);
  return Math.max(1, 86_400 - elapsed);
}
