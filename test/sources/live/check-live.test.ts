// npm run check:live, offline: the canary against the youtubei replay server (recorded
// answers), against the provider stub for the other backends (configured as the server is),
// and against upstreams that drifted or fail.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckInputs,
  type CheckResult,
  checkLive,
  failed,
  formatResult,
} from '../../../scripts/check-live.js';
import { GRAPH_USER_ID, RECORDED_NOW } from './recorded.js';
import {
  channelGrid,
  RECORDED_AT,
  REPLAY_HTTP,
  type Replay,
  startChangedReplay,
  startReplay,
} from './replay.js';
import { fixtureRoutes, type Stub, startStub } from './stub.js';

const RECORDED_INPUTS: CheckInputs = {
  keyword: 'test',
  hashtag: 'martingarrix',
  user: 'brewlab',
  channel: 'UCTwECeGqMZee77BjdoYtI2Q',
  shortsChannel: 'UCh8gHdtzO2tXd593_bjErWg',
  video: 'xaQJbozY_Is',
};
const NOW = () => RECORDED_AT;
const lines = (rs: CheckResult[]) => rs.map((r) => [r.status, r.backend, r.operation, r.items]);

let replay: Replay;
let stub: Stub;
let broken: Stub;
beforeAll(async () => {
  replay = await startReplay();
  stub = await startStub(fixtureRoutes);
  broken = await startStub(() => ({ status: 503, body: '{"error":{"message":"backend error"}}' }));
});
afterAll(async () => {
  await replay?.close();
  await stub?.close();
  await broken?.close();
});

describe('check:live', () => {
  it('youtubei: one call per operation with small limits, each OK with its item count', async () => {
    replay.reset();
    const results = await checkLive(
      { ...REPLAY_HTTP, VIDNET_SOURCE: 'youtubei', YOUTUBEI_BASE_URL: replay.origin },
      RECORDED_INPUTS,
      { now: NOW },
    );
    expect(lines(results)).toEqual([
      ['OK', 'youtubei', 'search', 5],
      ['OK', 'youtubei', 'hashtag', 5],
      ['OK', 'youtubei', 'comments', 5],
      ['OK', 'youtubei', 'channelVideos', 5],
      ['OK', 'youtubei', 'channelShorts', 3],
    ]);
    expect(failed(results)).toBe(false);
    expect(formatResult(results[0]!)).toBe('OK     vidnet youtubei search "test": 5 items');
    // sandbox platforms are not checked; each operation cost what its limit needs
    expect(replay.counts()).toEqual({ search: 1, browse: 3, next: 1, player: 3 });
    expect(replay.unmatched).toEqual([]);
  });

  it('every other live backend through its own configuration', async () => {
    const env = {
      ...REPLAY_HTTP,
      SCRAPEKIT_BASE_URL: stub.origin,
      SCRAPEKIT_API_KEY: 'test-key',
      DATADEPTH_BASE_URL: `${stub.origin}/apis`,
      DATADEPTH_TOKEN: 'test-token',
      PICNET_GRAPH_BASE_URL: `${stub.origin}/graph`,
      PICNET_GRAPH_ACCESS_TOKEN: 'test-graph-token',
      PICNET_GRAPH_USER_ID: GRAPH_USER_ID,
    };
    const inputs = { ...RECORDED_INPUTS, hashtag: 'coffee' };
    // each family of recordings has its own "now" (look-back windows keep their items)
    // two days after the newest post of the recorded hashtag feed (2021-08-04)
    const app = await checkLive({ ...env, CLIPNET_SOURCE: 'scrapekit', VIDNET_SOURCE: 'datadepth' }, inputs, {
      now: () => new Date('2021-08-06T00:00:00Z'),
    });
    const graph = await checkLive({ ...env, PICNET_SOURCE: 'picnet-graph' }, inputs, {
      now: () => RECORDED_NOW.graphHashtag,
    });
    const results = [...app, ...graph];
    expect(results.map((r) => `${r.status} ${r.platform} ${r.backend} ${r.operation}`)).toEqual([
      'OK clipnet scrapekit userPosts',
      'OK clipnet scrapekit hashtagPosts',
      'OK clipnet scrapekit comments',
      'OK vidnet datadepth search',
      // datadepth serves vidnet keyword search only: not offered, not a failure
      'N/A vidnet datadepth hashtag',
      'N/A vidnet datadepth comments',
      'N/A vidnet datadepth channelVideos',
      'N/A vidnet datadepth channelShorts',
      'OK picnet picnet-graph userPosts',
      'OK picnet picnet-graph hashtagPosts',
      // the Graph API cannot read comments
      'N/A picnet picnet-graph comments',
    ]);
    expect(results.every((r) => r.status !== 'OK' || r.items > 0)).toBe(true);
    expect(failed(results)).toBe(false);
    expect(stub.unmatched).toEqual([]);
  });

  it('names an operation whose answer drifted, with the count of items left out', async () => {
    const changed = await startChangedReplay('channel-videos-page1', (body) => {
      delete channelGrid(body)[0].richItemRenderer.content.lockupViewModel.metadata;
    });
    try {
      const results = await checkLive(
        { ...REPLAY_HTTP, VIDNET_SOURCE: 'youtubei', YOUTUBEI_BASE_URL: changed.origin },
        RECORDED_INPUTS,
        { now: NOW },
      );
      const drifted = results.find((r) => r.operation === 'channelVideos')!;
      expect(drifted).toMatchObject({ status: 'DRIFT', items: 5, skipped: 1 });
      expect(formatResult(drifted)).toMatch(
        /^DRIFT {2}vidnet youtubei channelVideos UCTwECeGqMZee77BjdoYtI2Q: 5 items, 1 video item\(s\) skipped \(layout changed\): youtubei changed the shape of a video item/,
      );
      expect(failed(results)).toBe(true);
    } finally {
      await changed.close();
    }
  });

  it('the command exits 1 and names each failed operation with its error kind', async () => {
    const run = promisify(execFile);
    const err = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/check-live.ts', '--keyword', 'test'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          VIDNET_SOURCE: 'youtubei',
          YOUTUBEI_BASE_URL: broken.origin,
          UPSTREAM_RETRIES: '0',
          UPSTREAM_BREAKER_THRESHOLD: '100',
        },
      },
    ).then(
      () => undefined,
      (e: { code?: number; stdout?: string }) => e,
    );
    expect(err?.code).toBe(1);
    const out = (err?.stdout ?? '').split('\n');
    expect(out[0]).toMatch(/^FAIL {3}vidnet youtubei search "test": upstream: youtubei search: HTTP 503/);
    expect(out.filter((l) => l.startsWith('FAIL'))).toHaveLength(5);
    expect(out).toContain('0 of 5 operations OK or not offered; 5 to look at');
  }, 30_000);
});
