// npm run check:live and npm run record:fixtures on the atproto backend, offline: against the
// AppView stand-in, configured as the server is configured (BLIPNET_SOURCE, ATPROTO_*).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lexicons } from '@atproto/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLive, failed } from '../../../scripts/check-live.js';
import { recordFixtures } from '../../../scripts/record-fixtures.js';
import { ATPROTO, atprotoRoutes } from './atproto-routes.js';
import { REPLAY_HTTP } from './replay.js';
import { type Stub, startStub } from './stub.js';

const INPUTS = {
  keyword: 'bluesky',
  hashtag: 'coffee',
  user: 'unused',
  channel: 'unused',
  video: 'unused',
  blipnetUser: ATPROTO.profileHandle,
};

let stub: Stub;
let dir: string;
beforeAll(async () => {
  stub = await startStub(atprotoRoutes(() => new Date()));
  dir = mkdtempSync(join(tmpdir(), 'gleaner-record-atproto-'));
});
afterAll(async () => {
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('check:live on atproto', () => {
  it('calls each blipnet operation once with small limits, each OK with its item count', async () => {
    const results = await checkLive(
      { ...REPLAY_HTTP, BLIPNET_SOURCE: 'atproto', ATPROTO_APPVIEW_URL: stub.origin },
      {
        ...INPUTS,
        blipnetPost: `https://bsky.app/profile/${ATPROTO.threadHandle}/post/${ATPROTO.threadRkey}`,
      },
    );
    expect(results.map((r) => [r.status, r.platform, r.backend, r.operation, r.items])).toEqual([
      ['OK', 'blipnet', 'atproto', 'userPosts', 5],
      ['OK', 'blipnet', 'atproto', 'replies', 3],
      ['OK', 'blipnet', 'atproto', 'search', 4],
      ['OK', 'blipnet', 'atproto', 'hashtagPosts', 1],
    ]);
    expect(failed(results)).toBe(false);
  });

  it('reports a refused search and an unknown account as failures to look at', async () => {
    const results = await checkLive(
      { ...REPLAY_HTTP, BLIPNET_SOURCE: 'atproto', ATPROTO_APPVIEW_URL: stub.origin },
      { ...INPUTS, keyword: 'forbidden', blipnetUser: 'nobody.bsky.social' },
    );
    expect(results.map((r) => [r.status, r.operation])).toEqual([
      ['FAIL', 'userPosts'],
      ['N/A', 'replies'],
      ['N/A', 'search'],
      ['OK', 'hashtagPosts'],
    ]);
    expect(results[0]!.detail).toMatch(/^not_found: .*Profile not found/);
    expect(failed(results)).toBe(true);
  });
});

describe('record:fixtures on atproto', () => {
  it('writes what the AppView answers, signed in, without the password or the session tokens', async () => {
    const lines: string[] = [];
    const files = await recordFixtures({
      backends: ['atproto'],
      env: {
        ...REPLAY_HTTP,
        ATPROTO_PDS_URL: stub.origin,
        ATPROTO_IDENTIFIER: ATPROTO.profileHandle,
        ATPROTO_APP_PASSWORD: ATPROTO.appPassword,
      },
      outDir: dir,
      inputs: {
        ...INPUTS,
        post: `https://bsky.app/profile/${ATPROTO.threadHandle}/post/${ATPROTO.threadRkey}`,
      },
      log: (l) => lines.push(l),
    });
    expect(lines.filter((l) => !l.startsWith('wrote '))).toEqual([]);
    const names = readdirSync(join(dir, 'atproto')).sort();
    expect(names).toEqual([
      'recorded-blipnet-01-xrpc-com-atproto-server-createSession.json',
      'recorded-blipnet-02-xrpc-app-bsky-actor-getProfile.json',
      'recorded-blipnet-03-xrpc-app-bsky-feed-getAuthorFeed.json',
      'recorded-blipnet-04-xrpc-app-bsky-feed-getAuthorFeed.json',
      'recorded-blipnet-05-xrpc-com-atproto-identity-resolveHandle.json',
      'recorded-blipnet-06-xrpc-app-bsky-feed-getPostThread.json',
      'recorded-blipnet-07-xrpc-app-bsky-feed-searchPosts.json',
      'recorded-blipnet-08-xrpc-app-bsky-feed-searchPosts.json',
      'recorded-blipnet-09-xrpc-app-bsky-feed-searchPosts.json',
    ]);
    expect(files).toHaveLength(names.length);
    const session = readFileSync(join(dir, 'atproto', names[0]!), 'utf8');
    expect(session).not.toMatch(/eyJ0eXAi/);
    expect(session).toContain('"accessJwt":"[redacted]"');
    for (const f of names.slice(1)) {
      const text = readFileSync(join(dir, 'atproto', f), 'utf8');
      expect(text).not.toContain(ATPROTO.appPassword);
      const nsid = f
        .replace(/^recorded-blipnet-\d+-xrpc-/, '')
        .replace(/\.json$/, '')
        .replace(/-/g, '.');
      // what was recorded is what a test can use: valid answers of their methods
      expect(() => lexicons.assertValidXrpcOutput(nsid, JSON.parse(text)), f).not.toThrow();
    }
  });
});
