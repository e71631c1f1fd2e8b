// A readable sample of what the world holds (handles, ids, hashtags, channels, keywords, URLs),
// as printed by `npm run sandbox:sample`.
import { clipnetPostUrl, clipnetShortUrl } from './clipnet.js';
import { World } from './db.js';
import { defaultSandboxPath } from './index.js';
import { picnetPostUrl } from './picnet.js';
import { windowStart } from './time.js';
import { vidnetShortUrl, vidnetWatchUrl } from './vidnet.js';
import { NICHES } from './world/niches.js';

type Row = Record<string, string | number | null>;

export function sampleWorld(path = defaultSandboxPath(), now = new Date()): string {
  const world = new World(path, () => now);
  const out: string[] = [];
  const print = (s = '') => out.push(s);
  try {
    const db = world.db;
    const clock = world.clock();
    const all = (sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as Row[];
    const fmt = (n: unknown) => Number(n).toLocaleString('en-US');

    for (const platform of ['clipnet', 'picnet'] as const) {
      print(`== ${platform}`);
      const top = all(
        'SELECT handle, user_id, niche, followers FROM accounts WHERE platform = ? ORDER BY followers DESC LIMIT 8',
        platform,
      );
      const small = all(
        'SELECT handle, user_id, niche, followers FROM accounts WHERE platform = ? ORDER BY followers ASC LIMIT 3',
        platform,
      );
      print('top accounts by audience:');
      for (const a of top)
        print(
          `  ${String(a.handle).padEnd(24)} ${String(a.niche).padEnd(8)} ${fmt(a.followers).padStart(11)} followers${platform === 'picnet' ? `   user id ${a.user_id}` : ''}`,
        );
      print('small accounts:');
      for (const a of small)
        print(
          `  ${String(a.handle).padEnd(24)} ${String(a.niche).padEnd(8)} ${fmt(a.followers).padStart(11)} followers${platform === 'picnet' ? `   user id ${a.user_id}` : ''}`,
        );
      const tags = all(
        `SELECT tag, COUNT(*) AS n FROM post_tags WHERE platform = ? AND ts >= ? AND ts <= ?
         GROUP BY tag ORDER BY n DESC, tag LIMIT 12`,
        platform,
        windowStart(7),
        clock.nowOffset,
      );
      print(`popular hashtags, last 7 days: ${tags.map((t) => `#${t.tag} (${t.n})`).join(', ')}`);
      const posts = all(
        `SELECT p.id, p.code, p.media_type, a.handle FROM posts p JOIN accounts a ON a.pk = p.account_pk
         WHERE p.platform = ? AND p.ts <= ? ORDER BY p.comments DESC LIMIT 2`,
        platform,
        clock.nowOffset,
      );
      print('post URLs (well commented):');
      for (const p of posts) {
        if (platform === 'clipnet') {
          print(`  ${clipnetPostUrl(String(p.handle), String(p.id))}`);
          print(`  ${clipnetShortUrl(String(p.code))}`);
        } else {
          print(`  ${picnetPostUrl(String(p.code), p.media_type as string)}   shortcode ${p.code}`);
        }
      }
      print();
    }

    print('== vidnet');
    const channels = all(
      `SELECT c.browse_id, c.title, c.niche, c.subscribers,
              SUM(v.is_short = 0) AS videos, SUM(v.is_short = 1) AS shorts
       FROM channels c JOIN videos v ON v.channel_pk = c.pk GROUP BY c.pk ORDER BY c.subscribers DESC LIMIT 8`,
    );
    print('top channels (browse id, name, niche, subscribers, videos/Shorts):');
    for (const c of channels)
      print(
        `  ${c.browse_id}  ${String(c.title).padEnd(26)} ${String(c.niche).padEnd(8)} ${fmt(c.subscribers).padStart(11)}  ${c.videos}/${c.shorts}`,
      );
    const vtags = all(
      `SELECT tag, COUNT(*) AS n FROM video_tags WHERE ts >= ? AND ts <= ? AND tag <> 'shorts'
       GROUP BY tag ORDER BY n DESC, tag LIMIT 12`,
      windowStart(7),
      clock.nowOffset,
    );
    print(`popular hashtags, last 7 days: ${vtags.map((t) => `#${t.tag} (${t.n})`).join(', ')}`);
    const keywords = NICHES.flatMap((n) => n.keywords.slice(0, 2));
    const count = db.prepare(
      'SELECT COUNT(*) AS n FROM video_fts JOIN videos v ON v.pk = video_fts.rowid WHERE video_fts MATCH ? AND v.ts <= ?',
    );
    const scored = keywords
      .map((k) => ({
        k,
        n: (
          count.get(
            k
              .split(' ')
              .map((t) => `"${t}"`)
              .join(' '),
            clock.nowOffset,
          ) as { n: number }
        ).n,
      }))
      .sort((a, b) => b.n - a.n)
      .slice(0, 12);
    print(`keywords (matching videos): ${scored.map((s) => `"${s.k}" (${s.n})`).join(', ')}`);
    const vids = all(
      'SELECT id, is_short FROM videos WHERE ts <= ? ORDER BY comments DESC LIMIT 3',
      clock.nowOffset,
    );
    print('video URLs (well commented):');
    for (const v of vids) {
      print(`  ${vidnetWatchUrl(String(v.id), v.is_short === 1)}`);
      print(`  ${vidnetShortUrl(String(v.id))}`);
    }
  } finally {
    world.close();
  }
  return out.join('\n');
}
