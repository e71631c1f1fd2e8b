// npm run record:fixtures writes youtubei exchanges the replay server serves: recording the
// replayed upstream and replaying what was written gives the same answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFixtures } from '../../../scripts/record-fixtures.js';
import type { VidnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import { loadExchanges, RECORDED_AT, REPLAY_HTTP, type Replay, startReplay } from './replay.js';

const NOW = () => RECORDED_AT;
const source = (origin: string): VidnetSource =>
  createLiveSource('vidnet', 'youtubei', { ...REPLAY_HTTP, YOUTUBEI_BASE_URL: origin }, { now: NOW });

let upstream: Replay;
let dir: string;
beforeAll(async () => {
  upstream = await startReplay();
  dir = mkdtempSync(join(tmpdir(), 'gleaner-record-'));
});
afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('record:fixtures for youtubei', () => {
  it('writes request and response of every exchange, replayable as recorded', async () => {
    const lines: string[] = [];
    const files = await recordFixtures({
      backends: ['youtubei'],
      env: { ...REPLAY_HTTP, YOUTUBEI_BASE_URL: upstream.origin },
      outDir: dir,
      inputs: {
        keyword: 'test',
        hashtag: 'martingarrix',
        user: 'unused',
        channel: 'UCTwECeGqMZee77BjdoYtI2Q',
        shortsChannel: 'UCh8gHdtzO2tXd593_bjErWg',
        video: 'xaQJbozY_Is',
      },
      log: (l) => lines.push(l),
    });
    // search 2, hashtag 1, comments 2 (the second page is not among the recordings), channel
    // videos 2, channel Shorts 1 + 10 /player
    expect(files).toHaveLength(18);
    expect(files[0]).toMatch(/youtubei\/recorded-vidnet-01-youtubei-v1-search\.json$/);
    const written = loadExchanges(join(dir, 'youtubei'));
    expect(written[0]?.request).toEqual({
      method: 'POST',
      path: '/youtubei/v1/search',
      body: { query: 'test', params: 'EgIQAQ%3D%3D' },
    });
    // the client context (visitor data, client version) is not kept
    expect(written.every((e) => !('context' in e.request.body))).toBe(true);
    // the one failure is the comments page no recording answers
    expect(lines.filter((l) => !l.startsWith('wrote '))).toEqual([
      expect.stringMatching(/^youtubei comments: youtubei comments: HTTP 418/),
    ]);

    const again = await startReplay(written);
    try {
      const [a, b] = [source(upstream.origin), source(again.origin)];
      const q = { keyword: 'test', max: 40, depth: 2, period: 'all' as const, sorting: 'relevance' as const };
      expect(await b.search(q)).toEqual(await a.search(q));
      const c = { browseId: 'UCTwECeGqMZee77BjdoYtI2Q', depth: 2, max: 40 };
      expect(await b.channelVideos(c)).toEqual(await a.channelVideos(c));
      const s = { browseId: 'UCh8gHdtzO2tXd593_bjErWg', max: 10 };
      expect(await b.channelShorts(s)).toEqual(await a.channelShorts(s));
      const h = { hashtag: 'martingarrix', depth: 1, onlyShorts: false, max: 20 };
      expect(await b.hashtag(h)).toEqual(await a.hashtag(h));
      const video = { id: 'xaQJbozY_Is', form: 'id' as const, input: 'xaQJbozY_Is' };
      expect(await b.comments({ video, limit: 6 })).toEqual(await a.comments({ video, limit: 6 }));
      expect(again.unmatched).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
