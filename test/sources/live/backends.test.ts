// Success, paging and not-found behaviour of the provider and official backends.
import { describe, expect, it } from 'vitest';
import { ClipnetPost, HashtagPost, PicnetPost, PostComment } from '../../../src/contract/items.js';
import { parseJsonLossless } from '../../../src/sources/http/json.js';
import type { ClipnetSource, PicnetSource } from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/live/index.js';
import { ENV } from './cases.js';
import { assertItems, FAST, FIXED_NOW, fixture, mockAgent, rejection } from './helpers.js';

const SK = 'https://api.scrapekit.test';
const RS = 'https://open.tiktokapis.com';
const GR = 'https://graph.facebook.com';
const path = (p: string, q?: (s: URLSearchParams) => boolean) => (x: string) => {
  const u = new URL(x, 'http://h');
  return u.pathname === p && (q ? q(u.searchParams) : true);
};
const make = <T>(platform: 'clipnet' | 'picnet', backend: string) => {
  const agent = mockAgent();
  const src = createLiveSource(
    platform,
    backend,
    { ...FAST, ...ENV },
    { dispatcher: agent, now: () => FIXED_NOW },
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
      .intercept({ path: path('/v3/tiktok/profile/videos', (q) => q.get('max_cursor') === '1714730000000') })
      .reply(200, fixture('scrapekit', 'tiktok-profile-videos-page2'))
      .persist();
    const p1 = await src.userPosts({ username: 'brewlab', limit: 1 });
    expect(p1.hasMore).toBe(true);
    assertItems(
      ClipnetPost,
      p1.items.map((i) => i.item),
    );
    expect(p1.items[0]?.item).toMatchObject({
      id: '7321987654321098761',
      url: 'https://www.tiktok.com/@brewlab/video/7321987654321098761',
      stats: { views: 1005, likes: 100, comments: 10, shares: 1 },
    });
    const p2 = await src.userPosts({ username: 'brewlab', limit: 5, cursor: p1.items[0]?.cursor });
    expect(p2.items.map((i) => i.item.id)).toEqual(['7321987654321098762', '7321987654321098763']);
    expect(p2.hasMore).toBe(false);
  });

  it('reads comments and hashtag posts inside the look-back window', async () => {
    const { agent, src } = make<ClipnetSource>('clipnet', 'scrapekit');
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/video/comments') })
      .reply(200, fixture('scrapekit', 'tiktok-video-comments'));
    agent
      .get(SK)
      .intercept({ path: path('/v1/tiktok/search/hashtag') })
      .reply(200, fixture('scrapekit', 'tiktok-search-hashtag'));
    const comments = await src.comments({
      post: { id: '7321987654321098761', form: 'id', input: 'x' },
      limit: 10,
    });
    assertItems(PostComment, comments);
    expect(comments[0]).toMatchObject({ user: '@maria_brews', likes: 4 });
    const posts = await src.hashtagPosts({ hashtag: 'coffee', days: 7, max: 10 });
    assertItems(HashtagPost, posts);
    expect(posts.map((p) => p.profile_name)).toEqual(['foamstudio']);
    expect(posts[0]).toMatchObject({ share_count: 4, play_count: 4005, source_name: 'coffee' });
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
    const { agent, src } = make<ClipnetSource>('clipnet', 'clipnet-research');
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
          return !b.includes('search_id');
        },
      })
      .reply(200, fixture('clipnet-research', 'video-query-page1'));
    pool
      .intercept({
        method: 'POST',
        path: path('/v2/research/video/query/'),
        body: (b) => b.includes('"search_id":"7322000000000000001"') && b.includes('"cursor":2'),
      })
      .reply(200, fixture('clipnet-research', 'video-query-page2'));
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
      .reply(200, fixture('clipnet-research', 'comment-list'));
    const page = await src.userPosts({ username: 'brewlab', limit: 3 });
    assertItems(
      ClipnetPost,
      page.items.map((i) => i.item),
    );
    expect(page.items.map((i) => i.item.id)).toEqual([
      '7321987654321098765',
      '7321987654321098799',
      '7321987654321098001',
    ]);
    expect(tokenBody).toContain('grant_type=client_credentials');
    const q = JSON.parse(bodies[0] as string) as { query: unknown; start_date: string; end_date: string };
    expect(q.query).toEqual({
      and: [{ operation: 'EQ', field_name: 'username', field_values: ['brewlab'] }],
    });
    expect([q.start_date, q.end_date]).toEqual(['20240404', '20240503']);
    const comments = await src.comments({
      post: { id: '7321987654321098765', form: 'id', input: 'x' },
      limit: 5,
    });
    expect(commentBody).toContain('"video_id":7321987654321098765');
    assertItems(PostComment, comments);
    expect(comments[0]).toMatchObject({ id: '7321999999999999123', user: null });
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
  it('pages business discovery media', async () => {
    const { agent, src } = make<PicnetSource>('picnet', 'picnet-graph');
    const pool = agent.get(GR);
    let fields = '';
    pool
      .intercept({
        path: path('/v21.0/17841400000000000', (q) => {
          if ((q.get('fields') ?? '').includes('.after(')) return false;
          fields = q.get('fields') ?? '';
          return true;
        }),
      })
      .reply(200, fixture('picnet-graph', 'business-discovery-page1'));
    pool
      .intercept({
        path: path('/v21.0/17841400000000000', (q) =>
          (q.get('fields') ?? '').includes('.after(QVFIUjNBFTER1)'),
        ),
      })
      .reply(200, fixture('picnet-graph', 'business-discovery-page2'));
    const page = await src.userPosts({ username: 'brewlab', limit: 10 });
    expect(fields).toContain('business_discovery.username(brewlab)');
    const posts = page.items.map((i) => i.item);
    assertItems(PicnetPost, posts);
    expect(posts.map((p) => [p.id, p.shortcode, p.media_type, p.timestamp])).toEqual([
      ['17895550000001', 'C8graph1X', 'image', '2024-05-02T10:00:00.000Z'],
      ['17895550000002', 'C8graph2X', 'carousel', '2024-05-02T10:00:00.000Z'],
      ['17895550000003', 'C8graph3X', 'video', '2024-05-02T10:00:00.000Z'],
    ]);
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
    const { agent, src } = make<PicnetSource>('picnet', 'picnet-graph');
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/ig_hashtag_search', (q) => q.get('q') === 'latteart') })
      .reply(200, fixture('picnet-graph', 'hashtag-search'));
    agent
      .get(GR)
      .intercept({ path: path('/v21.0/17843853986012965/recent_media') })
      .reply(200, fixture('picnet-graph', 'recent-media'));
    const posts = await src.hashtagPosts({ hashtag: 'latteart', days: 7, max: 10 });
    assertItems(HashtagPost, posts);
    expect(posts.map((p) => p.post_id)).toEqual(['17895550000004', '17895550000005']);
    const err = await rejection(
      src.comments({ post: { id: 'C8graph1X', form: 'id', input: 'x' }, limit: 5 }),
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
