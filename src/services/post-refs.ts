// Reads the post or video id out of a caller's string: a full URL (any host), a URL without the
// scheme, a short link or a bare id. The URL is never fetched.
import { isValidDid, isValidHandle, isValidRecordKey } from '@atproto/syntax';
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

/** the collection of blipnet posts in at:// URIs */
export const BLIPNET_POST_COLLECTION = 'app.bsky.feed.post';

/** a blipnet post as its at:// URI, from the author (a handle or an account id) and record key;
 *  null when either is not valid */
function blipnetUri(actor: string, rkey: string, input: string): PostRef | null {
  const a = actor.startsWith('did:') ? actor : actor.toLowerCase();
  const valid = a.startsWith('did:') ? isValidDid(a) : isValidHandle(a);
  if (!valid || !isValidRecordKey(rkey) || rkey === '.' || rkey === '..') return null;
  return { id: `at://${a}/${BLIPNET_POST_COLLECTION}/${rkey}`, form: 'id', input };
}

/** an at:// URI of a post, or a web client URL …/profile/<handle or id>/post/<record key> */
function blipnet(input: string): PostRef | null {
  const s = input.trim();
  const at = /^at:\/\/([^/?#]+)\/([^/?#]+)\/([^/?#]+)\/?$/.exec(s);
  if (at) {
    const [, actor, collection, rkey] = at as unknown as [string, string, string, string];
    return collection === BLIPNET_POST_COLLECTION
      ? blipnetUri(decodeURIComponentSafe(actor), rkey, input)
      : null;
  }
  const u = asUrl(s);
  if (!u) return null;
  const seg = segments(u);
  if (!seg) return null;
  const i = seg.indexOf('profile');
  if (i < 0 || seg[i + 2] !== 'post') return null;
  const actor = seg[i + 1];
  const rkey = seg[i + 3];
  return actor && rkey ? blipnetUri(actor, rkey, input) : null;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const PARSERS: Record<Platform, (s: string) => PostRef | null> = { clipnet, picnet, vidnet, blipnet };

export function parsePostRef(platform: Platform, input: string): PostRef | null {
  return PARSERS[platform](input);
}
