// A readable sample of what the world holds (handles, ids, hashtags, channels, keywords, URLs),
// as printed by `npm run sandbox:sample`. Everything it prints answers at any hour of any day:
// accounts and channels with items before today, hashtags and keywords the world promises for
// today (world/featured.ts), URLs of posts and videos from before today.
import { blipnetPostUrl } from './blipnet.js';
import { clipnetPostUrl, clipnetShortUrl } from './clipnet.js';
import { World } from './db.js';
import { defaultSandboxPath } from './index.js';
import { picnetPostUrl } from './picnet.js';
import { windowStart } from './time.js';
import { keywordTerms, vidnetShortUrl, vidnetWatchUrl } from './vidnet.js';
import {
  BLIPNET_PINNED_ACCOUNTS,
  BLIPNET_TODAY_HASHTAGS,
  PINNED_ACCOUNTS,
  PINNED_CHANNELS,
  TODAY_HASHTAGS,
  TODAY_KEYWORDS,
} from './world/featured.js';

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
    const account = (a: Row, platform: string) =>
      `  ${String(a.handle).padEnd(24)} ${String(a.niche).padEnd(8)} ${fmt(a.followers).padStart(11)} followers${platform === 'picnet' ? `   user id ${a.user_id}` : ''}`;
    const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;

    for (const platform of ['clipnet', 'picnet'] as const) {
      print(`== ${platform}`);
      const named = PINNED_ACCOUNTS.filter((a) => a.platform === platform).map((a) => a.handle);
      print('accounts named in the docs:');
      for (const handle of named)
        for (const a of all(
          'SELECT handle, user_id, niche, followers FROM accounts WHERE platform = ? AND handle = ?',
          platform,
          handle,
        ))
          print(account(a, platform));
      print('top accounts by audience:');
      for (const a of all(
        'SELECT handle, user_id, niche, followers FROM accounts WHERE platform = ? ORDER BY followers DESC LIMIT 8',
        platform,
      ))
        print(account(a, platform));
      print('small accounts:');
      for (const a of all(
        'SELECT handle, user_id, niche, followers FROM accounts WHERE platform = ? ORDER BY followers ASC LIMIT 3',
        platform,
      ))
        print(account(a, platform));
      const tagged = (tag: string, from: number) =>
        count(
          'SELECT COUNT(*) AS n FROM post_tags WHERE platform = ? AND tag = ? AND ts >= ? AND ts <= ?',
          platform,
          tag,
          from,
          clock.nowOffset,
        );
      print(
        `hashtags with posts at any hour (posts today so far / last 7 days): ${TODAY_HASHTAGS[platform]
          .map((t) => `#${t} (${tagged(t, windowStart(1))}/${tagged(t, windowStart(7))})`)
          .join(', ')}`,
      );
      const posts = all(
        `SELECT p.id, p.code, p.media_type, a.handle FROM posts p JOIN accounts a ON a.pk = p.account_pk
         WHERE p.platform = ? AND p.ts < 0 ORDER BY p.comments DESC LIMIT 2`,
        platform,
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
    const channelColumns = `c.browse_id, c.title, c.niche, c.subscribers,
      SUM(v.is_short = 0 AND v.ts < 0) AS videos, SUM(v.is_short = 1 AND v.ts < 0) AS shorts`;
    const channel = (c: Row) =>
      `  ${c.browse_id}  ${String(c.title).padEnd(26)} ${String(c.niche).padEnd(8)} ${fmt(c.subscribers).padStart(11)}  ${c.videos}/${c.shorts}`;
    print('channels named in the docs (browse id, name, niche, subscribers, videos/Shorts):');
    for (const p of PINNED_CHANNELS)
      for (const c of all(
        `SELECT ${channelColumns} FROM channels c JOIN videos v ON v.channel_pk = c.pk WHERE c.browse_id = ? GROUP BY c.pk`,
        p.browseId,
      ))
        print(channel(c));
    print('top channels with videos and Shorts:');
    for (const c of all(
      `SELECT ${channelColumns} FROM channels c JOIN videos v ON v.channel_pk = c.pk
       GROUP BY c.pk HAVING videos > 0 AND shorts > 0 ORDER BY c.subscribers DESC LIMIT 8`,
    ))
      print(channel(c));
    const vtags = all(
      `SELECT tag, COUNT(*) AS n FROM video_tags WHERE ts >= ? AND ts < 0 AND tag <> 'shorts'
       GROUP BY tag ORDER BY n DESC, tag LIMIT 12`,
      windowStart(7),
    );
    print(`popular hashtags, last 7 days: ${vtags.map((t) => `#${t.tag} (${t.n})`).join(', ')}`);
    const matching = db.prepare(
      'SELECT COUNT(*) AS n FROM video_fts JOIN videos v ON v.pk = video_fts.rowid WHERE video_fts MATCH ? AND v.ts >= ? AND v.ts <= ?',
    );
    const videos = (k: string, from: number) =>
      (
        matching.get(
          keywordTerms(k)
            .map((t) => `"${t}"`)
            .join(' '),
          from,
          clock.nowOffset,
        ) as { n: number }
      ).n;
    print(
      `keywords with videos at any hour (videos today so far / last 7 days): ${TODAY_KEYWORDS.map(
        (k) => `"${k}" (${videos(k, windowStart(1))}/${videos(k, windowStart(7))})`,
      ).join(', ')}`,
    );
    const vids = all('SELECT id, is_short FROM videos WHERE ts < 0 ORDER BY comments DESC LIMIT 3');
    print('video URLs (well commented):');
    for (const v of vids) {
      print(`  ${vidnetWatchUrl(String(v.id), v.is_short === 1)}`);
      print(`  ${vidnetShortUrl(String(v.id))}`);
    }
    print();
    print('== blipnet');
    print('accounts named in the docs (handle, account id, followers):');
    for (const p of BLIPNET_PINNED_ACCOUNTS)
      print(`  ${p.handle.padEnd(28)} ${p.did}  ${fmt(p.followers).padStart(9)} followers`);
    const btagged = (tag: string, from: number) =>
      count(
        'SELECT COUNT(*) AS n FROM blip_tags WHERE tag = ? AND ts >= ? AND ts <= ?',
        tag,
        from,
        clock.nowOffset,
      );
    print(
      `hashtags (and search keywords) with posts at any hour (posts today so far / last 7 days): ${BLIPNET_TODAY_HASHTAGS.map(
        (t) => `#${t} (${btagged(t, windowStart(1))}/${btagged(t, windowStart(7))})`,
      ).join(', ')}`,
    );
    print('post URLs (well replied):');
    for (const p of all(
      `SELECT a.handle, p.rkey FROM blip_posts p JOIN blip_accounts a ON a.pk = p.account_pk
       WHERE p.depth = 0 AND p.ts < 0 ORDER BY p.replies DESC, p.pk LIMIT 3`,
    ))
      print(`  ${blipnetPostUrl(String(p.handle), String(p.rkey))}`);
  } finally {
    world.close();
  }
  return out.join('\n');
}
