// Success, paging and not-found behaviour of the provider and official backends.
import { describe, expect, it } from 'vitest';
import { ClipnetPost, HashtagPost, PicnetPost, PostComment } from '../../../src/contract/items.js';
import { parseJsonLossless } from '../../../src/sources/http/json.js';
import type { ClipnetSource, PicnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import { ENV } from './cases.js';
import { assertItems, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';
import { RECORDED, RECORDED_NOW } from './recorded.js';

const SK = 'https://api.scrapekit.test';
const RS = 'https://open.tiktokapis.com';
const GR = 'https://graph.facebook.com';
const path = (p: string, q?: (s: URLSearchParams) => boolean) => (x: string) => {
  const u = new URL(x, 'http://h');
  return u.pathname === p && (q ? q(u.searchParams) : true);
};
const make = <T>(platform: 'clipnet' | 'picnet', backend: string, now = FIXED_NOW) => {
  const agent = mockAgent();
  const src = createLiveSource(
    platform,
    backend,
    { ...FAST, ...ENV },
    { dispatcher: agent, now: () => now },
  ) as T;
  return { agent, src };
};

describe('scrapekit (clipnet)', () => {
  it('pages user posts with per-item cursors that continue exactly', async () => {
    const { agent, src } = make<ClipnetSource>('clipnet', 'scrapekit');
    const pool = agent.get(SK);
    pool
      .intercept({ path: path('/v3/tiktok/profile/videos', (q) => !q.has('max_cursor')) })
      .reply(200, fixture('scrapekit', 'tiktok-profile-videos-page1'))
      .persist();
    pool
      .intercept({
        path: path('/v3/tiktok/profile/videos', (q) => q.get('max_cursor') === RECORDED.tiktokMaxCursor),
      })
      .reply(200, fixture('scrapekit', 'tiktok-profile-videos-page2'))
      .persist();
    const p1 = await src.userPosts({ username: 'anastasiyachorna3', limit: 1 });
    expect(p1.hasMore).toBe(true);
    assertItems(
      ClipnetPost,
      p1.items.map((i) => i.item),
    );
    expect(p1.items[0]?.item).toMatchObject({
      id: '6990567184082701573',
      url: 'https://www.tiktok.com/@anastasiyachorna3/video/6990567184082701573',
      stats: { views: 5040, likes: 453, comments: 11, shares: 3 },
    });
    const p2 = await src.userPosts({ username: 'anastasiyachorna3', limit: 1, cursor: p1.items[0]?.cursor });
    expect(p2.items.map((i) => i.item.id)).toEqual(['6932229950720216325']);
    expect(p2.hasMore).toBe(true);
    const p3 = await src.userPosts({ username: 'anastasiyachorna3', limit: 5, cursor: p2.items[0]?.cursor });
    expect(p3.items.map((i) => i.item.id)).toEqual(['6985955634940480773']);
    expect(p3.hasMore).toBe(false);
  });

  it('reads comments and hashtag posts inside the look-back window', async () => {
    const { agent, src } = make<ClipnetSource>('clipnet', 'scrapekit', RECORDED_NOW.tiktokApp);
    // the first page answers without a cursor; its continuation (cursor 40) answers the next
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/video/comments', (q) => !q.has('cursor')) })
      .reply(200, fixture('scrapekit', 'tiktok-video-comments'));
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/video/comments', (q) => q.get('cursor') === '40') })
      .reply(200, fixture('scrapekit', 'tiktok-video-comments-end'));
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/search/hashtag', (q) => !q.has('cursor')) })
      .reply(200, fixture('scrapekit', 'tiktok-search-hashtag'));
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/search/hashtag', (q) => q.get('cursor') === '40') })
      .reply(200, fixture('scrapekit', 'tiktok-search-hashtag-page2'));
    const comments = await src.comments({
      post: { id: '6993829555089706245', form: 'id', input: 'x' },
      limit: 10,
    });
    assertItems(PostComment, comments);
    expect(comments.map((c) => [c.user, c.likes])).toEqual([
      ['@the.king.of.drip', 0],
      ['@xeon_ccl', 0],
    ]);
    const posts = await src.hashtagPosts({ hashtag: 'summer', days: 45, max: 10 });
    assertItems(HashtagPost, posts);
    expect(posts.map((p) => p.profile_name)).toEqual(['raydinc', 'piaopiao34']);
    expect(posts[0]).toMatchObject({ share_count: 932, play_count: 1823449, source_name: 'summer' });
  });

  it('maps 404 to not_found', async () => {
    const { agent, src } = make<ClipnetSource>('clipnet', 'scrapekit');
    agent
      .get(SK)
      .intercept({ path: path('/v3/tiktok/profile/videos') })
      .reply(404, fixture('scrapekit', 'error-not-found'));
    expect((await rejection(src.userPosts({ username: 'nobody', limit: 5 }))).kind).toBe('not_found');
  });
});

describe('scrapekit (picnet)', () => {
  it('pages user posts and maps media types', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'scrapekit');
    const pool = agent.get(SK);
    pool
      .intercept({ path: path('/v2/instagram/user/posts', (q) => !q.has('next_max_id')) })
      .reply(200, fixture('scrapekit', 'instagram-user-posts-page1'));
    pool
      .intercept({
        path: path('/v2/instagram/user/posts', (q) => q.get('next_max_id') === '3312345678901234512_1234567'),
      })
      .reply(200, fixture('scrapekit', 'instagram-user-posts-page2'));
    const page = await src.userPosts({ username: 'brewlab', limit: 10 });
    const posts = page.items.map((i) => i.item);
    assertItems(PicnetPost, posts);
    expect(posts.map((p) => [p.shortcode, p.media_type, p.caption])).toEqual([
      ['C8abcDE1xyz', 'image', 'Latte art no.1 #latteart'],
      ['C8abcDE2xyz', 'carousel', ''],
      ['C8abcDE3xyz', 'video', 'Latte art no.3 #latteart'],
    ]);
    expect(page.hasMore).toBe(false);
  });

  it('reads comments and hashtag posts', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'scrapekit');
    agent
      .get(SK)
      .intercept({ path: path('/v2/instagram/post/comments') })
      .reply(200, fixture('scrapekit', 'instagram-post-comments'));
    agent
      .get(SK)
      .intercept({ path: path('/v2/instagram/hashtag/posts') })
      .reply(200, fixture('scrapekit', 'instagram-hashtag-posts'));
    const comments = await src.comments({
      post: { id: 'C8abcDE1xyz', form: 'id', input: 'C8abcDE1xyz' },
      limit: 5,
    });
    assertItems(PostComment, comments);
    expect(comments[0]?.post_url).toBe('https://www.instagram.com/p/C8abcDE1xyz/');
    const tags = await src.hashtagPosts({ hashtag: 'latteart', days: 3, max: 5 });
    assertItems(HashtagPost, tags);
    expect(tags[0]).not.toHaveProperty('share_count');
  });
});

describe('clipnet-research', () => {
  it('keeps 64-bit ids exact, in results and in the comment request', async () => {
    expect(parseJsonLossless('{"id":7321987654321098765,"n":12,"s":"7321987654321098765 in text"}')).toEqual({
      id: '7321987654321098765',
      n: 12,
      s: '7321987654321098765 in text',
    });
    const { agent, src } = make<ClipnetSource>('clipnet', 'clipnet-research', RECORDED_NOW.research);
    const pool = agent.get(RS);
    let tokenBody = '';
    pool
      .intercept({
        method: 'POST',
        path: '/v2/oauth/token/',
        body: (b) => {
          tokenBody = b;
          return true;
        },
      })
      .reply(200, fixture('clipnet-research', 'token'));
    const bodies: string[] = [];
    pool
      .intercept({
        method: 'POST',
        path: path('/v2/research/video/query/'),
        body: (b) => {
          bodies.push(b);
          return true;
        },
      })
      .reply(200, fixture('clipnet-research', 'video-query-fields'));
    let commentBody = '';
    pool
      .intercept({
        method: 'POST',
        path: path('/v2/research/video/comment/list/'),
        body: (b) => {
          commentBody = b;
          return true;
        },
      })
      .reply(200, fixture('clipnet-research', 'comment-list-docs-example'));
    const page = await src.userPosts({ username: 'avengers_fan', limit: 1 });
    assertItems(
      ClipnetPost,
      page.items.map((i) => i.item),
    );
    // 702874395068494965 is above 2^53: a float64 would have made it 702874395068494976
    expect(page.items.map((i) => i.item.id)).toEqual(['702874395068494965']);
    expect(tokenBody).toContain('grant_type=client_credentials');
    const q = JSON.parse(bodies[0] as string) as { query: unknown; start_date: string; end_date: string };
    expect(q.query).toEqual({
      and: [{ operation: 'EQ', field_name: 'username', field_values: ['avengers_fan'] }],
    });
    expect([q.start_date, q.end_date]).toEqual(['20210913', '20211012']);
    const comments = await src.comments({
      post: { id: '1234563451201523412', form: 'id', input: 'x' },
      limit: 1,
    });
    expect(commentBody).toContain('"video_id":1234563451201523412');
    assertItems(PostComment, comments);
    expect(comments[0]).toMatchObject({ id: '12345616934634134', user: null });
  });

  it('maps rate_limit_exceeded to throttled and refused credentials to upstream', async () => {
    const { agent, src } = make<ClipnetSource>('clipnet', 'clipnet-research');
    agent
      .get(RS)
      .intercept({ method: 'POST', path: '/v2/oauth/token/' })
      .reply(401, fixture('clipnet-research', 'error-invalid-client'));
    const err = await rejection(src.userPosts({ username: 'brewlab', limit: 3 }));
    expect(err.kind).toBe('upstream');
    expect(err.message).toMatch(/client credentials/);
    const b = make<ClipnetSource>('clipnet', 'clipnet-research');
    b.agent
      .get(RS)
      .intercept({ method: 'POST', path: '/v2/oauth/token/' })
      .reply(200, fixture('clipnet-research', 'token'));
    b.agent
      .get(RS)
      .intercept({ method: 'POST', path: path('/v2/research/video/query/') })
      .reply(429, fixture('clipnet-research', 'error-rate-limit'))
      .times(3);
    expect((await rejection(b.src.hashtagPosts({ hashtag: 'coffee', days: 7, max: 5 }))).kind).toBe(
      'throttled',
    );
  });

  it('cannot resolve short links (unsupported, so failover moves on)', async () => {
    const { src } = make<ClipnetSource>('clipnet', 'clipnet-research');
    expect(
      (await rejection(src.comments({ post: { id: 'ZMabc', form: 'shortlink', input: 'x' }, limit: 5 })))
        .kind,
    ).toBe('unsupported');
  });
});

describe('picnet-graph', () => {
  it('pages business discovery media on cursors.after', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'picnet-graph');
    const pool = agent.get(GR);
    const fields: string[] = [];
    pool
      .intercept({
        path: path('/v21.0/17841400000000000', (q) => {
          fields.push(q.get('fields') ?? '');
          return !(q.get('fields') ?? '').includes('.after(');
        }),
      })
      .reply(200, fixture('picnet-graph', 'business-discovery-media-page1'));
    pool
      .intercept({
        path: path('/v21.0/17841400000000000', (q) => (q.get('fields') ?? '').includes('.after(after)')),
      })
      .reply(200, fixture('picnet-graph', 'business-discovery-media-page2'));
    const page = await src.userPosts({ username: 'facebookfordevelopers', limit: 10 });
    expect(fields[0]).toContain('business_discovery.username(facebookfordevelopers)');
    const posts = page.items.map((i) => i.item);
    assertItems(PicnetPost, posts);
    expect(posts.map((p) => [p.shortcode, p.media_type])).toEqual([
      ['CSr71Gzlqo4', 'image'],
      ['CSpNPqgFxE0', 'image'],
      ['CScld93rm4W', 'image'],
      ['CSZsJf-iJLj', 'video'],
    ]);
    expect(page.hasMore).toBe(false);
  });

  it('maps a non-business account to not_found and rate limits to throttled', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'picnet-graph');
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/17841400000000000') })
      .reply(400, fixture('picnet-graph', 'error-not-business'));
    expect((await rejection(src.userPosts({ username: 'nobody', limit: 5 }))).kind).toBe('not_found');
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/17841400000000000') })
      .reply(400, fixture('picnet-graph', 'error-rate-limit'))
      .times(3);
    expect((await rejection(src.userPosts({ username: 'brewlab', limit: 5 }))).kind).toBe('throttled');
  });

  it('searches hashtags, and cannot read comments of other accounts', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'picnet-graph', RECORDED_NOW.graphHashtag);
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/ig_hashtag_search', (q) => q.get('q') === 'developers') })
      .reply(200, fixture('picnet-graph', 'ig-hashtag-search'));
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/17841562426109234/recent_media', (q) => !q.has('after')) })
      .reply(200, fixture('picnet-graph', 'hashtag-media-page1'));
    const posts = await src.hashtagPosts({ hashtag: 'developers', days: 1, max: 2 });
    assertItems(HashtagPost, posts);
    expect(posts.map((p) => p.post_id)).toEqual(['18088158883149835', '17881768807512229']);
    const err = await rejection(
      src.comments({ post: { id: 'CSr71Gzlqo4', form: 'id', input: 'x' }, limit: 5 }),
    );
    expect(err.kind).toBe('unsupported');
    expect(err.message).toBe('the Graph API cannot read comments on posts of other accounts');
  });
});

describe('configuration', () => {
  it('names the missing variable', () => {
    expect(() => createLiveSource('vidnet', 'youtube-data-api', {})).toThrow(
      'VIDNET_SOURCE=youtube-data-api needs YOUTUBE_API_KEY',
    );
    expect(() => createLiveSource('picnet', 'picnet-graph', { PICNET_GRAPH_ACCESS_TOKEN: 'x' })).toThrow(
      'PICNET_SOURCE=picnet-graph needs PICNET_GRAPH_USER_ID',
    );
    expect(() => createLiveSource('clipnet', 'youtubei', {})).toThrow(
      /unknown backend "youtubei" for clipnet/,
    );
    expect(() => createLiveSource('vidnet', 'youtubei', { UPSTREAM_RETRIES: 'many' })).toThrow(
      /UPSTREAM_RETRIES/,
    );
  });
});
