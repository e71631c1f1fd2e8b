// youtubei against responses the platform really sent (recorded by NewPipeExtractor and
// Invidious, trimmed; see test/fixtures/live/youtubei/SOURCES.md), replayed by a local server
// that YOUTUBEI_BASE_URL points at. Each test counts the upstream requests a call cost.
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VidnetChannelVideo, VidnetComment, VidnetVideo } from '../../../src/contract/items.js';
import type { SkippedItem, VidnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import {
  commentsToken,
  hashtagParams,
  parseCount,
  parseDuration,
  parseRelativeTime,
  parseViews,
  readPlayer,
  searchParams,
} from '../../../src/sources/providers/youtubei/vidnet.js';
import { assertItems, FIXED_NOW, rejection } from './helpers.js';
import {
  CHANNEL_VIDEOS_IDS,
  type Exchange,
  exchange,
  loadExchanges,
  RECORDED_AT,
  REPLAY_HTTP,
  type Replay,
  recordedJson,
  SEARCH_TEST_IDS,
  SHORTS_IDS,
  startChangedReplay,
  startReplay,
} from './replay.js';

const NOW = RECORDED_AT;
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

function source(origin: string): VidnetSource {
  return createLiveSource(
    'vidnet',
    'youtubei',
    { ...REPLAY_HTTP, YOUTUBEI_BASE_URL: origin },
    { now: () => NOW },
  );
}

let replay: Replay;
let src: VidnetSource;
beforeAll(async () => {
  replay = await startReplay();
  src = source(replay.origin);
});
afterEach(() => {
  expect(replay.unmatched).toEqual([]);
  replay.reset();
});
afterAll(async () => {
  await replay?.close();
});

/** a replay whose recordings were changed (a layout drift simulated on a real recording) */
async function withChanged(name: string, change: (body: any) => void) {
  const r = await startChangedReplay(name, change);
  return { replay: r, src: source(r.origin) };
}

function skips(): { skipped: SkippedItem[]; ctx: { onSkip: (s: SkippedItem) => void } } {
  const skipped: SkippedItem[] = [];
  return { skipped, ctx: { onSkip: (s) => skipped.push(s) } };
}

const search = { keyword: 'test', max: 100, depth: 2, period: 'all' as const, sorting: 'relevance' as const };
const ref = (id: string) => ({ id, form: 'id' as const, input: id });

describe('youtubei display-text parsing and request encoding', () => {
  it('reads counts, durations and relative times', () => {
    expect(parseViews('1,234,567 views')).toBe(1234567);
    expect(parseViews('1.2M views')).toBe(1200000);
    expect(parseViews('12k views')).toBe(12000);
    expect(parseViews('No views')).toBe(0);
    expect(parseViews('1 view')).toBe(1);
    expect(parseCount('3.4K')).toBe(3400);
    expect(parseCount('')).toBe(0);
    expect(parseCount(' ')).toBe(0);
    expect(parseCount('lots')).toBeNull();
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('12:31')).toBe(751);
    expect(parseDuration('SHORTS')).toBeNull();
    expect(parseRelativeTime('3 days ago', FIXED_NOW)?.toISOString()).toBe('2024-04-30T12:00:00.000Z');
    expect(parseRelativeTime('Streamed 1 week ago', FIXED_NOW)?.toISOString()).toBe(
      '2024-04-26T12:00:00.000Z',
    );
    expect(parseRelativeTime('yesterday-ish', FIXED_NOW)).toBeNull();
  });

  it('encodes requests as the web client and youtubei.js do', () => {
    // the comments-section token the watch page hands out (as in the recorded requests)
    expect(commentsToken('xaQJbozY_Is')).toBe(
      exchange('comments-xaQJbozY_Is-page1').request.body.continuation,
    );
    expect(commentsToken('D00Au7k3i6o')).toBe(
      exchange('comments-D00Au7k3i6o-page1').request.body.continuation,
    );
    // type=video plus the upload-date filter, as youtubei.js 18.1.0 encodes them
    expect(searchParams('all')).toBe('EgIQAQ%3D%3D');
    expect(searchParams('today')).toBe('EgQIAhAB');
    expect(searchParams('week')).toBe('EgQIAxAB');
    expect(searchParams('month')).toBe('EgQIBBAB');
    expect(hashtagParams('martingarrix')).toBe('6gUQCgxtYXJ0aW5nYXJyaXgYAQ%3D%3D');
  });

  it('reads both recorded /player layouts: microformat only, and the full answer', () => {
    const fields = readPlayer(recordedJson('player-M4gD1WSo5mA'), 'youtubei');
    expect(fields).toMatchObject({
      video_id: 'M4gD1WSo5mA',
      title:
        'William Fisher, CopyrightX: Lecture 3.2, The Subject Matter of Copyright: Drama and choreography',
      channel_id: 'UCuLGmD72gJDBwmLw06X58SA',
      channel_title: 'The Berkman Klein Center for Internet & Society',
      published_at: '2015-01-28T05:14:36.000Z',
      stats: { views: 12916, likes: 72, comments: null },
      duration_seconds: 721,
      is_short: false,
    });
    expect(fields?.description).toMatch(/^The terms on which this lecture/);
    const full = readPlayer(recordedJson('player-2isYuQZMbdU'), 'youtubei');
    expect(full).toMatchObject({
      video_id: '2isYuQZMbdU',
      title: 'I Gave My 100,000,000th Subscriber An Island',
      channel_id: 'UCX6OQ3DkcsbYNE6H8uQQuVA',
      channel_title: 'MrBeast',
      published_at: '2022-08-04T19:59:59.000Z',
      stats: { views: 220226287, likes: null, comments: null },
      duration_seconds: 930,
    });
  });
});

describe('YOUTUBEI_BASE_URL', () => {
  it('sends every request, the session included, to that origin and nowhere else', async () => {
    const origins: string[] = [];
    const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
      origins.push(String(opts.origin));
      return dispatch(opts, handler);
    });
    const s = createLiveSource(
      'vidnet',
      'youtubei',
      { ...REPLAY_HTTP, YOUTUBEI_BASE_URL: `${replay.origin}/` },
      { now: () => NOW, dispatcher },
    );
    await s.channelShorts({ browseId: 'UCh8gHdtzO2tXd593_bjErWg', max: 2 });
    await s.comments({ video: ref('D00Au7k3i6o'), limit: 5 });
    expect(origins).toHaveLength(4);
    expect(new Set(origins)).toEqual(new Set([replay.origin]));
  });

  it('must be an http(s) URL', () => {
    expect(() => source('ftp://mirror.example')).toThrow(/YOUTUBEI_BASE_URL must be an http/);
    expect(() => source('not a url')).toThrow(/YOUTUBEI_BASE_URL is not a valid URL/);
  });
});

describe('youtubei search (recorded: "test", videos filter)', () => {
  it('returns the keyword results of two pages; recommendation shelves are not keyword results', async () => {
    const res = await src.search(search);
    assertItems(VidnetVideo, res.videos);
    expect(res.sortingApplied).toBe('native');
    expect(res.videos.map((v) => v.video_id)).toEqual(SEARCH_TEST_IDS);
    expect(res.videos[0]).toMatchObject({
      title: 'Blind Test TOUT GENRE | 140 extraits',
      channel_id: 'UCuEBTg6pcG7s3PpPGRtFKQA',
      channel_title: 'Blind Test & Chill',
      published_at: ago(270),
      stats: { views: 390201, likes: null, comments: null },
      source_keyword: 'test',
    });
    expect(res.videos[0]?.description).toMatch(/^Bienvenue sur ce Blind Test Tout Genre!/);
    expect(res.videos[0]?.thumbnail).toMatch(/^https:\/\/i\.ytimg\.com\/vi\/Z8KYabgkMbw\/hq720\.jpg/);
    // "Streamed 14 minutes ago" is a past stream with a date, not a live one
    expect(res.videos[6]?.published_at).toBe(new Date(NOW.getTime() - 14 * 60_000).toISOString());
    expect(replay.counts()).toEqual({ search: 2 });
    expect(replay.recent()[0]?.body).toEqual({ query: 'test', params: 'EgIQAQ%3D%3D' });
  });

  it('sends no further page once max is met (relevance)', async () => {
    const res = await src.search({ ...search, max: 3 });
    expect(res.videos.map((v) => v.video_id)).toEqual(['Z8KYabgkMbw', '0YWt4Ai8q_g', 'UEQSkaqrMZA']);
    expect(replay.counts()).toEqual({ search: 1 });
  });

  it('reads the whole depth for an emulated order, and sorts it', async () => {
    const res = await src.search({ ...search, sorting: 'viewCount', max: 3 });
    expect(res.sortingApplied).toBe('emulated');
    expect(res.videos.map((v) => [v.video_id, v.stats.views])).toEqual([
      ['wRyD81oBUSM', 1260112],
      ['dtQlcQs72yY', 944837],
      ['UEQSkaqrMZA', 600822],
    ]);
    expect(replay.counts()).toEqual({ search: 2 });
  });

  it('a collaboration video (channel link is a dialog) is owned by the first listed channel', async () => {
    const res = await src.search({ ...search, keyword: 'Nxk6aRHi664', depth: 1 });
    expect(res.videos).toHaveLength(1);
    expect(res.videos[0]).toMatchObject({
      video_id: 'Nxk6aRHi664',
      title: 'Why is Aya Nakamura so controversial? @ThomasGauthier | ARTE',
      channel_id: 'UCZxLew-WXWm5dhRZBgEFl-Q',
      channel_title: 'Le Vortex - ARTE',
      stats: { views: 107504 },
      published_at: ago(210),
    });
  });

  it('leaves out an item it cannot read, says so, and returns the rest', async () => {
    const changed = await withChanged('search-test-page1', (body) => {
      const items = (body as any).contents.twoColumnSearchResultsRenderer.primaryContents.sectionListRenderer
        .contents[0].itemSectionRenderer.contents;
      delete items[0].videoRenderer.videoId;
      items[1].videoRenderer.publishedTimeText = { simpleText: 'sometime' };
    });
    try {
      const { skipped, ctx } = skips();
      const res = await changed.src.search({ ...search, depth: 1 }, ctx);
      // page 1 less its first two videos
      expect(res.videos.map((v) => v.video_id)).toEqual(SEARCH_TEST_IDS.slice(2, 8));
      expect(skipped).toHaveLength(2);
      expect(skipped[0]).toMatchObject({ backend: 'youtubei', what: 'video' });
    } finally {
      await changed.replay.close();
    }
  });

  it('a page whose items are all unreadable, or of an unknown kind, is an upstream error', async () => {
    const renamed = await withChanged('search-test-page1', (body) => {
      const text = JSON.stringify(body).replaceAll('"videoRenderer"', '"videoRendererV2"');
      Object.assign(body, JSON.parse(text));
    });
    try {
      const { skipped, ctx } = skips();
      const err = await rejection(renamed.src.search({ ...search, depth: 1 }, ctx));
      expect(err.kind).toBe('upstream');
      expect(err.message).toMatch(/none could be read/);
      expect(skipped.length).toBeGreaterThan(0);
    } finally {
      await renamed.replay.close();
    }
  });
});

describe('youtubei channel videos (recorded: Creative Commons, lockupViewModel items)', () => {
  const CHANNEL = 'UCTwECeGqMZee77BjdoYtI2Q';

  it('reads the lockup items of the Videos tab across two pages', async () => {
    const videos = await src.channelVideos({ browseId: CHANNEL, depth: 2, max: 40 });
    assertItems(VidnetChannelVideo, videos);
    expect(videos.map((v) => v.video_id)).toEqual(CHANNEL_VIDEOS_IDS);
    expect(videos[0]).toMatchObject({
      title:
        'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
      description: '',
      channel_id: CHANNEL,
      channel_title: 'Creative Commons',
      published_at: ago(13),
      stats: { views: 28, likes: null, comments: null },
      duration_seconds: 4054,
      is_short: false,
      source_browse_id: CHANNEL,
    });
    expect(videos[0]?.thumbnail).toMatch(/^https:\/\/i\.ytimg\.com\/vi\/BD-LB23rRBE\/hqdefault\.jpg\?/);
    expect(videos[4]).toMatchObject({ published_at: ago(30), stats: { views: 314 }, duration_seconds: 3303 });
    expect(videos[11]).toMatchObject({ published_at: ago(365), stats: { views: 1100 } });
    expect(replay.counts()).toEqual({ browse: 2 });
  });

  it('sends no further page once max is met', async () => {
    const videos = await src.channelVideos({ browseId: CHANNEL, depth: 5, max: 5 });
    expect(videos).toHaveLength(5);
    expect(replay.counts()).toEqual({ browse: 1 });
  });

  it('a channel that is gone, or an id that is none, is not found', async () => {
    const gone = await rejection(
      src.channelVideos({ browseId: 'UCoaO4U_p7G7AwalqSbGCZOA', depth: 1, max: 5 }),
    );
    expect(gone.kind).toBe('not_found');
    expect(gone.message).toMatch(/removed/);
    const invalid = await rejection(src.channelVideos({ browseId: 'DOESNT-EXIST', depth: 1, max: 5 }));
    expect(invalid.kind).toBe('not_found');
  });
});

describe('youtubei channel Shorts (recorded: Doobydobap, shortsLockupViewModel items)', () => {
  const CHANNEL = 'UCh8gHdtzO2tXd593_bjErWg';

  it('max 10: one browse page and one /player call per returned Short', async () => {
    const shorts = await src.channelShorts({ browseId: CHANNEL, max: 10 });
    assertItems(VidnetChannelVideo, shorts);
    expect(shorts.map((s) => s.video_id)).toEqual(SHORTS_IDS);
    expect(shorts[0]).toMatchObject({
      title: 'Packing lunch for my special roommate',
      channel_id: CHANNEL,
      channel_title: 'Doobydobap',
      // exact, from /player
      published_at: '2025-12-20T17:00:00.000Z',
      stats: { views: 301234, likes: 5000, comments: null },
      duration_seconds: 20,
      is_short: true,
      source_browse_id: CHANNEL,
    });
    expect(replay.counts()).toEqual({ browse: 1, player: 10 });
    const players = replay.recent().filter((r) => r.endpoint === 'player');
    expect(players.map((r) => r.body.videoId).sort()).toEqual(shorts.map((s) => s.video_id).sort());
  });

  it('pages only as far as max needs', async () => {
    const shorts = await src.channelShorts({ browseId: CHANNEL, max: 14 });
    expect(shorts).toHaveLength(14);
    expect(shorts.slice(12).map((s) => s.video_id)).toEqual(['R8ydpPnC6vI', 'YvvSty4qss8']);
    expect(replay.counts()).toEqual({ browse: 2, player: 14 });
  });
});

describe('youtubei comments (recorded: xaQJbozY_Is with replies, D00Au7k3i6o)', () => {
  it('reads the top-level comments of the first page and sends nothing more once limit is met', async () => {
    const comments = await src.comments({ video: ref('xaQJbozY_Is'), limit: 6 });
    assertItems(VidnetComment, comments);
    expect(comments.map((c) => [c.id, c.author, c.likes])).toEqual([
      ['UgwSOM0QHBLysE3vZE54AaABAg', '@kurzgesagt', 9800],
      ['UgxNNFhhw8l9vjj9zsx4AaABAg', '@MoreConsole', 22000],
      ['Ugyoo-QsiAVVW3Tqqjt4AaABAg', '@heyquitstealingmymoves6538', 3300],
      ['UgzFxzarru7O2dbK0Dh4AaABAg', '@ExiStrife', 635],
      ['UgwaG5ZLOj86V_35uRJ4AaABAg', '@m0ssflower355', 200],
      ['Ugzoygnmz9IYzNj2B4J4AaABAg', '@Sinvicta', 46000],
    ]);
    expect(comments[0]).toMatchObject({
      video_id: 'xaQJbozY_Is',
      timestamp: ago(4 * 365),
    });
    expect(comments[0]?.text).toMatch(/^The 12,022 Calendar is sold out/);
    expect(comments[4]?.timestamp).toBe(ago(2 * 365));
    expect(replay.counts()).toEqual({ next: 1 });
  });

  it("follows the page's continuation, not the first thread's replies", async () => {
    // the recordings hold no second comments page of this video: any recorded page answers its
    // token here; what matters is which token is sent
    const page1 = exchange('comments-xaQJbozY_Is-page1').response.body as any;
    const items = page1.onResponseReceivedEndpoints[1].reloadContinuationItemsCommand.continuationItems;
    const pageToken = items[items.length - 1].continuationItemRenderer.continuationEndpoint
      .continuationCommand.token as string;
    const second: Exchange = {
      ...exchange('comments-D00Au7k3i6o-page1'),
      name: 'second-page',
      request: { method: 'POST', path: '/youtubei/v1/next', body: { continuation: pageToken } },
    };
    const r = await startReplay([...loadExchanges(), second]);
    try {
      const comments = await source(r.origin).comments({ video: ref('xaQJbozY_Is'), limit: 20 });
      expect(r.requests.map((q) => q.answeredBy)).toEqual(['comments-xaQJbozY_Is-page1', 'second-page']);
      expect(comments).toHaveLength(9);
      expect(comments.slice(6).map((c) => c.id)).toEqual([
        'Ugj1yo5xTCQt9HgCoAEC',
        'Ugyupvm3YjcpQ5RLtbp4AaABAg',
        'UgiMBVVB9XkcTHgCoAEC',
      ]);
      // no reply among them
      expect(comments.every((c) => !c.id.includes('.'))).toBe(true);
      expect(r.unmatched).toEqual([]);
    } finally {
      await r.close();
    }
  });

  it('stops at the last page', async () => {
    const comments = await src.comments({ video: ref('D00Au7k3i6o'), limit: 50 });
    expect(comments.map((c) => [c.id, c.author, c.likes, c.timestamp])).toEqual([
      ['Ugj1yo5xTCQt9HgCoAEC', '@Nicky-mg4up', 1, ago(9 * 365)],
      ['Ugyupvm3YjcpQ5RLtbp4AaABAg', '@LicensedTaddus', 0, ago(6 * 365)],
      ['UgiMBVVB9XkcTHgCoAEC', '@Triggerhappyfan-cx7iy', 0, ago(9 * 365)],
    ]);
    expect(comments[0]?.text).toBe('Category: Education (now in 1080p)');
    expect(replay.counts()).toEqual({ next: 1 });
  });
});

describe('youtubei hashtag (recorded: #martingarrix)', () => {
  it('reads the feed', async () => {
    const videos = await src.hashtag({ hashtag: 'martingarrix', depth: 1, onlyShorts: false, max: 20 });
    expect(videos.map((v) => v.video_id)).toEqual([
      'gCYcHz2k5x0',
      '7xpja4fejbk',
      'Pnp_7IaqW74',
      'lGCo8ILvauI',
      'WKuaujIHBT4',
      '6e1hS_RcGZE',
      'tspNk3SwZ9s',
      '9vMh9f41pqE',
    ]);
    expect(videos[0]).toMatchObject({
      title: 'Martin Garrix - Animals (Official Video)',
      channel_title: "Spinnin' Records",
      published_at: ago(8 * 365),
      stats: { views: 1566000625 },
      duration_seconds: 192,
      is_short: false,
      source_hashtag: 'martingarrix',
    });
    expect(replay.counts()).toEqual({ browse: 1 });
    expect(replay.recent()[0]?.body).toEqual({
      browseId: 'FEhashtag',
      params: '6gUQCgxtYXJ0aW5nYXJyaXgYAQ%3D%3D',
    });
  });

  it('sends no further page once max is met', async () => {
    const videos = await src.hashtag({ hashtag: 'martingarrix', depth: 3, onlyShorts: false, max: 5 });
    expect(videos).toHaveLength(5);
    expect(replay.counts()).toEqual({ browse: 1 });
  });

  it('only_shorts on a page without a Shorts filter is drift', async () => {
    const err = await rejection(
      src.hashtag({ hashtag: 'martingarrix', depth: 1, onlyShorts: true, max: 20 }),
    );
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/no Shorts filter/);
  });
});
