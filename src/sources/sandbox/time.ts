// The world's clock. Stored times are offsets in seconds from the start of "today" (UTC); every
// call computes today from now(), so the world moves forward one day at a time: within a day the
// same request gives the same answer (save for today's items appearing as their times pass), and
// nothing is ever returned with a time after now().

export const DAY_SECONDS = 86_400;

export interface Clock {
  /** unix seconds of the start of the current UTC day */
  anchor: number;
  /** offset of now from the anchor, in seconds (0 … 86399); items with ts > this are unseen */
  nowOffset: number;
}

export function clockAt(now: Date): Clock {
  const nowSec = Math.floor(now.getTime() / 1000);
  const anchor = Math.floor(nowSec / DAY_SECONDS) * DAY_SECONDS;
  return { anchor, nowOffset: nowSec - anchor };
}

/** "YYYY-MM-DDT" of a day number (days since the epoch), for the few days a world shows */
const dayPrefixes = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** ISO 8601 UTC without milliseconds */
export function isoAt(clock: Clock, ts: number): string {
  const t = clock.anchor + ts;
  if (!Number.isInteger(t)) return new Date(t * 1000).toISOString().replace('.000Z', 'Z');
  const day = Math.floor(t / DAY_SECONDS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 11);
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const s = t - day * DAY_SECONDS;
  return `${prefix}${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}Z`;
}

export function unixAt(clock: Clock, ts: number): number {
  return clock.anchor + ts;
}

/** first offset of a window of `days` calendar days ending today: 1 = today only, 7 = today and
 *  the 6 days before it. Day-aligned so that a window is the same all day long. */
export function windowStart(days: number): number {
  return -(Math.max(1, Math.floor(days)) - 1) * DAY_SECONDS;
}

/** the lowest offset the world holds, for open-ended windows */
export const BEGINNING = -1_000 * DAY_SECONDS;
