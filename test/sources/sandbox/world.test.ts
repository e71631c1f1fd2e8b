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

/** the digest of world content v3 (world file v4: blipnet added); a change to what the generator produces
 *  must bump CONTENT_VERSION (and WORLD_VERSION) and this value */
const EXPECTED_DIGEST = '0096670ebfa562247276a00854bf9bd43e9af61b36bd70f3909eccba7fb3b223';

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

describe('names the docs use', () => {
  const one = (sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as Record<string, unknown>;

  it('keeps the accounts, ids, post and channels the README, the CLI help and the docs name', () => {
    for (const handle of ['rafatech', 'zanedrums', 'thechaoschloe', 'noraabroad', 'oscartalks'])
      expect(one("SELECT COUNT(*) n FROM accounts WHERE platform = 'clipnet' AND handle = ?", handle).n).toBe(
        1,
      );
    expect(one("SELECT handle FROM accounts WHERE platform = 'picnet' AND user_id = '69365011'").handle).toBe(
      'critterswithliam',
    );
    const post = one(
      "SELECT a.handle, p.code, p.ts FROM posts p JOIN accounts a ON a.pk = p.account_pk WHERE p.platform = 'clipnet' AND p.id = '7501921969951202327'",
    );
    expect(post).toMatchObject({ handle: 'rafatech', code: 'ZS25DQOdY' });
    expect(post.ts).toBeLessThan(0);
    for (const code of ['CxD9PthspC3', 'D0YhD-vOg2k'])
      expect(
        one(
          "SELECT p.media_type, p.ts < 0 AS older, (SELECT COUNT(*) FROM comments c WHERE c.post_pk = p.pk) >= 50 AS commented FROM posts p WHERE p.platform = 'picnet' AND p.code = ?",
          code,
        ),
      ).toEqual({ media_type: 'image', older: 1, commented: 1 });
    for (const id of ['mBPIf85s2S0', '5O6KwFczlHE'])
      expect(
        one(
          'SELECT v.is_short, v.ts < 0 AS older, (SELECT COUNT(*) FROM video_comments c WHERE c.video_pk = v.pk) >= 50 AS commented FROM videos v WHERE v.id = ?',
          id,
        ),
      ).toEqual({ is_short: 1, older: 1, commented: 1 });
    for (const browseId of ['UCFTj_UgjSmO3GpS1X1fSzqw', 'UCjJIW06Pn16B4JQV2JZBzyw']) {
      const c = one(
        `SELECT SUM(v.is_short = 0 AND v.ts < 0) videos, SUM(v.is_short = 1 AND v.ts < 0) shorts
         FROM channels c JOIN videos v ON v.channel_pk = c.pk WHERE c.browse_id = ?`,
        browseId,
      );
      expect(c.videos).toBeGreaterThan(0);
      expect(c.shorts).toBeGreaterThan(0);
    }
  });

  it('gives every account and channel something from before today, so none looks empty at midnight', () => {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(
      count(
        'SELECT COUNT(*) n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.account_pk = a.pk AND p.ts < 0)',
      ),
    ).toBe(0);
    expect(
      count(
        'SELECT COUNT(*) n FROM channels c WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.channel_pk = c.pk AND v.ts < 0)',
      ),
    ).toBe(0);
  });
});

describe('texts', () => {
  type Platform = 'clipnet' | 'picnet' | 'vidnet';
  type Text = { platform: Platform; text: string };
  let texts: Text[];
  beforeAll(() => {
    const rows = (sql: string) => db.prepare(sql).all() as Text[];
    texts = [
      ...rows('SELECT platform, caption AS text FROM posts'),
      ...rows('SELECT p.platform, c.text FROM comments c JOIN posts p ON p.pk = c.post_pk'),
      ...rows("SELECT 'vidnet' AS platform, title AS text FROM videos"),
      ...rows("SELECT 'vidnet' AS platform, description AS text FROM videos"),
      ...rows("SELECT 'vidnet' AS platform, text FROM video_comments"),
    ];
  });

  /** every text a check flags, a few of them shown */
  function flagged(check: (t: Text) => boolean): string[] {
    return texts.filter(check).map((t) => `${t.platform}: ${t.text.replace(/\n/g, ' / ')}`);
  }

  it('fill their templates cleanly: no empty slot, doubled word, stacked article or wrong a/an', () => {
    const slips: Record<string, RegExp> = {
      // a slot left unfilled
      slot: /[{}]/,
      // "Learning learning guitar", "tbh tbh"
      doubled: /(?<![\p{L}\p{N}])(\p{L}+) \1(?![\p{L}\p{N}])/iu,
      // an article or a word that wants a bare noun, before a filled phrase that has its own
      // article: "quick the 50/30/20 budget tip", "this a lifting belt", "my the leggings"
      stacked: /\b(a|an|the|my|your|our|this|quick|new|every|each)\s+(a|an|the|my|your|our)\b/i,
      // "a air fryer", "an cast iron skillet"
      a: /(?<![\p{L}&'-])a (?!(one|once|use|usb|uni|euro)\b)[aeiou]/iu,
      an: /(?<![\p{L}&'-])an (?!(hour|honest|heir|8|11|18)\b)[^aeiou\s]/iu,
      spacing: / {2}| [,.!?;:](?!\.)/,
    };
    for (const [name, re] of Object.entries(slips))
      expect(flagged((t) => re.test(t.text)).slice(0, 5), name).toEqual([]);
  });

  it('never say the same thing twice in a comment, and list chapters in the order a video tells them', () => {
    const sentence = (s: string) =>
      s
        .toLowerCase()
        .replace(/[^\p{L}\p{N} ]/gu, '')
        .trim();
    const repeated = flagged((t) => {
      // sentences of a few words (not "lol" or an emoji)
      const parts = t.text
        .split(/(?<=[.!?]) +/)
        .map(sentence)
        .filter((p) => p.split(' ').length >= 3);
      return new Set(parts).size < parts.length;
    });
    expect(repeated.slice(0, 5)).toEqual([]);
    const order = ['Intro', 'The setup', 'First impressions', 'What went wrong', 'The results', 'Tips'];
    order.push('Budget option', 'Final thoughts', 'Q&A', 'Bloopers');
    const disordered = flagged((t) => {
      const chapters = [...t.text.matchAll(/^(\d+):(\d\d) (.+)$/gm)];
      const at = chapters.map((m) => Number(m[1]) * 60 + Number(m[2]));
      const rank = chapters.map((m) => order.indexOf(m[3] as string));
      return (
        chapters.length > 0 &&
        (at.some((s, i) => i > 0 && s <= at[i - 1]!) ||
          rank.some((r, i) => r < 0 || (i > 0 && r <= rank[i - 1]!)))
      );
    });
    expect(disordered.slice(0, 5)).toEqual([]);
    expect(texts.some((t) => /^0:00 Intro$/m.test(t.text))).toBe(true);
  });

  it('use each platform’s own idioms, never another platform’s hashtags or words', () => {
    const foreign: Record<Platform, RegExp> = {
      // Instagram's and YouTube's
      clipnet:
        /#(insta\w*|\w*ofinstagram|\w*stagram\w*|explore|instagood|photooftheday|picoftheday|shorts|\w*tube)\b|\b(subscribe|subscribers|swipe|carousel|reels?)\b/i,
      // TikTok's and YouTube's
      picnet:
        /#(\w*tok|\w*tiktok|fyp|foryou|foryoupage|duet|stitch|shorts|\w*tube)\b|\b(fyp|for you page|stitch|duet|subscribe|subscribers)\b/i,
      // TikTok's and Instagram's
      vidnet:
        /#(\w*tok|\w*tiktok|fyp|foryou|foryoupage|insta\w*|\w*ofinstagram|\w*stagram\w*|explore|instagood|photooftheday)\b|\b(fyp|stitch|duet|link in bio|swipe|reels?)\b/i,
    };
    for (const platform of ['clipnet', 'picnet', 'vidnet'] as const)
      expect(
        flagged((t) => t.platform === platform && foreign[platform].test(t.text)).slice(0, 5),
        platform,
      ).toEqual([]);
    // and each has its own: TikTok's, Instagram's and YouTube's hashtags are there
    const has = (platform: Platform, re: RegExp) =>
      texts.some((t) => t.platform === platform && re.test(t.text));
    expect(has('clipnet', /#(fyp|\w+tok)\b/)).toBe(true);
    expect(has('picnet', /#(instagood|\w+ofinstagram|\w*stagram)\b/)).toBe(true);
    expect(has('vidnet', /#shorts\b/)).toBe(true);
  });
});
