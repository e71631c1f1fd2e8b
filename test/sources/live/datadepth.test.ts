// The datadepth provider on all three platforms: success, paging with its own cursor styles,
// not found, its token error, and what it cannot do. The shared failure matrix (429, 5xx,
// timeouts, truncated JSON, drift, redaction) runs its operations through failures.test.ts.
import { describe, expect, it } from 'vitest';
import {
  ClipnetPost,
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetVideo,
} from '../../../src/contract/items.js';
import type { ClipnetSource, PicnetSource, VidnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import { shortcodeToMediaId } from '../../../src/sources/providers/shapes/picnet-media.js';
import { ENV, SECRETS } from './cases.js';
import { assertItems, captureLogger, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';
import { RECORDED, RECORDED_NOW } from './recorded.js';

const ORIGIN = 'https://api.datadepth.test';
const B = 'datadepth';
const TOKEN = SECRETS.DATADEPTH_TOKEN;

function make<T>(platform: 'clipnet' | 'picnet' | 'vidnet', now = FIXED_NOW) {
  const agent = mockAgent();
  const { logger, lines } = captureLogger();
  const src = createLiveSource(
    platform,
    B,
    { ...FAST, ...ENV },
    { dispatcher: agent, logger, now: () => now },
  ) as unknown as T;
  return { agent, pool: agent.get(ORIGIN), src, lines };
}

/** matches a GET on /apis<path>, optionally only when `when` holds on its query */
function on(path: string, when?: (q: URLSearchParams) => boolean) {
  return {
    method: 'GET',
    path: (p: string) => {
      const u = new URL(p, ORIGIN);
      return u.pathname === `/apis${path}` && (when ? when(u.searchParams) : true);
    },
  };
}

/** a reply that records the query of each request it answers */
function answer(body: string, seen: URLSearchParams[] = [], statusCode = 200) {
  return (opts: { path: string }) => {
    seen.push(new URL(opts.path, ORIGIN).searchParams);
    return { statusCode, data: body };
  };
}

const ref = (id: string, form: 'id' | 'shortlink' = 'id') => ({ id, form, input: id });

describe('datadepth (clipnet)', () => {
  it('pages user posts by start_cursor with per-item cursors, sending the token as a query parameter', async () => {
    const { pool, src } = make<ClipnetSource>('clipnet');
    const first: URLSearchParams[] = [];
    const second: URLSearchParams[] = [];
    pool
      .intercept(on('/tt/user/posts', (q) => !q.has('start_cursor')))
      .reply(answer(fixture(B, 'tt-user-posts-page1'), first))
      .persist();
    pool
      .intercept(on('/tt/user/posts', (q) => q.get('start_cursor') === RECORDED.tiktokMaxCursor))
      .reply(answer(fixture(B, 'tt-user-posts-page2'), second))
      .persist();
    const p1 = await src.userPosts({ username: 'anastasiyachorna3', limit: 1 });
    expect(first[0]?.get('token')).toBe(TOKEN);
    expect(first[0]?.get('username')).toBe('anastasiyachorna3');
    expect(first[0]?.get('depth')).toBe('1');
    expect(p1.hasMore).toBe(true);
    assertItems(
      ClipnetPost,
      p1.items.map((i) => i.item),
    );
    expect(p1.items[0]?.item).toEqual({
      id: '6990567184082701573',
      caption: expect.stringMatching(/^Summer in bora bora #borabora/),
      url: 'https://www.tiktok.com/@anastasiyachorna3/video/6990567184082701573',
      timestamp: '2021-07-30T04:10:58.000Z',
      stats: { views: 5040, likes: 453, comments: 11, shares: 3 },
    });
    // continues right after the first item: page 2, then the end
    const p2 = await src.userPosts({ username: 'anastasiyachorna3', limit: 10, cursor: p1.items[0]?.cursor });
    expect(p2.items.map((i) => i.item.id)).toEqual(['6932229950720216325', '6985955634940480773']);
    expect(p2.hasMore).toBe(false);
    expect(second).toHaveLength(1);
  });

  it('reads comments across nextCursor pages; cannot resolve short links', async () => {
    const { pool, src } = make<ClipnetSource>('clipnet');
    const seen: URLSearchParams[] = [];
    pool
      .intercept(on('/tt/post/comments', (q) => !q.has('cursor')))
      .reply(answer(fixture(B, 'tt-post-comments-page1'), seen));
    pool
      .intercept(on('/tt/post/comments', (q) => q.get('cursor') === '1'))
      .reply(answer(fixture(B, 'tt-post-comments-page2'), seen));
    const comments = await src.comments({ post: ref('6993829555089706245'), limit: 10 });
    assertItems(PostComment, comments);
    expect(seen[0]?.get('aweme_id')).toBe('6993829555089706245');
    expect(comments.map((c) => [c.id, c.user, c.likes])).toEqual([
      ['6996843253702542081', '@the.king.of.drip', 0],
      ['6996897023341953798', '@xeon_ccl', 0],
    ]);
    expect(comments[0]?.post_url).toBe('https://www.tiktok.com/@/video/6993829555089706245');
    const err = await rejection(src.comments({ post: ref('ZMabc12', 'shortlink'), limit: 5 }));
    expect(err.kind).toBe('unsupported');
  });

  it('reads hashtag posts page by page, keeping only the look-back window', async () => {
    const { pool, src } = make<ClipnetSource>('clipnet', RECORDED_NOW.tiktokApp);
    const seen: URLSearchParams[] = [];
    pool
      .intercept(on('/tt/hashtag/posts', (q) => !q.has('cursor')))
      .reply(answer(fixture(B, 'tt-hashtag-posts'), seen));
    pool
      .intercept(on('/tt/hashtag/posts', (q) => q.get('cursor') === '20'))
      .reply(answer(fixture(B, 'tt-hashtag-posts-page2'), seen));
    pool
      .intercept(on('/tt/hashtag/posts', (q) => q.get('cursor') === '40'))
      .reply(answer(fixture(B, 'tt-hashtag-posts-end'), seen));
    const posts = await src.hashtagPosts({ hashtag: 'summer', days: 45, max: 50 });
    assertItems(HashtagPost, posts);
    expect(seen.map((q) => q.get('name'))).toEqual(['summer', 'summer', 'summer']);
    // the 2020 and February posts are outside the 45-day window
    expect(posts.map((p) => p.profile_name)).toEqual(['raydinc', 'piaopiao34']);
    expect(posts[0]).toMatchObject({
      post_id: '6992456889573379334',
      post_time: '1628058242',
      profile_id: '6895578589849879558',
      reaction_count: 319879,
      share_count: 932,
      play_count: 1823449,
      comment_count: 1626,
      source_name: 'summer',
    });
  });

  it('maps 404 to not_found and its token error to upstream, never echoing the token', async () => {
    const { pool, src, lines } = make<ClipnetSource>('clipnet');
    pool.intercept(on('/tt/user/posts')).reply(404, fixture(B, 'error-not-found'));
    const nf = await rejection(src.userPosts({ username: 'nobody', limit: 5 }));
    expect(nf.kind).toBe('not_found');
    expect(nf.message).toContain('User not found');
    pool.intercept(on('/tt/user/posts')).reply(491, JSON.stringify({ detail: `Token not found: ${TOKEN}` }));
    const bad = await rejection(src.userPosts({ username: 'brewlab', limit: 5 }));
    expect(bad.kind).toBe('upstream');
    expect(bad.message).toMatch(/rejected our token/);
    expect(bad.message + lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).toContain('token=[redacted]');
  });

  it('reports a page of renamed items as schema drift', async () => {
    const { pool, src } = make<ClipnetSource>('clipnet');
    pool.intercept(on('/tt/user/posts')).reply(200, fixture(B, 'tt-user-posts-drift'));
    const err = await rejection(src.userPosts({ username: 'brewlab', limit: 5 }));
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/sent 1 post item\(s\) of which none could be read: .*\(\/aweme_id/);
  });
});

describe('datadepth (picnet)', () => {
  it('resolves a username once, pages by last_cursor, and reads the web item shape', async () => {
    const { pool, src } = make<PicnetSource>('picnet');
    const info: URLSearchParams[] = [];
    const posts: URLSearchParams[] = [];
    pool
      .intercept(on('/instagram/user/info'))
      .reply(answer(fixture(B, 'ig-user-info'), info))
      .persist();
    pool
      .intercept(on('/instagram/user/posts', (q) => !q.has('start_cursor')))
      .reply(answer(fixture(B, 'ig-user-posts-page1'), posts))
      .persist();
    pool
      .intercept(on('/instagram/user/posts', (q) => q.get('start_cursor') === RECORDED.igEndCursor))
      .reply(answer(fixture(B, 'ig-user-posts-page2'), posts))
      .persist();
    const p1 = await src.userPosts({ username: 'brewlab', limit: 3 });
    expect(info[0]?.get('username')).toBe('brewlab');
    expect(posts[0]?.get('user_id')).toBe('5471203390');
    expect(p1.hasMore).toBe(true);
    const p2 = await src.userPosts({ username: 'brewlab', limit: 5, cursor: p1.items[2]?.cursor });
    // the continuation carries the resolved id: no second user/info request
    expect(info).toHaveLength(1);
    expect(posts[1]?.get('user_id')).toBe('5471203390');
    expect(p2.hasMore).toBe(false);
    const all = [...p1.items, ...p2.items].map((i) => i.item);
    assertItems(PicnetPost, all);
    expect(all.map((p) => [p.shortcode, p.media_type, p.stats.likes, p.stats.comments])).toEqual([
      ['B3t1oKioRZ3', 'image', 2, 1],
      ['B3t0VA-ouke', 'carousel', 0, 0],
      ['B3tlkm-ih3Q', 'video', 2, 0],
      ['B3t1I8GIaEJ', 'image', 1, 0],
      ['B3tzN-uojar', 'image', 1, 0],
    ]);
    expect(all[0]).toMatchObject({
      id: '2156615653142894199',
      url: 'https://www.instagram.com/p/B3t1oKioRZ3/',
      timestamp: '2019-10-17T10:37:21.000Z',
      caption: expect.stringMatching(/^Brochette de saumon/),
    });
  });

  it('reports a hidden like count as null and a missing caption as empty', async () => {
    const { pool, src } = make<PicnetSource>('picnet');
    pool.intercept(on('/instagram/user/posts')).reply(200, fixture(B, 'ig-user-posts-hidden-likes'));
    const page = await src.userPosts({ username: '5471203390', limit: 5 });
    expect(page.items.map((i) => [i.item.caption, i.item.stats])).toEqual([
      ['', { likes: null, comments: 3 }],
    ]);
  });

  it('treats a private or unknown account as not found', async () => {
    const { pool, src } = make<PicnetSource>('picnet');
    pool.intercept(on('/instagram/user/info')).reply(200, fixture(B, 'ig-user-info-private'));
    expect((await rejection(src.userPosts({ username: 'quietbrews', limit: 5 }))).kind).toBe('not_found');
    pool.intercept(on('/instagram/user/info')).reply(404, fixture(B, 'error-not-found'));
    expect((await rejection(src.userPosts({ username: 'nobody_zz', limit: 5 }))).kind).toBe('not_found');
  });

  it('reads comments by the media id computed from the shortcode', async () => {
    const { pool, src } = make<PicnetSource>('picnet');
    const seen: URLSearchParams[] = [];
    pool.intercept(on('/instagram/post/comments')).reply(answer(fixture(B, 'ig-post-comments'), seen));
    const comments = await src.comments({ post: ref('C6ddA1Bq2xY'), limit: 10 });
    expect(seen[0]?.get('media_id')).toBe(shortcodeToMediaId('C6ddA1Bq2xY'));
    expect(seen[0]?.get('media_id')).toBe('3358968497373408344');
    assertItems(PostComment, comments);
    expect(comments.map((c) => [c.user, c.likes, c.timestamp])).toEqual([
      ['@beanhunter', 5, '2024-05-03T08:30:00.000Z'],
      ['@milkfoam', 0, '2024-05-03T08:46:40.000Z'],
    ]);
    expect(comments[0]?.post_url).toBe('https://www.instagram.com/p/C6ddA1Bq2xY/');
  });

  it('reads hashtag posts: top and recent merged once, old ones dropped, unnamed authors null', async () => {
    const { pool, src } = make<PicnetSource>('picnet', RECORDED_NOW.instagramWeb);
    const seen: URLSearchParams[] = [];
    pool.intercept(on('/instagram/hashtag/posts')).reply(answer(fixture(B, 'ig-hashtag-posts'), seen));
    const posts = await src.hashtagPosts({ hashtag: 'riz', days: 2, max: 3 });
    expect(seen[0]?.get('name')).toBe('riz');
    expect(seen[0]?.get('get_author_info')).toBe('true');
    assertItems(HashtagPost, posts);
    // the second top post is three days old; the recorded owners carry no username
    expect(posts.map((p) => [p.post_id, p.profile_id, p.profile_name, p.reaction_count])).toEqual([
      ['2156144858363506831', '3170252690', null, 766],
      ['2156615653142894199', '1938287349', null, 2],
      ['2156613507328614665', '501427133', null, 1],
    ]);
    expect(posts[0]).not.toHaveProperty('share_count');
  });
});

describe('datadepth (vidnet search)', () => {
  it('emulates date sorting over the whole depth, mapping period and sorting', async () => {
    const { pool, src } = make<VidnetSource>('vidnet');
    const seen: URLSearchParams[] = [];
    pool
      .intercept(on('/youtube/search', (q) => !q.has('start_cursor')))
      .reply(answer(fixture(B, 'yt-search-page1'), seen));
    pool
      .intercept(on('/youtube/search', (q) => q.get('start_cursor') === RECORDED.ytSearchContinuation))
      .reply(answer(fixture(B, 'yt-search-page2'), seen));
    const res = await src.search({ keyword: 'coffee', max: 2, depth: 5, period: 'all', sorting: 'date' });
    expect(seen.map((q) => [q.get('keyword'), q.get('period'), q.get('sorting'), q.get('depth')])).toEqual([
      ['coffee', 'overall', 'time', '1'],
      ['coffee', 'overall', 'time', '1'],
    ]);
    expect(res.sortingApplied).toBe('emulated');
    assertItems(VidnetVideo, res.videos);
    // "4 hours ago" and "Streamed 5 hours ago" are the newest of both pages
    expect(res.videos.map((v) => v.video_id)).toEqual(['waLptFFtlZY', 'JOHUZMTdgBY']);
    expect(res.videos[0]).toMatchObject({
      title: 'Iran Claims an Intercontinental Missile Test — Is the World on Alert?',
      channel_id: 'UCbvmSdjisYNorshswOaD1_A',
      channel_title: 'WarPulse Media',
      published_at: '2024-05-03T08:00:00.000Z',
      stats: { views: 2639, likes: null, comments: null },
      source_keyword: 'coffee',
    });
    expect(res.videos[0]?.description).toMatch(/^Iran has claimed a test/);
  });

  it('keeps relevance native and stops reading once it has enough', async () => {
    const { pool, src, agent } = make<VidnetSource>('vidnet');
    const seen: URLSearchParams[] = [];
    pool.intercept(on('/youtube/search')).reply(answer(fixture(B, 'yt-search-page1'), seen));
    const res = await src.search({
      keyword: 'coffee',
      max: 2,
      depth: 5,
      period: 'week',
      sorting: 'relevance',
    });
    expect(res.sortingApplied).toBe('native');
    expect(res.videos.map((v) => [v.video_id, v.stats.views])).toEqual([
      ['Z8KYabgkMbw', 390201],
      ['0YWt4Ai8q_g', 594076],
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.get('period')).toBe('week');
    agent.assertNoPendingInterceptors();
  });

  it('reports an item that is no renderer as drift, and offers nothing but search', async () => {
    const { pool, src } = make<VidnetSource>('vidnet');
    pool
      .intercept(on('/youtube/search'))
      .reply(200, JSON.stringify({ data: { posts: [{ video: { id: 'x' } }], nextCursor: null } }));
    const err = await rejection(
      src.search({ keyword: 'coffee', max: 2, depth: 1, period: 'week', sorting: 'relevance' }),
    );
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/schema drift/);
    for (const call of [
      () => src.hashtag({ hashtag: 'coffee', depth: 1, onlyShorts: false, max: 5 }),
      () => src.comments({ video: ref('dQw4w9WgXcQ'), limit: 5 }),
      () => src.channelVideos({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', depth: 1, max: 5 }),
      () => src.channelShorts({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', max: 5 }),
    ]) {
      const e = await rejection(call());
      expect(e.kind).toBe('unsupported');
      expect(e.message).toMatch(/keyword search only/);
    }
  });
});

describe('datadepth configuration', () => {
  it('names the missing variable for every platform', () => {
    for (const p of ['clipnet', 'picnet', 'vidnet'] as const) {
      expect(() => createLiveSource(p, B, { DATADEPTH_TOKEN: 'x' })).toThrow(
        `${p.toUpperCase()}_SOURCE=datadepth needs DATADEPTH_BASE_URL`,
      );
    }
  });
});
