// youtubei hashtag feeds with Shorts: the FEhashtag browse, Shorts completed through /player,
// and the page's "Shorts" chip for only_shorts. No recording has a hashtag feed with Shorts or
// chips (the recorded #martingarrix feed is read in youtubei.test.ts), so these run on the
// hand-written #coffee exchanges (see test/fixtures/live/youtubei/SOURCES.md).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VidnetHashtagVideo } from '../../../src/contract/items.js';
import type { VidnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import { assertItems, FIXED_NOW } from './helpers.js';
import { REPLAY_HTTP, type Replay, startReplay } from './replay.js';

let replay: Replay;
let src: VidnetSource;
beforeAll(async () => {
  replay = await startReplay();
  src = createLiveSource(
    'vidnet',
    'youtubei',
    { ...REPLAY_HTTP, YOUTUBEI_BASE_URL: replay.origin },
    { now: () => FIXED_NOW },
  );
});
afterEach(() => {
  expect(replay.unmatched).toEqual([]);
  replay.reset();
});
afterAll(async () => {
  await replay?.close();
});

describe('youtubei hashtag feed with Shorts', () => {
  it('reads the feed, completing its Short from /player', async () => {
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: false, max: 20 });
    assertItems(VidnetHashtagVideo, videos);
    expect(videos.map((v) => [v.video_id, v.duration_seconds, v.is_short, v.stats.views])).toEqual([
      ['dQw4w9WgXcQ', 751, false, 154302],
      ['9bZkp7q19f0', 45, true, 1200000],
      ['SHORT000001', 28, true, 1104332],
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
    expect(replay.counts()).toEqual({ browse: 1, player: 1 });
    expect(replay.recent()[0]?.body).toEqual({ browseId: 'FEhashtag', params: '6gUKCgZjb2ZmZWUYAQ%3D%3D' });
  });

  it('a Short past max is not completed: no /player call for it', async () => {
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: false, max: 2 });
    expect(videos.map((v) => v.video_id)).toEqual(['dQw4w9WgXcQ', '9bZkp7q19f0']);
    expect(replay.counts()).toEqual({ browse: 1 });
  });

  it('with only_shorts follows the Shorts chip and its continuation, returning Shorts only', async () => {
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 2, onlyShorts: true, max: 20 });
    assertItems(VidnetHashtagVideo, videos);
    expect(
      videos.map((v) => [v.video_id, v.is_short, v.duration_seconds, v.published_at, v.stats.views]),
    ).toEqual([
      ['SHORT000001', true, 28, '2024-04-28T10:00:00.000Z', 1104332],
      ['SHORT000002', true, 20, '2024-05-02T08:00:00.000Z', 88123],
      ['SHORT000003', true, 41, '2024-04-30T18:30:00.000Z', 3412],
    ]);
    // the page, the chip's filtered page, its continuation; one /player per Short
    expect(replay.counts()).toEqual({ browse: 3, player: 3 });
  });

  it('with only_shorts and depth 1 stops after the filtered first page', async () => {
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: true, max: 20 });
    expect(videos.map((v) => v.video_id)).toEqual(['SHORT000001', 'SHORT000002']);
    expect(replay.counts()).toEqual({ browse: 2, player: 2 });
  });

  it('with only_shorts stops once max Shorts are in hand', async () => {
    const videos = await src.hashtag({ hashtag: 'coffee', depth: 5, onlyShorts: true, max: 1 });
    expect(videos.map((v) => v.video_id)).toEqual(['SHORT000001']);
    expect(replay.counts()).toEqual({ browse: 2, player: 1 });
  });
});
