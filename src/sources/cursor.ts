// Public cursors are opaque to callers but carry which backend issued them and that backend's
// own cursor, so a continuation goes back to the backend that can read it, and a cursor from a
// backend that is not configured (any more) is refused with a clear message instead of being
// misread by another backend.
import { SourceError } from './interface.js';

const VERSION = 1;
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
  const bad = () =>
    new SourceError('bad_cursor', 'the cursor is malformed: pass back a cursor exactly as returned');
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw bad();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    (body as CursorBody).v !== VERSION ||
    typeof (body as CursorBody).b !== 'string' ||
    typeof (body as CursorBody).c !== 'string' ||
    (body as CursorBody).b.length === 0
  ) {
    throw bad();
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

export function decodePosition(cursor: string | undefined): PagePosition {
  if (cursor === undefined || cursor === '') return { page: null, skip: 0 };
  try {
    const v = JSON.parse(cursor) as unknown;
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      (v[0] === null || typeof v[0] === 'string') &&
      Number.isInteger(v[1]) &&
      (v[1] as number) >= 0
    ) {
      return { page: v[0] as string | null, skip: v[1] as number };
    }
  } catch {
    // fall through
  }
  throw new SourceError('bad_cursor', 'the cursor is malformed: pass back a cursor exactly as returned');
}

export interface UpstreamPage<T> {
  items: T[];
  /** the upstream cursor of the next page, null when there is none */
  next: string | null;
  hasMore: boolean;
}

/** upper bound of upstream pages one call reads, whatever the limit (protects the upstream bill) */
export const MAX_PAGES_PER_CALL = 20;

/**
 * Reads pages from a page-cursor upstream until `limit` items are collected, starting at a
 * position cursor (see PagePosition), and gives every item the position right after it.
 */
export async function readPages<T>(
  cursor: string | undefined,
  limit: number,
  fetchPage: (page: string | null) => Promise<UpstreamPage<T>>,
): Promise<import('./interface.js').Page<T>> {
  let { page, skip } = decodePosition(cursor);
  const items: Array<{ item: T; cursor: string }> = [];
  for (let n = 0; n < MAX_PAGES_PER_CALL; n++) {
    const res = await fetchPage(page);
    const more = res.hasMore && res.next !== null && res.next !== page;
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
