// The generated world itself: identical everywhere, built safely, shaped like the platforms.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worldDigest } from '../../../src/sources/sandbox/build.js';
import { openSandbox } from '../../../src/sources/sandbox/index.js';
import { tempWorld } from './helpers.js';

/** the digest of world content v1 (world files v1 and v2); a change to what the generator
 *  produces must bump CONTENT_VERSION (and WORLD_VERSION) and this value */
const EXPECTED_DIGEST = 'c82a2965c3b2bedca41fffffc4b87291db67e85b102622d7f624877332629504';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const world = tempWorld('world');
let db: Database.Database;

beforeAll(() => {
  world.build();
  db = new Database(world.path, { readonly: true });
});
afterAll(() => {
  db?.close();
  world.remove();
});

describe('determinism', () => {
  it('has the committed digest, which the file contents reproduce', () => {
    const sandbox = openSandbox({ dbPath: world.path });
    try {
      expect(sandbox.digest()).toBe(EXPECTED_DIGEST);
      expect(worldDigest(db)).toBe(EXPECTED_DIGEST);
    } finally {
      sandbox.close();
    }
  });

  it('builds the same world when two processes start at once on a missing file', async () => {
    const path = join(world.dir, 'shared', 'world.db');
    const script = `import(${JSON.stringify(join(root, 'src/sources/sandbox/index.ts'))}).then((m) => {
      const s = m.openSandbox({ dbPath: process.argv[1] }); console.log(s.digest()); s.close(); })`;
    const child = () => run(process.execPath, ['--import', 'tsx', '-e', script, path], { cwd: root });
    const started = performance.now();
    const [a, b] = await Promise.all([child(), child()]);
    console.log(
      `[sandbox] two concurrent first starts took ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
    expect(a.stdout.trim()).toBe(EXPECTED_DIGEST);
    expect(b.stdout.trim()).toBe(EXPECTED_DIGEST);
    expect(readdirSync(join(world.dir, 'shared'))).toEqual(['world.db']);
    // an existing world is opened, not rebuilt
    const before = statSync(path).mtimeMs;
    openSandbox({ dbPath: path }).close();
    expect(statSync(path).mtimeMs).toBe(before);
  }, 120_000);

  it('rebuilds a file that is not a world', () => {
    const path = join(world.dir, 'junk.db');
    new Database(path).exec('CREATE TABLE meta (key TEXT, value TEXT)');
    const sandbox = openSandbox({ dbPath: path });
    expect(sandbox.digest()).toBe(EXPECTED_DIGEST);
    sandbox.close();
    expect(existsSync(path)).toBe(true);
  }, 60_000);
});

describe('shape of the world', () => {
  const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;

  it('has a few hundred accounts and channels, with heavy-tailed audiences', () => {
    for (const platform of ['clipnet', 'picnet']) {
      const followers = (
        db
          .prepare('SELECT followers FROM accounts WHERE platform = ? ORDER BY followers')
          .all(platform) as Array<{
          followers: number;
        }>
      ).map((r) => r.followers);
      expect(followers.length).toBeGreaterThanOrEqual(250);
      const median = followers[Math.floor(followers.length / 2)]!;
      expect(followers.at(-1)!).toBeGreaterThan(median * 30);
    }
    expect(count('SELECT COUNT(*) n FROM channels')).toBeGreaterThanOrEqual(200);
  });

  it('uses the platforms’ id formats', () => {
    const bad = (sql: string) => count(sql);
    expect(
      bad(
        "SELECT COUNT(*) n FROM posts WHERE platform = 'clipnet' AND (length(id) <> 19 OR id GLOB '*[^0-9]*')",
      ),
    ).toBe(0);
    expect(
      bad(
        "SELECT COUNT(*) n FROM posts WHERE platform = 'clipnet' AND (length(code) <> 9 OR code GLOB '*[^A-Za-z0-9]*')",
      ),
    ).toBe(0);
    expect(
      bad(
        "SELECT COUNT(*) n FROM posts WHERE platform = 'picnet' AND (length(code) <> 11 OR code GLOB '*[^A-Za-z0-9_-]*')",
      ),
    ).toBe(0);
    expect(bad("SELECT COUNT(*) n FROM accounts WHERE platform = 'picnet' AND user_id GLOB '*[^0-9]*'")).toBe(
      0,
    );
    expect(bad("SELECT COUNT(*) n FROM videos WHERE length(id) <> 11 OR id GLOB '*[^A-Za-z0-9_-]*'")).toBe(0);
    expect(
      bad("SELECT COUNT(*) n FROM channels WHERE length(browse_id) <> 24 OR browse_id NOT GLOB 'UC*'"),
    ).toBe(0);
    expect(
      bad(
        "SELECT COUNT(*) n FROM posts WHERE platform = 'picnet' AND media_type NOT IN ('image', 'video', 'carousel')",
      ),
    ).toBe(0);
  });

  it('never repeats a caption or a title', () => {
    expect(count('SELECT COUNT(*) - COUNT(DISTINCT platform || caption) n FROM posts')).toBe(0);
    expect(count('SELECT COUNT(*) - COUNT(DISTINCT title) n FROM videos')).toBe(0);
  });

  it('spreads items over 90 days, with posts every day including today', () => {
    for (const platform of ['clipnet', 'picnet']) {
      expect(
        count('SELECT COUNT(DISTINCT (ts + 8640000) / 86400) n FROM posts WHERE platform = ?', platform),
      ).toBe(90);
      expect(
        count('SELECT COUNT(*) n FROM posts WHERE platform = ? AND ts BETWEEN 0 AND 2', platform),
      ).toBeGreaterThan(0);
    }
    expect(count('SELECT COUNT(DISTINCT (ts + 8640000) / 86400) n FROM videos')).toBe(90);
    expect(count('SELECT MIN(ts) n FROM posts')).toBeGreaterThanOrEqual(-89 * 86400);
    expect(count('SELECT MAX(ts) n FROM comments')).toBeLessThan(86400);
    expect(
      count('SELECT COUNT(*) n FROM comments c JOIN posts p ON p.pk = c.post_pk WHERE c.ts < p.ts'),
    ).toBe(0);
  });

  it('keeps statistics plausible: likes below views, Shorts up to a minute, videos minutes long', () => {
    expect(count("SELECT COUNT(*) n FROM posts WHERE platform = 'clipnet' AND likes >= views")).toBe(0);
    expect(count('SELECT COUNT(*) n FROM videos WHERE likes >= views AND views > 100')).toBe(0);
    expect(count('SELECT COUNT(*) n FROM videos WHERE is_short = 1 AND duration > 60')).toBe(0);
    expect(count('SELECT COUNT(*) n FROM videos WHERE is_short = 0 AND duration < 120')).toBe(0);
    expect(
      count(
        'SELECT COUNT(*) n FROM posts WHERE comments < (SELECT COUNT(*) FROM comments c WHERE c.post_pk = posts.pk)',
      ),
    ).toBe(0);
  });

  it('writes comments with a realistic mix of questions, purchase talk, complaints and praise', () => {
    const total = count('SELECT COUNT(*) n FROM comments');
    const share = (like: string) =>
      count('SELECT COUNT(*) n FROM comments WHERE lower(text) LIKE ?', like) / total;
    expect(share('%?%')).toBeGreaterThan(0.1);
    expect(share('%ordered%') + share('%cart%') + share('%buy%') + share('%link%')).toBeGreaterThan(0.03);
    expect(
      share('%broke%') + share('%waste%') + share('%disappointed%') + share('%not worth%'),
    ).toBeGreaterThan(0.01);
    expect(share('%part 2%') + share('%you should%') + share('%next time%')).toBeGreaterThan(0.01);
    expect(count('SELECT COUNT(DISTINCT text) n FROM comments') / total).toBeGreaterThan(0.3);
  });
});
