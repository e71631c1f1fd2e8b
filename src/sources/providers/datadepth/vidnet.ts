// vidnet keyword search on the `datadepth` data provider (token query parameter, `{ data }`
// envelope; see ../clipnet/datadepth.ts), so that one provider can serve search for all three
// platforms. Endpoint used (GET):
//   /youtube/search?keyword=&depth=1&period=&sorting=&start_cursor=  → { data: { posts: [{ videoRenderer }], nextCursor } }
// The provider passes the platform's own search-page items (InnerTube renderers) through, so the
// values are the list page's display text, read exactly as the youtubei backend reads them
// (views rounded as shown when abbreviated, published_at estimated from "3 days ago", no likes
// or comment counts: null).
//
// Only search is offered: hashtag feeds, comments and channel lists are `unsupported`, so that
// failover moves on to the next vidnet backend (e.g. VIDNET_SOURCE=datadepth,youtubei).
import { Type } from '@sinclair/typebox';
import type {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../contract/items.js';
import { dedupeBy } from '../../../dedupe.js';
import { readItems } from '../../drift.js';
import {
  type SourceCallContext,
  SourceError,
  type VidnetPeriod,
  type VidnetSearchQuery,
  type VidnetSearchResult,
  type VidnetSorting,
  type VidnetSource,
} from '../../interface.js';
import { cursorOf } from '../data-provider.js';
import { sortVideos } from '../shapes/vidnet.js';
import { type ListVideo, videoRenderer } from '../youtubei/vidnet.js';
import { DatadepthSource } from './clipnet.js';

const SearchPage = Type.Object({
  data: Type.Object({
    posts: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
});

const PERIOD: Record<VidnetPeriod, string> = {
  today: 'today',
  week: 'week',
  month: 'month',
  all: 'overall',
};
const SORTING: Record<VidnetSorting, string> = {
  relevance: 'relevance',
  date: 'time',
  viewCount: 'views',
  rating: 'rating',
};

export class DatadepthVidnetSource extends DatadepthSource implements VidnetSource {
  async search(q: VidnetSearchQuery, ctx?: SourceCallContext): Promise<VidnetSearchResult> {
    // The provider's sorting parameter is forwarded, but the platform's search no longer honours
    // every order, so anything but relevance is also sorted here over the whole depth read, and
    // reported as emulated.
    const emulated = q.sorting !== 'relevance';
    const cap = emulated ? Number.POSITIVE_INFINITY : q.max;
    const found: ListVideo[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < q.depth && found.length < cap; n++) {
      // depth=1 per request: one page per request keeps each inside the per-attempt timeout
      const res = await this.get(
        SearchPage,
        'youtube/search',
        '/youtube/search',
        {
          keyword: q.keyword,
          depth: 1,
          period: PERIOD[q.period],
          sorting: SORTING[q.sorting],
          start_cursor: cursor ?? undefined,
        },
        ctx,
      );
      found.push(...this.#videos(res.data.posts, ctx));
      const next = cursorOf(res.data.nextCursor);
      if (next === null || next === cursor || res.data.posts.length === 0) break;
      cursor = next;
    }
    const videos: VidnetVideo[] = sortVideos(
      dedupeBy(found, (v) => v.video_id).map(({ duration_seconds: _d, is_short: _s, ...v }) => ({
        ...v,
        source_keyword: q.keyword,
      })),
      q.sorting,
    );
    return { videos: videos.slice(0, q.max), sortingApplied: emulated ? 'emulated' : 'native' };
  }

  async hashtag(): Promise<VidnetHashtagVideo[]> {
    throw this.#unsupported('hashtag search');
  }

  async comments(): Promise<VidnetComment[]> {
    throw this.#unsupported('comments');
  }

  async channelVideos(): Promise<VidnetChannelVideo[]> {
    throw this.#unsupported('channel videos');
  }

  async channelShorts(): Promise<VidnetChannelVideo[]> {
    throw this.#unsupported('channel Shorts');
  }

  #videos(posts: Array<Record<string, unknown>>, ctx?: SourceCallContext): ListVideo[] {
    const now = this.now();
    return readItems(
      posts,
      (p) => {
        const keys = Object.keys(p);
        // shelves, channels, playlists and ads sit between the videos and are not keyword
        // results; an item that is no renderer at all means the provider changed its shape
        if (!keys.some((k) => /(Renderer|ViewModel)$/.test(k))) {
          throw new SourceError(
            'upstream',
            `${this.name} sent a youtube/search item that is no renderer (keys ${keys.slice(0, 3).join(', ') || 'none'}) (schema drift)`,
            { backend: this.name },
          );
        }
        const v = p.videoRenderer;
        if (!v || typeof v !== 'object') return undefined;
        return videoRenderer(v as Record<string, unknown>, now, this.name) ?? undefined;
      },
      { backend: this.name, what: 'video', ctx },
    );
  }

  #unsupported(what: string): SourceError {
    return new SourceError('unsupported', `${this.name} offers keyword search only on vidnet, not ${what}`, {
      backend: this.name,
    });
  }
}
