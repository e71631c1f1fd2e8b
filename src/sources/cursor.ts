// Public cursors are opaque to callers but carry which backend issued them and that backend's
// own cursor, so a continuation goes back to the backend that can read it, and a cursor from a
// backend that is not configured (any more) is refused with a clear message instead of being
// misread by another backend.
import { SourceError } from './interface.js';

const VERSION = 1;

const malformed = () =>
  new SourceError('bad_cursor', 'the cursor is malformed: pass back a cursor exactly as returned');

/** a generous ceiling: real backend cursors are well under 1 KiB */
const MAX_CURSOR_LENGTH = 4096;

interface CursorBody {
  v: number;
  b: string;
  c: string;
}

/** wrapped cursors by backend, then cursor: the same items are paged through again and again
 *  (two levels, so that a lookup hashes the backend's cursor string, which is often the same
 *  string object every time and then hashed once, instead of a new concatenation) */
const wrapped = new Map<string, Map<string, string>>();
let cached = 0;

export function wrapCursor(backend: string, cursor: string): string {
  let byCursor = wrapped.get(backend);
  if (byCursor === undefined) {
    byCursor = new Map();
    wrapped.set(backend, byCursor);
  }
  let w = byCursor.get(cursor);
  if (w === undefined) {
    // JSON.stringify({ v, b, c }), written out
    const body = `{"v":${VERSION},"b":${JSON.stringify(backend)},"c":${JSON.stringify(cursor)}}`;
    w = Buffer.from(body, 'utf8').toString('base64url');
    if (cursor.length <= 256) {
      if (cached >= 50_000) {
        for (const m of wrapped.values()) m.clear();
        cached = 0;
      }
      byCursor.set(cursor, w);
      cached++;
    }
  }
  return w;
}

/** reads a public cursor; throws bad_cursor when it is not one of ours */
export function unwrapCursor(cursor: string): { backend: string; cursor: string } {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw malformed();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    (body as CursorBody).v !== VERSION ||
    typeof (body as CursorBody).b !== 'string' ||
    typeof (body as CursorBody).c !== 'string' ||
    (body as CursorBody).b.length === 0
  ) {
    throw malformed();
  }
  return { backend: (body as CursorBody).b, cursor: (body as CursorBody).c };
}

/**
 * Backend-internal cursor helper for upstreams whose cursors address pages, not items: a
 * position is the upstream cursor of a page start plus how many of that page's items were
 * already handed out, so that every item can carry a cursor that continues right after it.
 */
export interface PagePosition {
  /** upstream cursor of the page (null: the first page) */
  page: string | null;
  /** items of that page already returned */
  skip: number;
}

export function encodePosition(p: PagePosition): string {
  return JSON.stringify([p.page, p.skip]);
}

/** a page position read from a cursor; its page value must have the shape the upstream issues */
export function decodePosition(cursor: string | undefined, shape: TokenShape): PagePosition {
  if (cursor === undefined || cursor === '') return { page: null, skip: 0 };
  let v: unknown;
  try {
    v = JSON.parse(cursor);
  } catch {
    throw malformed();
  }
  if (
    Array.isArray(v) &&
    v.length === 2 &&
    (v[0] === null || typeof v[0] === 'string') &&
    Number.isInteger(v[1]) &&
    (v[1] as number) >= 0 &&
    (v[1] as number) <= MAX_SKIP
  ) {
    const page = v[0] as string | null;
    if (page !== null) cursorValue(shape, page);
    return { page, skip: v[1] as number };
  }
  throw malformed();
}

// ---- the shapes of the upstream tokens our cursors carry ----------------------------------------
// A backend cursor holds values the upstream issued (a page cursor, an offset) and the backend
// sends them back upstream, sometimes spliced into a query expression (the Graph API's
// `.after(…)`). A public cursor is only base64url JSON, so a caller can forge any inner value:
// every value read from a cursor is checked against the shape its upstream issues, and refused
// (400) otherwise, before any request is sent. The same check on what an upstream sends keeps a
// token we could not send back safely from ever entering a cursor.

/** the largest number of items of one upstream page a position may skip */
const MAX_SKIP = 10_000;

const TOKEN_SHAPES = {
  /** Graph API paging cursors: base64 or base64url, maybe padded (QVFIUmx…, MTAxNTExOTQ1MjAwNzI5NDE=) */
  graph: { re: /^[A-Za-z0-9+/_-]+={0,2}$/, max: 1024 },
  /** YouTube Data API page tokens: base64url; commentThreads tokens end in '=' padding */
  'page-token': { re: /^[A-Za-z0-9_-]+={0,2}$/, max: 1024 },
  /** InnerTube continuation tokens: base64url, maybe padded ('=' or its escaped form %3D);
   *  a channel's Shorts tab sends some of 9,000+ characters */
  continuation: { re: /^[A-Za-z0-9_-]+(?:={0,2}|(?:%3D){1,2})$/, max: 16_384 },
  /** offsets, times in milliseconds, numeric search ids */
  digits: { re: /^\d+$/, max: 32 },
  /** data-provider cursors: numeric ids joined by '_' (3312345678901234512_1234567), times, or
   *  the platform's base64 end cursors (QVFENDNZ…==) */
  provider: { re: /^[A-Za-z0-9_+/=.-]+$/, max: 2048 },
  /** AT Protocol AppView cursors: feed cursors (1682809172466::bafyrei…, ISO times) and search
   *  offsets ("25") */
  atproto: { re: /^[A-Za-z0-9:._+|-]+$/, max: 512 },
  /** datadepth's picnet user-post pages: "<numeric user id>:<provider cursor or nothing>" */
  'user-id:provider': { re: /^\d{1,24}:[A-Za-z0-9_+/=.-]*$/, max: 2048 },
} as const satisfies Record<string, { re: RegExp; max: number }>;

export type TokenShape = keyof typeof TOKEN_SHAPES;

function hasShape(shape: TokenShape, value: string): boolean {
  const s = TOKEN_SHAPES[shape];
  return value.length > 0 && value.length <= s.max && s.re.test(value);
}

/**
 * A value read from a caller's cursor, checked against the shape its upstream issues: throws
 * bad_cursor (a 400) otherwise, so a forged value never reaches the upstream.
 */
export function cursorValue(shape: TokenShape, value: string): string {
  if (!hasShape(shape, value)) throw malformed();
  return value;
}

/**
 * A paging token an upstream just sent, before it is sent back or put into a cursor: one of
 * another shape is schema drift (an upstream error), never passed on.
 */
export function upstreamToken(shape: TokenShape, value: string, backend: string): string {
  if (!hasShape(shape, value)) {
    throw new SourceError(
      'upstream',
      `${backend} sent a paging token of an unexpected shape (schema drift): "${value.slice(0, 40)}"`,
      { backend },
    );
  }
  return value;
}

export interface UpstreamPage<T> {
  items: T[];
  /** the upstream cursor of the next page, null when there is none */
  next: string | null;
  /** the cursor this page can be asked for again by, when it differs from the one it was asked
   *  for (the first page, asked for with null, may need one: see picnet/datadepth.ts) */
  self?: string;
  hasMore: boolean;
}

/** upper bound of upstream pages one call reads, whatever the limit (protects the upstream bill) */
export const MAX_PAGES_PER_CALL = 20;

/** how a backend's page cursors are checked (see TokenShape) */
export interface PageCursorCheck {
  backend: string;
  /** the shape of the upstream page tokens a position carries */
  shape: TokenShape;
}

/**
 * Reads pages from a page-cursor upstream until `limit` items are collected, starting at a
 * position cursor (see PagePosition), and gives every item the position right after it. No
 * page is asked for once `limit` items are in hand.
 */
export async function readPages<T>(
  cursor: string | undefined,
  limit: number,
  check: PageCursorCheck,
  fetchPage: (page: string | null) => Promise<UpstreamPage<T>>,
): Promise<import('./interface.js').Page<T>> {
  let { page, skip } = decodePosition(cursor, check.shape);
  const items: Array<{ item: T; cursor: string }> = [];
  for (let n = 0; n < MAX_PAGES_PER_CALL; n++) {
    const res = await fetchPage(page);
    const more = res.hasMore && res.next !== null && res.next !== page;
    if (more) upstreamToken(check.shape, res.next as string, check.backend);
    if (res.self !== undefined) page = upstreamToken(check.shape, res.self, check.backend);
    for (let i = skip; i < res.items.length; i++) {
      if (items.length >= limit) return { items, hasMore: true };
      const last = i === res.items.length - 1;
      const after =
        last && more ? encodePosition({ page: res.next, skip: 0 }) : encodePosition({ page, skip: i + 1 });
      items.push({ item: res.items[i] as T, cursor: after });
    }
    if (!more) return { items, hasMore: false };
    if (items.length >= limit) return { items, hasMore: true };
    page = res.next;
    skip = 0;
  }
  return { items, hasMore: true };
}

/** collects up to `limit` items from a cursor-paged upstream (for lists without public cursors) */
export async function collectPages<T>(
  limit: number,
  fetchPage: (page: string | null) => Promise<UpstreamPage<T>>,
  maxPages = MAX_PAGES_PER_CALL,
): Promise<T[]> {
  const out: T[] = [];
  let page: string | null = null;
  for (let n = 0; n < maxPages && out.length < limit; n++) {
    const res = await fetchPage(page);
    out.push(...res.items);
    if (!res.hasMore || res.next === null || res.next === page) break;
    page = res.next;
  }
  return out.slice(0, limit);
}
