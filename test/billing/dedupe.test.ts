// Targets are deduplicated before pricing: handles, hashtags and keywords compare without case
// (and without a leading @ or #), post URLs by the post they name. A target named several ways is
// fetched once and charged once, under the first spelling the caller gave.
import { afterEach, describe, expect, test } from 'vitest';
import { fakeSources } from '../support/fakes.js';
import { LEDGERS, type LedgerApp, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(LEDGERS)('%s ledger', (kind) => {
  async function app() {
    const sources = fakeSources({ kind: 'live' });
    t = await startAppOn(kind, { credits: 1000, sources });
    return sources;
  }

  test('one hashtag in three spellings is one target: fetched and charged once', async () => {
    const sources = await app();
    const r = await t!.post('/clipnet/hashtag/posts', {
      hashtags: ['OOTD', 'ootd', '#ootd'],
      max_posts_per_hashtag: 5,
    });
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    expect(j.data.hashtags).toEqual(['OOTD']);
    expect(j.data.posts).toHaveLength(5);
    // base 2 + 5 posts
    expect(j.metadata.credits_used).toBe(7);
    expect(sources.calls).toEqual(['hashtag:OOTD']);
    expect(await t!.balance()).toBe(993);
  });

  test('one user in three spellings is one target', async () => {
    const sources = await app();
    const r = await t!.post('/clipnet/bulk/posts', {
      usernames: ['Bob', '@bob', 'BOB'],
      limit_per_user: 2,
    });
    const j = r.json();
    expect(j.data.users).toHaveLength(1);
    expect(j.data.users[0].username).toBe('Bob');
    expect(j.metadata.credits_used).toBe(4);
    expect(sources.calls).toEqual(['userPosts:Bob']);
  });

  test('a missing user named twice is warned about once, as first spelled', async () => {
    await app();
    const r = await t!.post('/clipnet/bulk/posts', {
      usernames: ['alice', 'Nobody', 'nobody'],
      limit_per_user: 1,
    });
    expect(r.json().metadata.warnings.map((w: { target: string }) => w.target)).toEqual(['Nobody']);
  });

  test('keywords compare without case and extra spaces', async () => {
    const sources = await app();
    const r = await t!.post('/vidnet/search', {
      keywords: ['Phone Review', 'phone review', '  PHONE   review '],
      max_posts_per_keyword: 3,
    });
    const j = r.json();
    expect(j.data.keywords).toEqual(['Phone Review']);
    expect(j.metadata.credits_used).toBe(5);
    expect(sources.calls).toEqual(['search:Phone Review']);
  });

  test('one post in three URL forms is one target', async () => {
    const sources = await app();
    const r = await t!.post('/clipnet/comments', {
      post_urls: [
        'https://www.clipnet.com/@someone/video/7123456789012345678',
        '7123456789012345678',
        'https://www.clipnet.com/embed/v/7123456789012345678.html?lang=en',
      ],
      limit_per_post: 4,
    });
    const j = r.json();
    expect(j.data.comments).toHaveLength(4);
    // base 1 + 4 × 0.5
    expect(j.metadata.credits_used).toBe(3);
    expect(sources.calls).toEqual(['comments:7123456789012345678']);
  });

  test('vidnet: watch, short and Shorts links of one video are one target', async () => {
    const sources = await app();
    const r = await t!.post('/vidnet/comments', {
      post_urls: [
        'https://www.vidnet.com/watch?v=dQw4w9WgXcQ',
        'https://vidnet.be/dQw4w9WgXcQ',
        'https://www.vidnet.com/shorts/dQw4w9WgXcQ',
        'dQw4w9WgXcQ',
      ],
      limit_per_post: 2,
    });
    expect(r.json().metadata.credits_used).toBe(2);
    expect(sources.calls).toEqual(['vcomments:dQw4w9WgXcQ']);
  });

  test('different posts and different hashtags stay apart', async () => {
    const sources = await app();
    await t!.post('/picnet/comments', {
      post_urls: ['https://www.picnet.com/p/AbCdEfGhIjK/', 'https://www.picnet.com/p/abcdefghijk/'],
      limit_per_post: 1,
    });
    await t!.post('/picnet/hashtag/posts', { hashtags: ['ootd', 'ootd2'], max_posts_per_hashtag: 1 });
    expect(sources.calls).toEqual([
      'comments:AbCdEfGhIjK',
      'comments:abcdefghijk',
      'hashtag:ootd',
      'hashtag:ootd2',
    ]);
  });
});
