// Splits a hashtag into words: on underscores and case changes (#BlackFriday, #COVID19Vaccine), and
// for an all-lowercase tag (#blackfriday) by a dictionary segmentation over the rarity table's words,
// minimising the summed IDF plus a per-word penalty, so that common words and fewer pieces win.
import { rarity } from './rarity.js';

/** every extra word costs this many nats: prefers "blackfriday" → black friday over b-lack-friday */
const WORD_PENALTY = 4;
const MAX_PIECE = 20;
/** pieces shorter than three letters are accepted only from this list (avoids "th", "ck", …) */
const SHORT_OK = new Set(
  'a i my me we us to of in on at go no so do be is it tv uk ai up by or an as am my ny la dc nyc'.split(' '),
);

const cache = new Map<string, string[]>();
const CACHE_MAX = 5_000;

function segmentLower(tag: string): string[] {
  const table = rarity();
  const whole = table.get(tag);
  const n = tag.length;
  if (n < 5 || n > 60) return [tag];
  const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const back = new Int32Array(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - MAX_PIECE); j < i; j++) {
      const prev = best[j]!;
      if (prev === Number.POSITIVE_INFINITY) continue;
      const piece = tag.slice(j, i);
      if (piece.length < 3 && !SHORT_OK.has(piece)) continue;
      const idf = table.get(piece);
      if (idf === undefined) continue;
      const cost = prev + idf + WORD_PENALTY;
      if (cost < best[i]!) {
        best[i] = cost;
        back[i] = j;
      }
    }
  }
  if (best[n] === Number.POSITIVE_INFINITY) return [tag];
  if (whole !== undefined && whole + WORD_PENALTY <= best[n]!) return [tag];
  const parts: string[] = [];
  for (let i = n; i > 0; i = back[i]!) parts.push(tag.slice(back[i]!, i));
  return parts.reverse();
}

/** the words of a hashtag (without '#'), lowercase */
export function splitHashtag(tag: string): string[] {
  const hit = cache.get(tag);
  if (hit) return hit;
  let parts: string[];
  if (tag.includes('_')) {
    parts = tag
      .split('_')
      .filter(Boolean)
      .flatMap((p) => splitHashtag(p));
  } else if (/\p{Ll}/u.test(tag) && /\p{Lu}/u.test(tag.slice(1))) {
    parts = (tag.match(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu) ?? [tag]).map((p) => p.toLowerCase());
  } else if (/\p{N}/u.test(tag)) {
    parts = (tag.toLowerCase().match(/\p{N}+|[^\p{N}]+/gu) ?? [tag]).flatMap((p) =>
      /\p{N}/u.test(p) ? [p] : segmentLower(p),
    );
  } else {
    parts = segmentLower(tag.toLowerCase());
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(tag, parts);
  return parts;
}
