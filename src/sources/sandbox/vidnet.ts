// vidnet (videos and Shorts) served from the sandbox world.
import type { Statement } from 'better-sqlite3';
import type {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../contract/items.js';
import type {
  PostRef,
  VidnetChannelQuery,
  VidnetHashtagQuery,
  VidnetPeriod,
  VidnetSearchQuery,
  VidnetSearchResult,
  VidnetSorting,
  VidnetSource,
} from '../interface.js';
import { clampLimit, normalizeTag, notFound, type World } from './db.js';
import { BEGINNING, type Clock, isoAt, windowStart } from './time.js';

/** one unit of depth is one upstream results page */
export const PAGE_SIZE = 20;

/** bm25 column weights: a term in the title counts most, then in the hashtags, then the body */
const BM25 = 'bm25(video_fts, 10.0, 1.0, 4.0)';

const ORDER: Record<VidnetSorting, string> = {
  relevance: 'score ASC, v.views DESC, v.id ASC',
  date: 'v.ts DESC, v.id DESC',
  viewCount: 'v.views DESC, v.id ASC',
  rating: 'rating DESC, v.id ASC',
};

const PERIOD_DAYS: Record<Exclude<VidnetPeriod, 'all'>, number> = { today: 1, week: 7, month: 30 };

interface VideoRecord {
  pk: number;
  id: string;
  ts: number;
  title: string;
  description: string;
  duration: number;
  is_short: number;
  views: number;
  likes: number;
  comments: number;
  browse_id: string;
  channel_title: string;
}

const VIDEO_COLUMNS =
  'v.pk, v.id, v.ts, v.title, v.description, v.duration, v.is_short, v.views, v.likes, v.comments, c.browse_id, c.title AS channel_title';

export function vidnetWatchUrl(id: string, isShort: boolean): string {
  return isShort ? `https://www.vidnet.com/shorts/${id}` : `https://www.vidnet.com/watch?v=${id}`;
}

export function vidnetShortUrl(id: string): string {
  return `https://vidnet.be/${id}`;
}

export function periodStart(period: VidnetPeriod): number {
  return period === 'all' ? BEGINNING : windowStart(PERIOD_DAYS[period]);
}

/** the terms of a keyword as the full-text index splits them: runs of letters and digits */
export function keywordTerms(keyword: string): string[] {
  return keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function base(v: VideoRecord, clock: Clock) {
  return {
    video_id: v.id,
    title: v.title,
    description: v.description,
    channel_id: v.browse_id,
    channel_title: v.channel_title,
    published_at: isoAt(clock, v.ts),
    thumbnail: `https://i.vidnetimg.com/vi/${v.id}/hqdefault.jpg`,
    stats: { views: v.views, likes: v.likes, comments: v.comments },
  };
}

export function createVidnetSource(world: World): VidnetSource {
  const db = world.db;
  const search = Object.fromEntries(
    (Object.keys(ORDER) as VidnetSorting[]).map((sorting) => [
      sorting,
      db.prepare(
        `SELECT ${VIDEO_COLUMNS}, ${BM25} AS score, CAST(v.likes AS REAL) / MAX(v.views, 1) AS rating
         FROM video_fts JOIN videos v ON v.pk = video_fts.rowid JOIN channels c ON c.pk = v.channel_pk
         WHERE video_fts MATCH ? AND v.ts >= ? AND v.ts <= ?
         ORDER BY ${ORDER[sorting]} LIMIT ?`,
      ),
    ]),
  ) as Record<VidnetSorting, Statement>;
  const tagged = db.prepare(
    `SELECT ${VIDEO_COLUMNS} FROM video_tags t JOIN videos v ON v.pk = t.video_pk JOIN channels c ON c.pk = v.channel_pk
     WHERE t.tag = ? AND t.ts <= ? AND (? = 0 OR v.is_short = 1)
     ORDER BY t.ts DESC, v.id DESC LIMIT ?`,
  );
  const channelByBrowseId = db.prepare('SELECT pk FROM channels WHERE browse_id = ?');
  const channelUploads = db.prepare(
    `SELECT ${VIDEO_COLUMNS} FROM videos v JOIN channels c ON c.pk = v.channel_pk
     WHERE v.channel_pk = ? AND v.is_short = ? AND v.ts <= ?
     ORDER BY v.ts DESC, v.id DESC LIMIT ?`,
  );
  const videoById = db.prepare('SELECT pk, ts FROM videos WHERE id = ?');
  const topComments = db.prepare(
    `SELECT id, ts, user, text, likes FROM video_comments WHERE video_pk = ? AND ts <= ?
     ORDER BY likes DESC, ts DESC, pk ASC LIMIT ?`,
  );

  const channelPk = (browseId: string): number => {
    const row = channelByBrowseId.get(browseId.trim()) as { pk: number } | undefined;
    if (!row) throw notFound(`vidnet channel ${browseId}`);
    return row.pk;
  };

  const channelItem = (v: VideoRecord, clock: Clock, browseId: string): VidnetChannelVideo => ({
    ...base(v, clock),
    source_browse_id: browseId,
    duration_seconds: v.duration,
    is_short: v.is_short === 1,
  });

  return {
    name: 'sandbox',
    kind: 'sandbox',

    async search(q: VidnetSearchQuery): Promise<VidnetSearchResult> {
      const terms = keywordTerms(q.keyword);
      const limit = Math.min(clampLimit(q.max), clampLimit(q.depth) * PAGE_SIZE);
      if (terms.length === 0 || limit === 0) return { videos: [], sortingApplied: 'native' };
      const clock = world.clock();
      // every term must match (implicit AND); quoting keeps FTS5 operators in a keyword literal
      const match = terms.map((t) => `"${t}"`).join(' ');
      const stmt = search[q.sorting] ?? search.relevance;
      const rows = stmt.all(match, periodStart(q.period), clock.nowOffset, limit) as VideoRecord[];
      const videos: VidnetVideo[] = rows.map((v) => ({ ...base(v, clock), source_keyword: q.keyword }));
      return { videos, sortingApplied: 'native' };
    },

    async hashtag(q: VidnetHashtagQuery): Promise<VidnetHashtagVideo[]> {
      const tag = normalizeTag(q.hashtag);
      const limit = Math.min(clampLimit(q.max), clampLimit(q.depth) * PAGE_SIZE);
      if (!tag || limit === 0) return [];
      const clock = world.clock();
      const source = q.hashtag.trim().replace(/^#+/, '');
      const rows = tagged.all(tag, clock.nowOffset, q.onlyShorts ? 1 : 0, limit) as VideoRecord[];
      return rows.map((v) => ({
        ...base(v, clock),
        source_hashtag: source,
        duration_seconds: v.duration,
        is_short: v.is_short === 1,
      }));
    },

    async comments(q: { video: PostRef; limit: number }): Promise<VidnetComment[]> {
      const clock = world.clock();
      const video = videoById.get(q.video.id.trim()) as { pk: number; ts: number } | undefined;
      if (!video || video.ts > clock.nowOffset) throw notFound(`vidnet video ${q.video.input}`);
      const rows = topComments.all(video.pk, clock.nowOffset, clampLimit(q.limit)) as Array<{
        id: string;
        ts: number;
        user: string;
        text: string;
        likes: number;
      }>;
      return rows.map((c) => ({
        id: c.id,
        video_id: q.video.id.trim(),
        text: c.text,
        author: `@${c.user}`,
        timestamp: isoAt(clock, c.ts),
        likes: c.likes,
      }));
    },

    async channelVideos(q: VidnetChannelQuery): Promise<VidnetChannelVideo[]> {
      const pk = channelPk(q.browseId);
      const clock = world.clock();
      const limit = Math.min(clampLimit(q.max), clampLimit(q.depth) * PAGE_SIZE);
      const rows = channelUploads.all(pk, 0, clock.nowOffset, limit) as VideoRecord[];
      return rows.map((v) => channelItem(v, clock, q.browseId));
    },

    async channelShorts(q: Omit<VidnetChannelQuery, 'depth'>): Promise<VidnetChannelVideo[]> {
      const pk = channelPk(q.browseId);
      const clock = world.clock();
      const rows = channelUploads.all(pk, 1, clock.nowOffset, clampLimit(q.max)) as VideoRecord[];
      return rows.map((v) => channelItem(v, clock, q.browseId));
    },
  };
}
