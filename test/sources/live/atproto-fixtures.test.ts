// The atproto fixtures are what the protocol's published lexicons allow an AppView to answer:
// each is validated against the output schema of its XRPC method (@atproto/api's lexicons), so
// that the backend is tested on answers a real AppView may send, not on shapes we imagined.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicons } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { fixtureJson } from './helpers.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/live/atproto');

/** the XRPC method each fixture answers, by its file name */
const METHODS: Array<[RegExp, string]> = [
  [/^get-profile/, 'app.bsky.actor.getProfile'],
  [/^resolve-handle/, 'com.atproto.identity.resolveHandle'],
  [/^get-author-feed/, 'app.bsky.feed.getAuthorFeed'],
  [/^get-post-thread/, 'app.bsky.feed.getPostThread'],
  [/^search-posts/, 'app.bsky.feed.searchPosts'],
  [/^create-session/, 'com.atproto.server.createSession'],
];

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('atproto fixtures', () => {
  it('are all accounted for: an answer of a known method, or an XRPC error body', () => {
    for (const f of files) {
      const method = METHODS.find(([re]) => re.test(f));
      if (method) continue;
      expect(f).toMatch(/^error-/);
      const body = fixtureJson<{ error: unknown; message: unknown }>('atproto', f);
      expect(typeof body.error, f).toBe('string');
      expect(typeof body.message, f).toBe('string');
    }
    expect(files.filter((f) => !f.startsWith('error-')).length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.filter((f) => METHODS.some(([re]) => re.test(f))))(
    '%s is a valid answer of its method',
    (f) => {
      const nsid = METHODS.find(([re]) => re.test(f))![1];
      expect(() => lexicons.assertValidXrpcOutput(nsid, fixtureJson('atproto', f))).not.toThrow();
    },
  );

  it('the check catches an answer no AppView may send', () => {
    const feed = fixtureJson<{ feed: Array<{ post: Record<string, unknown> }> }>(
      'atproto',
      'get-author-feed-page1',
    );
    delete feed.feed[0]!.post.author;
    expect(() => lexicons.assertValidXrpcOutput('app.bsky.feed.getAuthorFeed', feed)).toThrow(/author/);
    const thread = fixtureJson<{ thread: { post: { likeCount: unknown } } }>('atproto', 'get-post-thread');
    thread.thread.post.likeCount = '26';
    expect(() => lexicons.assertValidXrpcOutput('app.bsky.feed.getPostThread', thread)).toThrow(/likeCount/);
  });

  it('cover deleted and blocked replies, a deleted post, missing counts and paging', () => {
    const thread = JSON.stringify(fixtureJson('atproto', 'get-post-thread'));
    expect(thread).toContain('app.bsky.feed.defs#blockedPost');
    expect(thread).toContain('app.bsky.feed.defs#notFoundPost');
    expect(
      fixtureJson<{ thread: { notFound?: boolean } }>('atproto', 'get-post-thread-not-found').thread.notFound,
    ).toBe(true);
    const page2 = fixtureJson<{ feed: Array<{ post: Record<string, unknown> }>; cursor?: string }>(
      'atproto',
      'get-author-feed-page2',
    );
    expect(page2.cursor).toBeUndefined();
    expect(page2.feed.some((f) => f.post.likeCount === undefined)).toBe(true);
    expect(fixtureJson<{ cursor?: string }>('atproto', 'get-author-feed-page1').cursor).toBeTruthy();
    expect(fixtureJson<{ cursor?: string }>('atproto', 'search-posts-page1').cursor).toBe('25');
  });
});
