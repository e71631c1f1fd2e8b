// The read side of the world file: one read-only connection, the prepared statements every
// source shares, and the cursor format.
import Database from 'better-sqlite3';
import { SourceError } from '../interface.js';
import { type Clock, clockAt } from './time.js';

export class World {
  readonly db: Database.Database;
  private readonly now: () => Date;

  constructor(path: string, now: () => Date) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    // The world never changes once built (a rebuild writes a new file and renames it into
    // place), so: keep the shared lock for good (no lock and change check per statement, which
    // cost more than a small query), map the file (reads without a system call each) and keep
    // its pages in this connection's cache.
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('mmap_size = 268435456');
    this.db.pragma('cache_size = -32768');
    this.now = now;
  }

  clock(): Clock {
    return clockAt(this.now());
  }

  meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export const BACKEND = 'sandbox';

export function notFound(what: string): SourceError {
  return new SourceError('not_found', `${what} not found`, { backend: BACKEND });
}

// A cursor names the last item handed out by its (time offset, id) key. A key, not a position:
// items that appear meanwhile (today's, as their time passes) do not shift a page already read.
const CURSOR = /^sbx1\.(-?\d{1,9})\.([0-9A-Za-z_-]{1,40})$/;

export function encodeCursor(ts: number, id: string): string {
  return `sbx1.${ts}.${id}`;
}

export function decodeCursor(cursor: string): { ts: number; id: string } {
  const m = CURSOR.exec(cursor);
  if (!m)
    throw new SourceError('bad_cursor', 'cursor is malformed or was not issued by the sandbox', {
      backend: BACKEND,
    });
  return { ts: Number(m[1]), id: m[2] as string };
}

/** a caller's limit as a usable SQL LIMIT */
export function clampLimit(n: number, max = 10_000): number {
  if (!Number.isFinite(n)) return 0;
  return Math.max(0, Math.min(max, Math.floor(n)));
}

export function normalizeTag(tag: string): string {
  return tag.trim().replace(/^#+/, '').toLowerCase();
}

export function normalizeHandle(username: string): string {
  return username.trim().replace(/^@+/, '').toLowerCase();
}
