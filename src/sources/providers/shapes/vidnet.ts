// Helpers shared by the vidnet backends: period windows, ISO 8601 durations, Shorts detection,
// sort emulation.
import type { VidnetVideo } from '../../../contract/items.js';
import type { VidnetPeriod, VidnetSorting } from '../../interface.js';

/**
 * A video counts as a Short when it lasts at most this long. The platform raised the Shorts
 * limit to three minutes in 2024 and neither the Data API nor list pages flag Shorts, so a
 * duration test is an approximation: Shorts of 61-180 s are missed by it. 60 s is the figure
 * that holds for every Short ever published; see docs/backends/vidnet.md.
 */
export const SHORTS_MAX_SECONDS = 60;

const DAY_MS = 86_400_000;

/** the start of a search period: today = the last 24 hours, week = 7 days, month = 30 days */
export function periodStart(period: VidnetPeriod, now: Date): Date | undefined {
  switch (period) {
    case 'today':
      return new Date(now.getTime() - DAY_MS);
    case 'week':
      return new Date(now.getTime() - 7 * DAY_MS);
    case 'month':
      return new Date(now.getTime() - 30 * DAY_MS);
    case 'all':
      return undefined;
  }
}

/** ISO 8601 duration (PT1H2M3S, P1DT2H) → seconds; null when absent or unreadable (live, upcoming) */
export function isoDurationSeconds(d: string | undefined): number | null {
  if (!d) return null;
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(d);
  if (!m || d === 'P' || d === 'PT') return null;
  const [, w, day, h, min, s] = m.map((x) => Number(x ?? 0));
  return (((w ?? 0) * 7 + (day ?? 0)) * 24 + (h ?? 0)) * 3600 + (min ?? 0) * 60 + (s ?? 0);
}

/**
 * Sorts fetched videos the way the platform's own search would when it can no longer do so
 * itself. `rating` has no public figure any more (dislikes are hidden): it is emulated as likes
 * per view, videos with hidden likes last.
 */
export function sortVideos<T extends Pick<VidnetVideo, 'published_at' | 'stats'>>(
  videos: T[],
  sorting: VidnetSorting,
): T[] {
  const out = [...videos];
  const rate = (v: T) => (v.stats.likes === null ? -1 : v.stats.likes / Math.max(1, v.stats.views));
  switch (sorting) {
    case 'relevance':
      return out;
    case 'date':
      return out.sort((a, b) => b.published_at.localeCompare(a.published_at));
    case 'viewCount':
      return out.sort((a, b) => b.stats.views - a.stats.views);
    case 'rating':
      return out.sort((a, b) => rate(b) - rate(a));
  }
}
