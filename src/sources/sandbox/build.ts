// Builds the world file: generate into a temporary file beside the target, then rename it into
// place, so a reader never sees a half-built world and two processes building at once both end
// up with a complete (identical) file.
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { DUMP_TABLES, SCHEMA } from './schema.js';
import { type BlipnetCounts, generateBlipnet } from './world/blipnet.js';
import { generateWorld, type WorldCounts } from './world/generate.js';

/** bump when the generator or the schema changes: the file name follows it */
export const WORLD_VERSION = 4;
/** bump when the generator changes what the world holds (the dumped tables): the digest follows
 *  it. A schema change that only adds derived tables or indexes (v2: user_posts) keeps it.
 *  v3: blipnet. */
export const CONTENT_VERSION = 3;

export interface BuildResult {
  path: string;
  counts: WorldCounts & BlipnetCounts;
  digest: string;
  milliseconds: number;
}

type Row = Array<string | number | null>;

/** hashes one table's rows, one JSON line each, in chunks (an update per row is much slower) */
class TableHasher {
  private hash: Hash = createHash('sha256');
  private buf = '';
  private rows = 0;
  add(row: readonly unknown[]): void {
    this.buf += `${JSON.stringify(row)}\n`;
    this.rows++;
    if (this.buf.length > 1 << 16) this.flush();
  }
  private flush(): void {
    this.hash.update(this.buf);
    this.buf = '';
  }
  finish(): string {
    this.flush();
    return `${this.rows}:${this.hash.digest('hex')}`;
  }
}

/** the digest of the world: SHA-256 over each dumped table's row count and SHA-256, the rows
 *  being JSON arrays of the columns in table order, in primary-key order. Times are the stored
 *  offsets, so the digest is the same on every machine and every day. */
function combine(tables: ReadonlyMap<string, TableHasher>): string {
  const top = createHash('sha256');
  top.update(`gleaner-sandbox-world v${CONTENT_VERSION}\n`);
  for (const [name] of DUMP_TABLES) top.update(`${name} ${tables.get(name)?.finish() ?? '0:-'}\n`);
  return top.digest('hex');
}

/** recomputes the digest from a world file's contents */
export function worldDigest(db: Database.Database): string {
  const tables = new Map<string, TableHasher>();
  for (const [name, order] of DUMP_TABLES) {
    const h = new TableHasher();
    const stmt = db.prepare(`SELECT * FROM ${name} ORDER BY ${order}`).raw(true);
    for (const row of stmt.iterate() as Iterable<unknown[]>) h.add(row);
    tables.set(name, h);
  }
  return combine(tables);
}

export function buildWorld(path: string): BuildResult {
  const started = performance.now();
  // the data folder, when this creates it, is owner-only like the ledger's (they share it by
  // default); the generated world itself is public sample data
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const db = new Database(tmp);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('cache_size = -65536');
    db.exec(SCHEMA);
    // rows are hashed as they are written, in the order of their primary keys; worldDigest()
    // recomputes the same value from the file (a test checks both agree)
    const hashers = new Map(DUMP_TABLES.map(([name]) => [name, new TableHasher()]));
    const writer = (table: string, columns: number) => {
      const stmt = db.prepare(`INSERT INTO ${table} VALUES (${Array(columns).fill('?').join(', ')})`);
      const hasher = hashers.get(table);
      return (row: Row) => {
        stmt.run(row);
        hasher?.add(row);
      };
    };
    const w = {
      account: writer('accounts', 7),
      post: writer('posts', 12),
      postTag: writer('post_tags', 4),
      comment: writer('comments', 7),
      channel: writer('channels', 6),
      video: writer('videos', 12),
      videoTag: writer('video_tags', 3),
      videoComment: writer('video_comments', 7),
      blipAccount: writer('blip_accounts', 6),
      blipPost: writer('blip_posts', 17),
      blipRepost: writer('blip_reposts', 4),
      blipTag: writer('blip_tags', 3),
    };
    let commentPk = 0;
    let videoCommentPk = 0;
    const counts = db.transaction((): WorldCounts & BlipnetCounts => ({
      ...generateWorld({
        account: (a) =>
          w.account([a.pk, a.platform, a.handle, a.userId, a.displayName, a.niche, a.followers]),
        post: (p, tags) => {
          w.post([
            p.pk,
            p.platform,
            p.id,
            p.accountPk,
            p.ts,
            p.caption,
            p.code,
            p.mediaType,
            p.views,
            p.likes,
            p.comments,
            p.shares,
          ]);
          for (const t of tags) w.postTag([p.platform, t, p.ts, p.pk]);
        },
        comment: (_platform, c) => w.comment([++commentPk, c.id, c.postPk, c.ts, c.user, c.text, c.likes]),
        channel: (c) => w.channel([c.pk, c.browseId, c.title, c.handle, c.niche, c.subscribers]),
        video: (v, tags) => {
          w.video([
            v.pk,
            v.id,
            v.channelPk,
            v.ts,
            v.title,
            v.description,
            v.tags,
            v.duration,
            v.isShort,
            v.views,
            v.likes,
            v.comments,
          ]);
          for (const t of tags) w.videoTag([t, v.ts, v.pk]);
        },
        videoComment: (c) =>
          w.videoComment([++videoCommentPk, c.id, c.postPk, c.ts, c.user, c.text, c.likes]),
      }),
      ...generateBlipnet({
        account: (a) => w.blipAccount([a.pk, a.did, a.handle, a.displayName, a.niche, a.followers]),
        post: (p, tags) => {
          w.blipPost([
            p.pk,
            p.rkey,
            p.accountPk,
            p.ts,
            p.text,
            p.lang,
            p.rootPk,
            p.parentPk,
            p.depth,
            p.quotePk,
            p.links,
            p.media,
            p.mentions,
            p.replies,
            p.reposts,
            p.likes,
            p.quotes,
          ]);
          for (const t of tags) w.blipTag([t, p.ts, p.pk]);
        },
        repost: (r) => w.blipRepost([r.accountPk, r.rkey, r.ts, r.postPk]),
      }),
    }))();
    // derived: each account's posts in key order, so that the clustered table is written densely
    db.exec(`INSERT INTO user_posts
      SELECT account_pk, ts, id, pk, caption, code, media_type, views, likes, comments, shares
      FROM posts ORDER BY account_pk, ts, id`);
    db.exec("INSERT INTO video_fts (video_fts) VALUES ('rebuild')");
    db.exec("INSERT INTO blip_fts (blip_fts) VALUES ('rebuild')");
    db.exec('ANALYZE');
    const digest = combine(hashers);
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    setMeta.run('world_version', String(WORLD_VERSION));
    setMeta.run('digest', digest);
    setMeta.run('counts', JSON.stringify(counts));
    db.pragma('journal_mode = DELETE');
    db.close();
    renameSync(tmp, path);
    return { path, counts, digest, milliseconds: performance.now() - started };
  } catch (err) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw err;
  }
}
