// youtubei hashtag feeds: the FEhashtag browse youtubei.js encodes, continuation pages as depth,
// Shorts completed through /player, and the page's "Shorts" chip for only_shorts.
import { describe, expect, it } from 'vitest';
import { VidnetHashtagVideo } from '../../../src/contract/items.js';
import { createLiveSource } from '../../../src/sources/live/index.js';
import { assertItems, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';

const ORIGIN = 'https://www.youtube.com';
const B = 'youtubei';

function setup() {
  const agent = mockAgent();
  const src = createLiveSource('vidnet', B, FAST, { dispatcher: agent, now: () => FIXED_NOW });
  return { agent, pool: agent.get(ORIGIN), src };
}

type Body = Record<string, unknown>;
const api = (endpoint: string, body?: (b: Body) => boolean) => ({
  method: 'POST',
  path: (p: string) => new URL(p, ORIGIN).pathname === `/youtubei/v1/${endpoint}`,
  body: (b: string) => (body ? body(JSON.parse(b) as Body) : true),
});

/** a /player answer for another Short, built from the recorded one */
function player(id: string, title: string, seconds: number, published: string, views: number): string {
  const p = JSON.parse(fixture(B, 'player-short')) as {
    videoDetails: Record<string, unknown>;
    microformat: { playerMicroformatRenderer: Record<string, unknown> };
  };
  Object.assign(p.videoDetails, {
    videoId: id,
    title,
    lengthSeconds: String(seconds),
    viewCount: String(views),
    thumbnail: { thumbnails: [{ url: `https://i.ytimg.com/vi/${id}/hq2.jpg` }] },
  });
  Object.assign(p.microformat.playerMicroformatRenderer, { publishDate: published, uploadDate: published });
  return JSON.stringify(p);
}

/** the first request: youtubei.js's encoded FEhashtag browse, recorded */
function hashtagBrowse(seen: Body[]) {
  return api('browse', (b) => {
    if (b.browseId !== 'FEhashtag') return false;
    seen.push(b);
    return true;
  });
}

describe('youtubei hashtag feed', () => {
  it('reads the feed and its continuation, completing Shorts from /player', async () => {
    const { pool, src, agent } = setup();
    const first: Body[] = [];
    pool.intercept(hashtagBrowse(first)).reply(200, fixture(B, 'hashtag-page1'));
    pool
      .intercept(api('browse', (b) => b.continuation === '4qmFsgI_HASHTAG_PAGE_2'))
      .reply(200, fixture(B, 'hashtag-page2'));
    pool.intercept(api('player', (b) => b.videoId === 'SHORT000001')).reply(200, fixture(B, 'player-short'));
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 2, onlyShorts: false, max: 20 });
    // youtubei.js encoded the hashtag into the browse params
    expect(typeof first[0]?.params).toBe('string');
    expect(String(first[0]?.params).length).toBeGreaterThan(4);
    assertItems(VidnetHashtagVideo, videos);
    expect(videos.map((v) => [v.video_id, v.duration_seconds, v.is_short, v.stats.views])).toEqual([
      ['dQw4w9WgXcQ', 751, false, 154302],
      ['9bZkp7q19f0', 45, true, 1200000],
      ['SHORT000001', 28, true, 1104332],
      ['kJQP7kiw5Fk', 3723, false, 2048],
    ]);
    expect(videos.every((v) => v.source_hashtag === 'coffee')).toBe(true);
    expect(videos[0]).toMatchObject({
      channel_id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      channel_title: 'Brew Lab',
      description: 'How we grind and brew',
      published_at: '2024-05-01T12:00:00.000Z',
      stats: { likes: null, comments: null },
    });
    // the Short's channel and exact date come from /player
    expect(videos[2]).toMatchObject({
      channel_title: 'Brew Lab',
      published_at: '2024-04-28T10:00:00.000Z',
      title: 'Crema in slow motion',
    });
    agent.assertNoPendingInterceptors();
  });

  it('depth 1 reads the first page only', async () => {
    const { pool, src } = setup();
    pool.intercept(hashtagBrowse([])).reply(200, fixture(B, 'hashtag-page1'));
    pool.intercept(api('player')).reply(200, fixture(B, 'player-short'));
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: false, max: 20 });
    expect(videos.map((v) => v.video_id)).toEqual(['dQw4w9WgXcQ', '9bZkp7q19f0', 'SHORT000001']);
  });

  it('with only_shorts follows the Shorts chip and its continuation, returning Shorts only', async () => {
    const { pool, src, agent } = setup();
    pool.intercept(hashtagBrowse([])).reply(200, fixture(B, 'hashtag-page1'));
    pool
      .intercept(api('browse', (b) => b.continuation === '4qmFsgI_HASHTAG_SHORTS_CHIP'))
      .reply(200, fixture(B, 'hashtag-shorts'));
    pool
      .intercept(api('browse', (b) => b.continuation === '4qmFsgI_HASHTAG_SHORTS_2'))
      .reply(200, fixture(B, 'hashtag-shorts-page2'));
    pool.intercept(api('player', (b) => b.videoId === 'SHORT000001')).reply(200, fixture(B, 'player-short'));
    pool
      .intercept(api('player', (b) => b.videoId === 'SHORT000002'))
      .reply(200, player('SHORT000002', 'Pour-over in 20 s', 20, '2024-05-02T08:00:00+00:00', 88_123));
    pool
      .intercept(api('player', (b) => b.videoId === 'SHORT000003'))
      .reply(200, player('SHORT000003', 'Grinder noise test', 41, '2024-04-30T18:30:00+00:00', 3_412));
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 2, onlyShorts: true, max: 20 });
    assertItems(VidnetHashtagVideo, videos);
    expect(
      videos.map((v) => [v.video_id, v.is_short, v.duration_seconds, v.published_at, v.stats.views]),
    ).toEqual([
      ['SHORT000001', true, 28, '2024-04-28T10:00:00.000Z', 1104332],
      ['SHORT000002', true, 20, '2024-05-02T08:00:00.000Z', 88123],
      ['SHORT000003', true, 41, '2024-04-30T18:30:00.000Z', 3412],
    ]);
    // the regular videos of the unfiltered first page are not in the result
    expect(videos.map((v) => v.video_id)).not.toContain('dQw4w9WgXcQ');
    agent.assertNoPendingInterceptors();
  });

  it('with only_shorts and depth 1 stops after the filtered first page', async () => {
    const { pool, src } = setup();
    pool.intercept(hashtagBrowse([])).reply(200, fixture(B, 'hashtag-page1'));
    pool
      .intercept(api('browse', (b) => b.continuation === '4qmFsgI_HASHTAG_SHORTS_CHIP'))
      .reply(200, fixture(B, 'hashtag-shorts'));
    pool.intercept(api('player', (b) => b.videoId === 'SHORT000001')).reply(200, fixture(B, 'player-short'));
    pool
      .intercept(api('player', (b) => b.videoId === 'SHORT000002'))
      .reply(200, player('SHORT000002', 'Pour-over in 20 s', 20, '2024-05-02T08:00:00+00:00', 88_123));
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: true, max: 20 });
    expect(videos.map((v) => v.video_id)).toEqual(['SHORT000001', 'SHORT000002']);
  });

  it('reports a page without a Shorts filter as drift when only_shorts is asked', async () => {
    const { pool, src } = setup();
    pool.intercept(hashtagBrowse([])).reply(200, fixture(B, 'hashtag-no-chips'));
    const err = await rejection(src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: true, max: 20 }));
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/no Shorts filter/);
  });
});
