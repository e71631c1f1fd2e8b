// vidnet served by the sandbox: keyword search (ranking, periods, sortings), hashtag search,
// channel videos and Shorts, comments.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../../../src/contract/items.js';
import type { PostRef, VidnetPeriod, VidnetSorting } from '../../../src/sources/interface.js';
import { SourceError } from '../../../src/sources/interface.js';
import { openSandbox, type Sandbox } from '../../../src/sources/sandbox/index.js';
import {
  DAILY_HASHTAGS,
  DAILY_KEYWORDS,
  EVERYDAY,
  TODAY_KEYWORDS,
} from '../../../src/sources/sandbox/world/featured.js';
import {
  anchorOf,
  at,
  DATES,
  DAY,
  expectValid,
  hasHashtag,
  NOW1,
  TIMES_OF_DAY,
  tempWorld,
  tokens,
} from './helpers.js';

const world = tempWorld('vidnet');
let sandbox: Sandbox;
let db: Database.Database;
let now = NOW1;
const ref = (id: string): PostRef => ({ id, form: 'id', input: id });

const KEYWORDS = [
  'speedrun',
  'budget travel',
  'leg day',
  'air fryer',
  'skincare routine',
  'piano cover',
  'Puppy Training',
];
const PERIODS: VidnetPeriod[] = ['today', 'week', 'month', 'all'];
const SORTINGS: VidnetSorting[] = ['relevance', 'date', 'viewCount', 'rating'];

async function errorKind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SourceError) return err.kind;
    throw err;
  }
  return 'none';
}

beforeAll(() => {
  world.build();
  sandbox = openSandbox({ dbPath: world.path, now: () => now });
  db = new Database(world.path, { readonly: true });
});
afterAll(() => {
  sandbox?.close();
  db?.close();
  world.remove();
});
beforeEach(() => {
  now = NOW1;
});

function periodFrom(period: VidnetPeriod): number {
  const days = { today: 1, week: 7, month: 30, all: 100_000 }[period];
  return (anchorOf(now) - (days - 1) * DAY) * 1000;
}

describe('vidnet keyword search', () => {
  it('returns only videos containing every term, inside the period, sorted as asked', async () => {
    let nonEmpty = 0;
    for (const keyword of KEYWORDS) {
      const terms = [...tokens(keyword)];
      for (const period of PERIODS) {
        for (const sorting of SORTINGS) {
          const { videos, sortingApplied } = await sandbox.vidnet.search({
            keyword,
            max: 500,
            depth: 50,
            period,
            sorting,
          });
          expect(sortingApplied).toBe('native');
          if (videos.length > 0) nonEmpty++;
          for (const v of videos) {
            const seen = tokens(`${v.title}\n${v.description}`);
            for (const t of terms) expect(seen.has(t), `${t} in ${v.title}`).toBe(true);
            const at = Date.parse(v.published_at);
            expect(at).toBeGreaterThanOrEqual(periodFrom(period));
            expect(at).toBeLessThanOrEqual(now.getTime());
            expect(v.source_keyword).toBe(keyword);
          }
          const pairs = videos.slice(1).map((v, i) => [videos[i]!, v] as const);
          for (const [a, b] of pairs) {
            if (sorting === 'date')
              expect(Date.parse(a.published_at)).toBeGreaterThanOrEqual(Date.parse(b.published_at));
            if (sorting === 'viewCount') expect(a.stats.views).toBeGreaterThanOrEqual(b.stats.views);
            if (sorting === 'rating')
              expect(a.stats.likes! / Math.max(a.stats.views, 1)).toBeGreaterThanOrEqual(
                b.stats.likes! / Math.max(b.stats.views, 1),
              );
          }
          expectValid(VidnetVideo, videos);
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(KEYWORDS.length * 8);
  });

  it('ranks by bm25: scores never improve down the list, title matches come first', async () => {
    const score = db.prepare(
      'SELECT v.id, bm25(video_fts, 10.0, 1.0, 4.0) AS s FROM video_fts JOIN videos v ON v.pk = video_fts.rowid WHERE video_fts MATCH ? AND v.ts <= ?',
    );
    for (const keyword of KEYWORDS) {
      const match = [...tokens(keyword)].map((t) => `"${t}"`).join(' ');
      const scores = new Map(
        (
          score.all(match, Math.floor(now.getTime() / 1000) - anchorOf(now)) as Array<{
            id: string;
            s: number;
          }>
        ).map((r) => [r.id, r.s]),
      );
      const { videos } = await sandbox.vidnet.search({
        keyword,
        max: 500,
        depth: 50,
        period: 'all',
        sorting: 'relevance',
      });
      expect(videos.length).toBe(Math.min(scores.size, 500));
      const s = videos.map((v) => scores.get(v.video_id)!);
      for (let i = 1; i < s.length; i++) expect(s[i]!).toBeGreaterThanOrEqual(s[i - 1]!);
      const first = videos[0]!;
      const inTitle = [...tokens(keyword)].every((t) => tokens(first.title).has(t));
      expect(inTitle).toBe(true);
    }
  });

  it('limits results to min(max, depth * 20)', async () => {
    const keyword = 'speedrun';
    const a = await sandbox.vidnet.search({ keyword, max: 500, depth: 1, period: 'all', sorting: 'date' });
    const b = await sandbox.vidnet.search({ keyword, max: 7, depth: 50, period: 'all', sorting: 'date' });
    const c = await sandbox.vidnet.search({ keyword, max: 500, depth: 3, period: 'all', sorting: 'date' });
    expect(a.videos.length).toBe(20);
    expect(b.videos.length).toBe(7);
    expect(c.videos.length).toBe(60);
    expect(c.videos.slice(0, 20)).toEqual(a.videos);
  });

  it('treats search operators as plain words and returns nothing for no words', async () => {
    for (const keyword of [
      'NEAR( zzqqxx',
      'title: zzqqxx',
      '"zzqqxx',
      'zzqqxx OR speedrun',
      'speedrun NOT zzqqxx',
    ]) {
      const r = await sandbox.vidnet.search({
        keyword,
        max: 10,
        depth: 1,
        period: 'all',
        sorting: 'relevance',
      });
      expect(r.videos).toEqual([]);
    }
    expect(
      (
        await sandbox.vidnet.search({
          keyword: '  !! ',
          max: 10,
          depth: 1,
          period: 'all',
          sorting: 'relevance',
        })
      ).videos,
    ).toEqual([]);
    const r = await sandbox.vidnet.search({
      keyword: 'speedrun*',
      max: 10,
      depth: 1,
      period: 'all',
      sorting: 'relevance',
    });
    expect(r.videos.length).toBe(10);
  });
});

describe('vidnet keywords and hashtags that always answer', () => {
  it('finds videos of today for the README’s and the sample’s keywords at any time of day', async () => {
    const keywords = [...new Set(['budgeting', 'speedrun', 'piano cover', ...TODAY_KEYWORDS])];
    for (const date of DATES)
      for (const time of TIMES_OF_DAY) {
        now = at(date, time);
        for (const keyword of keywords)
          for (const sorting of SORTINGS) {
            const { videos } = await sandbox.vidnet.search({
              keyword,
              max: 100,
              depth: 5,
              period: 'today',
              sorting,
            });
            expect(videos.length, `${keyword} at ${date} ${time}`).toBeGreaterThan(0);
            for (const v of videos) {
              expect(Date.parse(v.published_at)).toBeLessThanOrEqual(now.getTime());
              expect(Date.parse(v.published_at)).toBeGreaterThanOrEqual(anchorOf(now) * 1000);
            }
          }
      }
  });

  it('finds videos of the last 7 days for the keywords and hashtags people try first', async () => {
    expect(DAILY_HASHTAGS.vidnet).toEqual(expect.arrayContaining([...EVERYDAY, 'shorts']));
    expect(DAILY_KEYWORDS.length).toBeGreaterThanOrEqual(30);
    for (const date of DATES)
      for (const time of ['00:00:00', '12:00:00']) {
        now = at(date, time);
        for (const keyword of DAILY_KEYWORDS) {
          const { videos } = await sandbox.vidnet.search({
            keyword,
            max: 10,
            depth: 1,
            period: 'week',
            sorting: 'relevance',
          });
          expect(videos.length, `${keyword} at ${date} ${time}`).toBeGreaterThan(0);
        }
        // hashtag search has no window: its newest videos are from the last 7 days
        for (const tag of DAILY_HASHTAGS.vidnet) {
          const [newest] = await sandbox.vidnet.hashtag({
            hashtag: tag,
            depth: 1,
            onlyShorts: false,
            max: 1,
          });
          expect(newest, `#${tag}`).toBeDefined();
          expect(Date.parse(newest!.published_at), `#${tag}`).toBeGreaterThanOrEqual(periodFrom('week'));
        }
      }
  });
});

describe('vidnet hashtag search', () => {
  const tags = ['gaming', 'fitness', 'travel', 'shorts'];
  it('returns videos carrying the tag, newest first; onlyShorts keeps only Shorts', async () => {
    for (const tag of tags) {
      const all = await sandbox.vidnet.hashtag({ hashtag: tag, depth: 5, onlyShorts: false, max: 500 });
      const shorts = await sandbox.vidnet.hashtag({
        hashtag: `#${tag}`,
        depth: 5,
        onlyShorts: true,
        max: 500,
      });
      expect(all.length).toBe(100);
      expect(shorts.length).toBeGreaterThan(0);
      for (const v of [...all, ...shorts]) {
        expect(hasHashtag(`${v.title}\n${v.description}`, tag)).toBe(true);
        expect(Date.parse(v.published_at)).toBeLessThanOrEqual(now.getTime());
        expect(v.duration_seconds).toBeTypeOf('number');
      }
      for (const v of shorts) {
        expect(v.is_short).toBe(true);
        expect(v.duration_seconds).toBeLessThanOrEqual(60);
        expect(v.source_hashtag).toBe(`#${tag}`.replace(/^#/, ''));
      }
      if (tag !== 'shorts') expect(all.some((v) => !v.is_short)).toBe(true);
      for (const list of [all, shorts])
        for (let i = 1; i < list.length; i++)
          expect(Date.parse(list[i]!.published_at)).toBeLessThanOrEqual(
            Date.parse(list[i - 1]!.published_at),
          );
      expectValid(VidnetHashtagVideo, [...all, ...shorts]);
    }
    const one = await sandbox.vidnet.hashtag({ hashtag: 'gaming', depth: 1, onlyShorts: false, max: 500 });
    expect(one.length).toBe(20);
    expect(
      await sandbox.vidnet.hashtag({ hashtag: 'nosuchtagxyz', depth: 5, onlyShorts: false, max: 50 }),
    ).toEqual([]);
  });
});

describe('vidnet channels', () => {
  type C = { browse_id: string; longs: number; shorts: number };
  const channels = () =>
    db
      .prepare(
        `SELECT c.browse_id, SUM(v.is_short = 0 AND v.ts < 0) longs, SUM(v.is_short = 1 AND v.ts < 0) shorts
         FROM channels c JOIN videos v ON v.channel_pk = c.pk GROUP BY c.pk ORDER BY c.subscribers DESC`,
      )
      .all() as C[];

  it('lists a channel’s videos (not Shorts) newest first, up to min(max, depth*20)', async () => {
    const busy = channels().find((c) => c.longs > 25)!;
    const videos = await sandbox.vidnet.channelVideos({ browseId: busy.browse_id, depth: 1, max: 100 });
    expect(videos.length).toBe(20);
    const capped = await sandbox.vidnet.channelVideos({ browseId: busy.browse_id, depth: 50, max: 4 });
    expect(capped).toEqual(videos.slice(0, 4));
    for (const v of videos) {
      expect(v.is_short).toBe(false);
      expect(v.duration_seconds!).toBeGreaterThanOrEqual(120);
      expect(v.source_browse_id).toBe(busy.browse_id);
      expect(v.channel_id).toBe(busy.browse_id);
    }
    for (let i = 1; i < videos.length; i++)
      expect(Date.parse(videos[i]!.published_at)).toBeLessThanOrEqual(
        Date.parse(videos[i - 1]!.published_at),
      );
    expectValid(VidnetChannelVideo, videos);
  });

  it('lists a channel’s Shorts, and none for a channel without Shorts', async () => {
    const withShorts = channels().find((c) => c.shorts > 5)!;
    const shorts = await sandbox.vidnet.channelShorts({ browseId: withShorts.browse_id, max: 50 });
    expect(shorts.length).toBeGreaterThan(5);
    for (const v of shorts) {
      expect(v.is_short).toBe(true);
      expect(v.duration_seconds!).toBeLessThanOrEqual(60);
    }
    expectValid(VidnetChannelVideo, shorts);
    const without = channels().find((c) => c.shorts === 0)!;
    expect(await sandbox.vidnet.channelShorts({ browseId: without.browse_id, max: 50 })).toEqual([]);
  });

  it('reports an unknown channel as not_found', async () => {
    expect(
      await errorKind(
        sandbox.vidnet.channelVideos({ browseId: 'UCxxxxxxxxxxxxxxxxxxxxxx', depth: 1, max: 5 }),
      ),
    ).toBe('not_found');
    expect(
      await errorKind(sandbox.vidnet.channelShorts({ browseId: 'UCxxxxxxxxxxxxxxxxxxxxxx', max: 5 })),
    ).toBe('not_found');
  });
});

describe('vidnet comments', () => {
  it('resolves a video id and returns top comments first', async () => {
    const v = db.prepare('SELECT id FROM videos WHERE ts < 0 ORDER BY comments DESC LIMIT 1').get() as {
      id: string;
    };
    const comments = await sandbox.vidnet.comments({ video: ref(v.id), limit: 500 });
    expect(comments.length).toBeGreaterThan(200);
    for (const c of comments) {
      expect(c.video_id).toBe(v.id);
      expect(c.author.startsWith('@')).toBe(true);
      expect(Date.parse(c.timestamp)).toBeLessThanOrEqual(now.getTime());
    }
    for (let i = 1; i < comments.length; i++)
      expect(comments[i]!.likes).toBeLessThanOrEqual(comments[i - 1]!.likes);
    expectValid(VidnetComment, comments);
    expect(
      await sandbox.vidnet.comments({
        video: { id: v.id, form: 'shortlink', input: `https://vidnet.be/${v.id}` },
        limit: 3,
      }),
    ).toEqual(comments.slice(0, 3));
    expect(await errorKind(sandbox.vidnet.comments({ video: ref('AAAAAAAAAAA'), limit: 5 }))).toBe(
      'not_found',
    );
  });
});
