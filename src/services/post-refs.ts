// Reads the post or video id out of a caller's string: a full URL (any host), a URL without the
// scheme, a short link or a bare id. The URL is never fetched.
import type { Platform, PostRef } from '../sources/interface.js';

const VIDNET_ID = /^[A-Za-z0-9_-]{11}$/;
const SHORTCODE = /^[A-Za-z0-9_-]{5,64}$/;
const CLIPNET_ID = /^\d{5,25}$/;
const SHORTLINK_CODE = /^[A-Za-z0-9_-]{4,32}$/;

function asUrl(input: string): URL | null {
  const s = input.trim();
  if (!s.includes('/') && !s.includes('.')) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s.replace(/^\/+/, '')}`);
  } catch {
    return null;
  }
}

/** the path's segments, percent-decoded; null when the path holds a malformed escape ("%", "%ff"),
 *  which names no post */
function segments(u: URL): string[] | null {
  try {
    return u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

function clipnet(input: string): PostRef | null {
  const s = input.trim();
  if (CLIPNET_ID.test(s)) return { id: s, form: 'id', input };
  const u = asUrl(s);
  if (!u) return null;
  const seg = segments(u);
  if (!seg) return null;
  const i = seg.findIndex((p) => p === 'video' || p === 'photo' || p === 'v');
  const after = i >= 0 ? seg[i + 1] : undefined;
  if (after && CLIPNET_ID.test(after.replace(/\.html$/, '')))
    return { id: after.replace(/\.html$/, ''), form: 'id', input };
  for (const q of ['item_id', 'video_id', 'share_item_id']) {
    const v = u.searchParams.get(q);
    if (v && CLIPNET_ID.test(v)) return { id: v, form: 'id', input };
  }
  // short links: vm.host/CODE/, vt.host/CODE/, host/t/CODE/
  const code = seg[0] === 't' ? seg[1] : seg.length === 1 ? seg[0] : undefined;
  if (code && SHORTLINK_CODE.test(code) && (seg[0] === 't' || /^(vm|vt)\./i.test(u.hostname)))
    return { id: code, form: 'shortlink', input };
  return null;
}

function picnet(input: string): PostRef | null {
  const s = input.trim();
  if (!s.includes('/') && SHORTCODE.test(s)) return { id: s, form: 'id', input };
  const u = asUrl(s);
  if (!u) return null;
  const seg = segments(u);
  if (!seg) return null;
  const i = seg.findIndex((p) => p === 'p' || p === 'reel' || p === 'reels' || p === 'tv');
  const code = i >= 0 ? seg[i + 1] : undefined;
  return code && SHORTCODE.test(code) ? { id: code, form: 'id', input } : null;
}

function vidnet(input: string): PostRef | null {
  const s = input.trim();
  if (VIDNET_ID.test(s)) return { id: s, form: 'id', input };
  const u = asUrl(s);
  if (!u) return null;
  const v = u.searchParams.get('v');
  if (v && VIDNET_ID.test(v)) return { id: v, form: 'id', input };
  const seg = segments(u);
  if (!seg) return null;
  const i = seg.findIndex((p) => ['shorts', 'embed', 'live', 'v', 'e'].includes(p));
  const after = i >= 0 ? seg[i + 1] : undefined;
  if (after && VIDNET_ID.test(after)) return { id: after, form: 'id', input };
  // short link: host/ID
  if (seg.length === 1 && seg[0] && VIDNET_ID.test(seg[0])) return { id: seg[0], form: 'id', input };
  return null;
}

const PARSERS: Record<Platform, (s: string) => PostRef | null> = { clipnet, picnet, vidnet };

export function parsePostRef(platform: Platform, input: string): PostRef | null {
  return PARSERS[platform](input);
}
