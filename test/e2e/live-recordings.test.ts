// Conformance of the provider and official live backends (scrapekit, datadepth,
// clipnet-research, picnet-graph, youtube-data-api) with what the real upstreams send: the real
// app, configured by its base-URL variables alone, against a local stub that answers each
// request with fixtures derived from recorded responses (test/fixtures/live/<backend>/SOURCES.md).
// Each test asserts what a caller sees (ids, texts, counts, dates, authors, cursors) and how many
// requests reached the upstream for it.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  ClipnetPost,
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetVideo,
} from '../../src/contract/items.js';
import { createSources } from '../../src/sources/index.js';
import { assertItems, FIXED_NOW } from '../sources/live/helpers.js';
import { GRAPH_USER_ID, RECORDED, RECORDED_NOW, recordedRoutes } from '../sources/live/recorded.js';
import { type Stub, type StubRequest, startStub } from '../sources/live/stub.js';
import { startApp, type TestApp } from '../support/app.js';

let stub: Stub;
beforeAll(async () => {
  stub = await startStub(recordedRoutes);
});
afterAll(async () => {
  expect(stub.unmatched).toEqual([]);
  await stub?.close();
});

type Sources = { CLIPNET_SOURCE?: string; PICNET_SOURCE?: string; VIDNET_SOURCE?: string };

/** the real app with one live backend, every base URL at the stub, its clock at `now` */
async function liveApp(sources: Sources, now: Date): Promise<TestApp> {
  const o = stub.origin;
  const config = loadConfig({
    SCRAPEKIT_BASE_URL: o,
    SCRAPEKIT_API_KEY: 'test-key',
    DATADEPTH_BASE_URL: `${o}/apis`,
    DATADEPTH_TOKEN: 'test-token',
    CLIPNET_RESEARCH_BASE_URL: o,
    CLIPNET_RESEARCH_CLIENT_KEY: 'test-client-key',
    CLIPNET_RESEARCH_CLIENT_SECRET: 'test-client-secret',
    // two 30-day windows: a user with nothing older costs two more queries, not twelve
    CLIPNET_RESEARCH_MAX_WINDOWS: '2',
    PICNET_GRAPH_BASE_URL: `${o}/graph`,
    PICNET_GRAPH_ACCESS_TOKEN: 'test-graph-token',
    PICNET_GRAPH_USER_ID: GRAPH_USER_ID,
    YOUTUBE_API_BASE_URL: `${o}/youtube/v3`,
    YOUTUBE_API_KEY: 'test-youtube-key',
    UPSTREAM_BACKOFF_BASE_MS: '5',
    UPSTREAM_BACKOFF_MAX_MS: '20',
    CLIPNET_SOURCE: 'sandbox',
    PICNET_SOURCE: 'sandbox',
    VIDNET_SOURCE: 'sandbox',
    ...sources,
  });
  const built = await createSources(config, pino({ level: 'silent' }), { now: () => now });
  // no response cache: every call's upstream requests are counted
  return startApp({ sources: built, credits: 100_000, env: { CACHE_TTL_SECONDS: '0' } });
}

interface Call {
  status: number;
  body: any;
  /** the upstream requests this call sent, in order */
  upstream: StubRequest[];
}

async function call(t: TestApp, path: string, body: unknown): Promise<Call> {
  const before = stub.requests.length;
  const r = await t.post(path, body);
  return { status: r.statusCode, body: r.json(), upstream: stub.requests.slice(before) };
}

/** a 200 with live items of the contract's shape */
async function ok(t: TestApp, path: string, body: unknown): Promise<Call> {
  const c = await call(t, path, body);
  expect(c.status, `${path}: ${JSON.stringify(c.body)}`).toBe(200);
  expect(c.body.metadata.source).toBe('live');
  return c;
}

const paths = (reqs: StubRequest[]) => reqs.map((r) => r.path);
/** a public cursor naming `backend`, carrying any inner value (as a caller could forge one) */
const forged = (backend: string, inner: string) =>
  Buffer.from(JSON.stringify({ v: 1, b: backend, c: inner })).toString('base64url');

/** a forged cursor is a 400 naming the cursor, costs nothing, and sends nothing upstream */
async function refusesForged(t: TestApp, path: string, username: string, backend: string, inners: string[]) {
  for (const inner of inners) {
    const c = await call(t, path, { username, cursor: forged(backend, inner) });
    expect(c.status, inner).toBe(400);
    expect(c.body.error.code).toBe('BAD_REQUEST');
    expect(c.body.error.details).toEqual([{ field: 'cursor', message: expect.stringMatching(/cursor/) }]);
    expect(c.body.metadata.credits_used).toBe(0);
    expect(c.upstream, inner).toEqual([]);
  }
}

describe('picnet-graph on recorded Graph API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ PICNET_SOURCE: 'picnet-graph' }, RECORDED_NOW.graphHashtag);
  });
  afterAll(async () => t?.close());

  it('pages business discovery media on cursors.after alone (the nested edge has no `next`)', async () => {
    const c = await ok(t, '/picnet/posts', { username: 'facebookfordevelopers', limit: 10 });
    assertItems(PicnetPost, c.body.data.posts);
    expect(
      c.body.data.posts.map((p: PicnetPost) => [
        p.id,
        p.shortcode,
        p.media_type,
        p.timestamp,
        p.stats,
        p.url,
      ]),
    ).toEqual([
      [
        '17885103395504675',
        'CSr71Gzlqo4',
        'image',
        '2021-08-17T19:00:42.000Z',
        { likes: 87, comments: 11 },
        'https://www.instagram.com/p/CSr71Gzlqo4/',
      ],
      [
        '17886271043461692',
        'CSpNPqgFxE0',
        'image',
        '2021-08-16T17:35:10.000Z',
        { likes: 186, comments: 16 },
        'https://www.instagram.com/p/CSpNPqgFxE0/',
      ],
      [
        '17939347456563225',
        'CScld93rm4W',
        'image',
        '2021-08-11T19:56:42.000Z',
        { likes: 50, comments: 3 },
        'https://www.instagram.com/p/CScld93rm4W/',
      ],
      [
        '18165241603086291',
        'CSZsJf-iJLj',
        'video',
        '2021-08-10T16:57:42.000Z',
        { likes: 86, comments: 5 },
        'https://www.instagram.com/p/CSZsJf-iJLj/',
      ],
    ]);
    expect(c.body.data.posts[0].caption).toMatch(
      /^To attract new players, the team behind state_of_survival/,
    );
    // the second page repeats its `after` cursor: the end, not a loop
    expect(c.body.data.has_more).toBe(false);
    expect(c.body.data.cursor).toBeNull();
    expect(paths(c.upstream)).toEqual([`/graph/v21.0/${GRAPH_USER_ID}`, `/graph/v21.0/${GRAPH_USER_ID}`]);
    expect(c.upstream[0]?.query.get('fields')).toBe(
      'business_discovery.username(facebookfordevelopers){id,username,media.limit(50){id,caption,media_type,permalink,timestamp,like_count,comments_count}}',
    );
    expect(c.upstream[1]?.query.get('fields')).toContain('media.limit(50).after(after){');
  });

  it('stops at the limit, and its cursor continues on the next page', async () => {
    const a = await ok(t, '/picnet/posts', { username: 'facebookfordevelopers', limit: 2 });
    expect(a.body.data.posts.map((p: PicnetPost) => p.id)).toEqual([
      '17885103395504675',
      '17886271043461692',
    ]);
    expect(a.body.data.has_more).toBe(true);
    expect(a.upstream).toHaveLength(1);
    const b = await ok(t, '/picnet/posts', {
      username: 'facebookfordevelopers',
      limit: 10,
      cursor: a.body.data.cursor,
    });
    expect(b.body.data.posts.map((p: PicnetPost) => p.id)).toEqual([
      '17939347456563225',
      '18165241603086291',
    ]);
    expect(b.body.data.has_more).toBe(false);
    expect(b.upstream).toHaveLength(1);
    expect(b.upstream[0]?.query.get('fields')).toContain('.after(after)');
  });

  it('refuses a forged cursor that would rewrite the fields expression, before any request', async () => {
    await refusesForged(t, '/picnet/posts', 'facebookfordevelopers', 'picnet-graph', [
      JSON.stringify(['x){id,followers_count}', 0]),
      JSON.stringify(['QVFIUm).limit(500', 0]),
      JSON.stringify(['QVFI Um', 0]),
      JSON.stringify(['', 0]),
      JSON.stringify(['QVFIUm', -1]),
      JSON.stringify(['QVFIUm', 1e9]),
      '{"page":"QVFIUm"}',
    ]);
  });

  it('reads recent hashtag media over two pages, inside the look-back window', async () => {
    const c = await ok(t, '/picnet/hashtag/posts', {
      hashtags: ['developers'],
      days: 1,
      max_posts_per_hashtag: 20,
    });
    const posts = c.body.data.posts;
    assertItems(HashtagPost, posts);
    // the fifth recorded item is two days old
    expect(
      posts.map((p: HashtagPost) => [
        p.post_id,
        p.post_time,
        p.reaction_count,
        p.comment_count,
        p.post_url,
        p.profile_id,
        p.profile_name,
      ]),
    ).toEqual([
      ['18088158883149835', '1581671523', 997, 10, 'https://www.instagram.com/p/B8goRvrnwod/', null, null],
      ['17881768807512229', '1581669651', 1929, 19, 'https://www.instagram.com/p/B8gnkhFo_r8/', null, null],
      ['17842849828991925', '1581663930', 2030, 60, 'https://www.instagram.com/p/B8gonCEDBH0/', null, null],
      ['17855391343811885', '1581638340', 153, 9, 'https://www.instagram.com/p/B8gnkwFB9Xa/', null, null],
    ]);
    expect(posts[1].post_text).toMatch(/^Which one you prefer\?/);
    expect(paths(c.upstream)).toEqual([
      '/graph/v21.0/ig_hashtag_search',
      '/graph/v21.0/17841562426109234/recent_media',
      '/graph/v21.0/17841562426109234/recent_media',
    ]);
    expect(c.upstream[2]?.query.get('after')).toBe('after');
  });

  it('asks for no second page once max is reached', async () => {
    const c = await ok(t, '/picnet/hashtag/posts', {
      hashtags: ['developers'],
      days: 1,
      max_posts_per_hashtag: 2,
    });
    expect(c.body.data.posts).toHaveLength(2);
    expect(c.upstream).toHaveLength(2);
  });

  it('answers 502, not an empty success, when no media item of a page can be read', async () => {
    // the recorded answer to a request that asked for neither timestamp nor permalink
    const c = await call(t, '/picnet/hashtag/posts', { hashtags: ['notimestamp'], days: 1 });
    expect(c.status).toBe(502);
    expect(c.body.error.code).toBe('EXTERNAL_API_ERROR');
    expect(c.body.metadata.credits_used).toBe(0);
    expect(c.upstream).toHaveLength(2);
  });
});

describe('clipnet-research on the Research API documentation examples', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ CLIPNET_SOURCE: 'clipnet-research' }, RECORDED_NOW.research);
  });
  afterAll(async () => t?.close());
  const queries = (reqs: StubRequest[]) => reqs.filter((r) => r.path === '/v2/research/video/query/');

  it('reads the documented video object (`video_id`), once per video', async () => {
    const c = await ok(t, '/clipnet/posts', { username: 'avengers_fan', limit: 10 });
    assertItems(ClipnetPost, c.body.data.posts);
    // the example lists the same video twice
    expect(c.body.data.posts).toEqual([
      {
        id: '702874395068494965',
        caption: 'lol #pov #avengers',
        url: 'https://www.tiktok.com/@avengers_fan/video/702874395068494965',
        timestamp: '2021-10-09T23:59:59.000Z',
        stats: { views: 1050, likes: 88, comments: 2, shares: 4 },
      },
    ]);
    expect(c.body.data.has_more).toBe(false);
    // the window's two pages (the second, by search_id and cursor 100, is empty), then the
    // older window: two windows configured, so no more
    const q = queries(c.upstream).map((r) => JSON.parse(r.body));
    expect(q.map((b) => [b.start_date, b.end_date, b.cursor, b.search_id])).toEqual([
      ['20210913', '20211012', 0, undefined],
      ['20210913', '20211012', 100, '7201388525814961198'],
      ['20210814', '20210912', 0, undefined],
    ]);
  });

  it('answers 502 when no video can be read (the example leaves out counts a post needs)', async () => {
    const c = await call(t, '/clipnet/posts', { username: 'docs_example', limit: 10 });
    expect(c.status).toBe(502);
    expect(c.body.metadata.credits_used).toBe(0);
    expect(queries(c.upstream)).toHaveLength(1);
  });

  it('reads hashtag posts from the example as it is, with null for what it does not give', async () => {
    const c = await ok(t, '/clipnet/hashtag/posts', { hashtags: ['docs_example'], days: 7 });
    expect(c.body.data.posts).toEqual([
      {
        post_id: '702874395068494965',
        post_text: 'lol #pov #avengers',
        post_time: '1633823999',
        profile_id: null,
        profile_name: null,
        reaction_count: null,
        play_count: 1050,
        comment_count: 2,
        source_name: 'docs_example',
        post_url: 'https://www.tiktok.com/@/video/702874395068494965',
      },
    ]);
    expect(queries(c.upstream)).toHaveLength(2);
  });

  it('reads the documented comment list and stops at the limit', async () => {
    const url = 'https://www.tiktok.com/@someone/video/1234563451201523412';
    const c = await ok(t, '/clipnet/comments', { post_urls: [url], limit_per_post: 10 });
    assertItems(PostComment, c.body.data.comments);
    expect(c.body.data.comments).toEqual([
      {
        id: '12345616934634134',
        post_url: 'https://www.tiktok.com/@/video/1234563451201523412',
        text: 'AWEEEEEE 🥰🥰🥰',
        user: null,
        timestamp: '2022-12-19T23:13:18.000Z',
        likes: 50,
      },
    ]);
    const lists = c.upstream.filter((r) => r.path === '/v2/research/video/comment/list/');
    expect(lists.map((r) => r.body)).toEqual([
      '{"video_id":1234563451201523412,"max_count":10,"cursor":0}',
      '{"video_id":1234563451201523412,"max_count":9,"cursor":300}',
    ]);
    const one = await ok(t, '/clipnet/comments', { post_urls: [url], limit_per_post: 1 });
    expect(one.body.data.comments).toHaveLength(1);
    expect(one.upstream).toHaveLength(1);
  });

  it('refuses forged cursors before any request', async () => {
    await refusesForged(t, '/clipnet/posts', 'avengers_fan', 'clipnet-research', [
      '{"w":0,"s":"1 OR 1=1","c":0}',
      '{"w":0,"s":"7201388525814961198","c":-1}',
      '{"w":99,"s":"","c":0}',
      '{"w":0,"s":"","c":100000000}',
      '[0,"",0]',
    ]);
  });
});

describe('scrapekit on clipnet: the TikTok app bodies it passes through', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ CLIPNET_SOURCE: 'scrapekit' }, RECORDED_NOW.tiktokApp);
  });
  afterAll(async () => t?.close());

  it('reads user videos and continues from max_cursor', async () => {
    const a = await ok(t, '/clipnet/posts', { username: 'anastasiyachorna3', limit: 1 });
    assertItems(ClipnetPost, a.body.data.posts);
    expect(a.body.data.posts).toEqual([
      {
        id: '6990567184082701573',
        caption: expect.stringMatching(/^Summer in bora bora #borabora/),
        url: 'https://www.tiktok.com/@anastasiyachorna3/video/6990567184082701573',
        timestamp: '2021-07-30T04:10:58.000Z',
        stats: { views: 5040, likes: 453, comments: 11, shares: 3 },
      },
    ]);
    expect(a.body.data.has_more).toBe(true);
    expect(a.upstream).toHaveLength(1);
    const b = await ok(t, '/clipnet/posts', {
      username: 'anastasiyachorna3',
      limit: 10,
      cursor: a.body.data.cursor,
    });
    expect(b.body.data.posts.map((p: ClipnetPost) => [p.id, p.timestamp, p.stats.views])).toEqual([
      ['6932229950720216325', '2021-02-22T23:12:55.000Z', 16509966],
      ['6985955634940480773', '2021-07-17T17:55:50.000Z', 356320],
    ]);
    expect(b.body.data.has_more).toBe(false);
    expect(b.upstream.map((r) => r.query.get('max_cursor'))).toEqual([RECORDED.tiktokMaxCursor]);
  });

  it('reads comments until the list ends, and no further than the limit', async () => {
    const url = 'https://www.tiktok.com/@someone/video/6993829555089706245';
    const c = await ok(t, '/clipnet/comments', { post_urls: [url], limit_per_post: 10 });
    assertItems(PostComment, c.body.data.comments);
    expect(
      c.body.data.comments.map((x: PostComment) => [x.id, x.text, x.user, x.timestamp, x.likes]),
    ).toEqual([
      ['6996843253702542081', 'What👁👄👁', '@the.king.of.drip', '2021-08-16T02:05:35.000Z', 0],
      [
        '6996897023341953798',
        'And it’s only 50 thousand calories',
        '@xeon_ccl',
        '2021-08-16T05:34:05.000Z',
        0,
      ],
    ]);
    expect(c.upstream.map((r) => r.query.get('cursor'))).toEqual([null, '40']);
    const one = await ok(t, '/clipnet/comments', { post_urls: [url], limit_per_post: 1 });
    expect(one.body.data.comments).toHaveLength(1);
    expect(one.upstream).toHaveLength(1);
  });

  it('reads hashtag videos with authors and counts, keeping the look-back window', async () => {
    const c = await ok(t, '/clipnet/hashtag/posts', { hashtags: ['cicada'], days: 30 });
    assertItems(HashtagPost, c.body.data.posts);
    expect(c.body.data.posts).toEqual([
      {
        post_id: '6992456889573379334',
        post_text: expect.stringMatching(/^I am convinced that Tokyo has the most cicadas/),
        post_time: '1628058242',
        profile_id: '6895578589849879558',
        profile_name: 'raydinc',
        reaction_count: 319879,
        share_count: 932,
        play_count: 1823449,
        comment_count: 1626,
        source_name: 'cicada',
        post_url: 'https://www.tiktok.com/@raydinc/video/6992456889573379334',
      },
    ]);
    expect(c.upstream.map((r) => r.query.get('cursor'))).toEqual([null, '40']);
  });

  it('leaves out an item it cannot read and says so; fails when it can read none', async () => {
    const c = await ok(t, '/clipnet/posts', { username: 'drifted', limit: 10 });
    expect(c.body.data.posts.map((p: ClipnetPost) => p.id)).toEqual(['6990567184082701573']);
    expect(c.body.metadata.warnings).toEqual([
      expect.objectContaining({ target: 'drifted', code: 'ITEMS_SKIPPED' }),
    ]);
    const metrics = await t.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /gleaner_upstream_items_skipped_total\{platform="clipnet",backend="scrapekit",operation="userPosts"\} 1/,
    );
    const none = await call(t, '/clipnet/posts', { username: 'unreadable', limit: 10 });
    expect(none.status).toBe(502);
    expect(none.body.error.code).toBe('EXTERNAL_API_ERROR');
    expect(none.body.metadata.credits_used).toBe(0);
  });

  it('bulk posts: a missing user among several is a warning, not a failure', async () => {
    const c = await ok(t, '/clipnet/bulk/posts', {
      usernames: ['anastasiyachorna3', 'nobody'],
      limit_per_user: 1,
    });
    expect(c.body.data.users.map((u: { posts: ClipnetPost[] }) => u.posts.map((p) => p.id))).toEqual([
      ['6990567184082701573'],
    ]);
    expect(c.body.metadata.warnings).toEqual([
      expect.objectContaining({ target: 'nobody', code: 'NOT_FOUND' }),
    ]);
    expect(c.upstream).toHaveLength(2);
  });

  it('refuses forged cursors before any request', async () => {
    await refusesForged(t, '/clipnet/posts', 'anastasiyachorna3', 'scrapekit', [
      JSON.stringify(['1611080207000&handle=someone_else', 0]),
      JSON.stringify(['-1', 0]),
      JSON.stringify([7, 0]),
    ]);
  });
});

describe('datadepth on clipnet: recorded TikTok items in the provider envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ CLIPNET_SOURCE: 'datadepth' }, RECORDED_NOW.tiktokApp);
  });
  afterAll(async () => t?.close());

  it('reads user posts over two pages', async () => {
    const c = await ok(t, '/clipnet/posts', { username: 'anastasiyachorna3', limit: 10 });
    assertItems(ClipnetPost, c.body.data.posts);
    expect(c.body.data.posts.map((p: ClipnetPost) => [p.id, p.url, p.stats.likes])).toEqual([
      ['6990567184082701573', 'https://www.tiktok.com/@anastasiyachorna3/video/6990567184082701573', 453],
      ['6932229950720216325', 'https://www.tiktok.com/@trulybeauty/video/6932229950720216325', 1256636],
      ['6985955634940480773', 'https://www.tiktok.com/@piaopiao34/video/6985955634940480773', 14914],
    ]);
    expect(c.body.data.has_more).toBe(false);
    expect(c.upstream.map((r) => r.query.get('start_cursor'))).toEqual([null, RECORDED.tiktokMaxCursor]);
  });

  it('reads comments and hashtag posts, asking no more than needed', async () => {
    const url = 'https://www.tiktok.com/@someone/video/6993829555089706245';
    const c = await ok(t, '/clipnet/comments', { post_urls: [url], limit_per_post: 10 });
    expect(c.body.data.comments.map((x: PostComment) => x.user)).toEqual(['@the.king.of.drip', '@xeon_ccl']);
    expect(c.upstream).toHaveLength(2);
    const h = await ok(t, '/clipnet/hashtag/posts', { hashtags: ['cicada'], days: 30 });
    expect(h.body.data.posts.map((p: HashtagPost) => p.post_id)).toEqual(['6992456889573379334']);
    expect(h.upstream.map((r) => r.query.get('cursor'))).toEqual([null, '20', '40']);
    const one = await ok(t, '/clipnet/hashtag/posts', {
      hashtags: ['cicada'],
      days: 30,
      max_posts_per_hashtag: 1,
    });
    expect(one.upstream).toHaveLength(1);
  });

  it('refuses forged cursors before any request', async () => {
    await refusesForged(t, '/clipnet/posts', 'anastasiyachorna3', 'datadepth', [
      JSON.stringify(['1611080207000&username=other', 0]),
      JSON.stringify(['abc', 0]),
    ]);
  });
});

describe('datadepth on picnet: the 2019 web GraphQL items it passes through', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ PICNET_SOURCE: 'datadepth' }, RECORDED_NOW.instagramWeb);
  });
  afterAll(async () => t?.close());

  it('resolves the user once and reads posts over two pages', async () => {
    const c = await ok(t, '/picnet/posts', { username: 'brewlab', limit: 10 });
    assertItems(PicnetPost, c.body.data.posts);
    expect(
      c.body.data.posts.map((p: PicnetPost) => [p.id, p.shortcode, p.media_type, p.timestamp, p.stats]),
    ).toEqual([
      ['2156615653142894199', 'B3t1oKioRZ3', 'image', '2019-10-17T10:37:21.000Z', { likes: 2, comments: 1 }],
      [
        '2156609939158788382',
        'B3t0VA-ouke',
        'carousel',
        '2019-10-17T10:26:00.000Z',
        { likes: 0, comments: 0 },
      ],
      ['2156545040053837264', 'B3tlkm-ih3Q', 'video', '2019-10-17T08:18:49.000Z', { likes: 2, comments: 0 }],
      ['2156613507328614665', 'B3t1I8GIaEJ', 'image', '2019-10-17T10:33:05.000Z', { likes: 1, comments: 0 }],
      ['2156605057659975339', 'B3tzN-uojar', 'image', '2019-10-17T10:16:18.000Z', { likes: 1, comments: 0 }],
    ]);
    expect(c.body.data.posts[0].caption).toMatch(/^Brochette de saumon, steak d'espadon, riz/);
    expect(paths(c.upstream)).toEqual([
      '/apis/instagram/user/info',
      '/apis/instagram/user/posts',
      '/apis/instagram/user/posts',
    ]);
    expect(c.upstream[2]?.query.get('start_cursor')).toBe(RECORDED.igEndCursor);
  });

  it('a cursor inside the first page carries the resolved user id: no second user/info', async () => {
    const a = await ok(t, '/picnet/posts', { username: 'brewlab', limit: 2 });
    expect(paths(a.upstream)).toEqual(['/apis/instagram/user/info', '/apis/instagram/user/posts']);
    const b = await ok(t, '/picnet/posts', { username: 'brewlab', limit: 10, cursor: a.body.data.cursor });
    expect(b.body.data.posts.map((p: PicnetPost) => p.id)).toEqual([
      '2156545040053837264',
      '2156613507328614665',
      '2156605057659975339',
    ]);
    expect(paths(b.upstream)).toEqual(['/apis/instagram/user/posts', '/apis/instagram/user/posts']);
    expect(b.upstream.map((r) => r.query.get('user_id'))).toEqual(['5471203390', '5471203390']);
  });

  it('reads hashtag posts: top and recent once each, older than `days` left out, owners unnamed', async () => {
    const c = await ok(t, '/picnet/hashtag/posts', { hashtags: ['riz'], days: 2 });
    assertItems(HashtagPost, c.body.data.posts);
    expect(
      c.body.data.posts.map((p: HashtagPost) => [
        p.post_id,
        p.post_time,
        p.profile_id,
        p.profile_name,
        p.reaction_count,
      ]),
    ).toEqual([
      ['2156144858363506831', '1571252518', '3170252690', null, 766],
      ['2156615653142894199', '1571308641', '1938287349', null, 2],
      ['2156613507328614665', '1571308385', '501427133', null, 1],
      ['2156609939158788382', '1571307960', '21753330839', null, 0],
    ]);
    expect(c.upstream.map((r) => r.query.get('cursor'))).toEqual([null, RECORDED.igEndCursor]);
  });

  it('reads comments by the media id of the shortcode (hand-written: no recording)', async () => {
    const c = await ok(t, '/picnet/comments', { post_urls: ['C6ddA1Bq2xY'], limit_per_post: 10 });
    expect(c.body.data.comments.map((x: PostComment) => [x.user, x.likes])).toEqual([
      ['@beanhunter', 5],
      ['@milkfoam', 0],
    ]);
    expect(c.upstream[0]?.query.get('media_id')).toBe('3358968497373408344');
  });

  it('refuses forged cursors before any request', async () => {
    await refusesForged(t, '/picnet/posts', 'brewlab', 'datadepth', [
      JSON.stringify(['5471203390:QVFE&user_id=1', 0]),
      JSON.stringify(['someone:QVFE', 0]),
      JSON.stringify(['5471203390', 0]),
    ]);
  });
});

describe('scrapekit on picnet (hand-written fixtures: no recording of this shape exists)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ PICNET_SOURCE: 'scrapekit' }, FIXED_NOW);
  });
  afterAll(async () => t?.close());

  it('pages user posts, and refuses a forged cursor before any request', async () => {
    const c = await ok(t, '/picnet/posts', { username: 'brewlab', limit: 10 });
    expect(c.body.data.posts.map((p: PicnetPost) => p.shortcode)).toEqual([
      'C8abcDE1xyz',
      'C8abcDE2xyz',
      'C8abcDE3xyz',
    ]);
    expect(c.upstream).toHaveLength(2);
    await refusesForged(t, '/picnet/posts', 'brewlab', 'scrapekit', [
      JSON.stringify(['3312345678901234512_1234567&handle=x', 0]),
      JSON.stringify(['a b', 0]),
    ]);
  });

  it('reads comments and hashtag posts', async () => {
    const c = await ok(t, '/picnet/comments', { post_urls: ['C8abcDE1xyz'], limit_per_post: 10 });
    assertItems(PostComment, c.body.data.comments);
    expect(c.body.data.comments[0].post_url).toBe('https://www.instagram.com/p/C8abcDE1xyz/');
    const h = await ok(t, '/picnet/hashtag/posts', { hashtags: ['latteart'], days: 7 });
    assertItems(HashtagPost, h.body.data.posts);
    expect(h.body.data.posts.length).toBeGreaterThan(0);
  });
});

describe('youtube-data-api on recorded Data API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ VIDNET_SOURCE: 'youtube-data-api' }, FIXED_NOW);
  });
  afterAll(async () => t?.close());
  const CHANNEL = 'UCK8sQmJBp8GCxrOtXWBpyEA';

  it('searches page by page and completes only the videos it returns', async () => {
    const c = await ok(t, '/vidnet/search', { keywords: ['surfing'], depth: 2, max_posts_per_keyword: 10 });
    const videos = c.body.data.videos;
    assertItems(VidnetVideo, videos);
    // both recorded search pages (5 results each), in their order
    expect(RECORDED.youtubeSearchIds).toHaveLength(10);
    expect(videos.map((v: VidnetVideo) => v.video_id)).toEqual(RECORDED.youtubeSearchIds);
    expect(videos[2]).toMatchObject({
      title: 'Taiwan Open of Surfing World Longboard Championships',
      channel_id: 'UChuLeaTGRcfzo0UjL-2qSbQ',
      channel_title: 'World Surf League',
      published_at: '2019-12-06T07:54:12.000Z',
      // the recorded statistics have no commentCount: null, not 0
      stats: { views: 6969757, likes: 88740, comments: null },
    });
    expect(paths(c.upstream)).toEqual(['/youtube/v3/search', '/youtube/v3/search', '/youtube/v3/videos']);
    expect(c.upstream[1]?.query.get('pageToken')).toBe('CBkQAA');

    const three = await ok(t, '/vidnet/search', {
      keywords: ['surfing'],
      depth: 2,
      max_posts_per_keyword: 3,
    });
    expect(three.body.data.videos).toHaveLength(3);
    expect(paths(three.upstream)).toEqual(['/youtube/v3/search', '/youtube/v3/videos']);
    expect(three.upstream[1]?.query.get('id')).toBe('gQ_1zX-F_No,i2hewkFijuY,_Z56nIAQj7Q');
  });

  it('reads comment threads, following the padded page token, each thread once', async () => {
    const c = await ok(t, '/vidnet/comments', {
      post_urls: ['https://www.youtube.com/watch?v=F1UP7wRCPH8'],
      limit_per_post: 20,
    });
    assertItems(VidnetComment, c.body.data.comments);
    expect(
      c.body.data.comments.map((x: VidnetComment) => [x.id, x.author, x.likes, x.timestamp, x.video_id]),
    ).toEqual([
      ['UgyZ1jqkHKYvi1-ruOZ4AaABAg', 'himani agarwal', 0, '2019-11-26T15:51:44.000Z', 'F1UP7wRCPH8'],
      ['Ugy4OzAuz5uJuFt3FH54AaABAg', 'el bojo loco', 1, '2019-11-21T19:18:39.000Z', 'F1UP7wRCPH8'],
      ['UgysQP-vp089eFP0Stl4AaABAg', 'Andres Jorquera', 4, '2019-11-17T11:34:48.000Z', 'F1UP7wRCPH8'],
      ['UgyKv8ziPYFJDGytM_J4AaABAg', 'Masum Khan', 1, '2019-11-16T20:05:39.000Z', 'F1UP7wRCPH8'],
      ['UgwI_ylXVnzPS8Q-oAV4AaABAg', 'matrix uduma', 0, '2019-11-14T23:31:33.000Z', 'F1UP7wRCPH8'],
    ]);
    expect(c.upstream.map((r) => r.query.get('pageToken'))).toEqual([null, RECORDED.youtubeCommentsToken]);
    expect(RECORDED.youtubeCommentsToken).toMatch(/=$/);
    const two = await ok(t, '/vidnet/comments', {
      post_urls: ['https://www.youtube.com/watch?v=F1UP7wRCPH8'],
      limit_per_post: 2,
    });
    expect(two.body.data.comments).toHaveLength(2);
    expect(two.upstream).toHaveLength(1);
    expect(two.upstream[0]?.query.get('maxResults')).toBe('2');
  });

  it('lists channel uploads; videos gone since they were listed are left out', async () => {
    const c = await ok(t, '/vidnet/channel/videos', { browse_ids: [CHANNEL], depth: 1 });
    const videos = c.body.data.videos;
    assertItems(VidnetChannelVideo, videos);
    // 12 uploads listed, 2 of them (SBBVqdn-U2Y, 6iJ6C5ECRsQ) no longer returned by videos.list
    expect(videos.map((v: VidnetChannelVideo) => [v.video_id, v.duration_seconds, v.is_short])).toEqual([
      ['BaxEJ2xaB1Q', 14, true],
      ['uyv0IDzMtf0', 714, false],
      ['YzHmV21nvGY', 189, false],
      ['Bgz3Tncf41M', 752, false],
      ['irKPJCusuVs', 277, false],
      ['vc68kqSoiVk', 89, false],
      ['Ph7IDkvpM3g', 57, true],
      ['7oWcLw34d9M', 85, false],
      ['bUi2Rb5DIVE', 51, true],
      ['R5eoyywfWJM', 255, false],
    ]);
    expect(videos[2]).toMatchObject({
      title: 'A My Name Is',
      source_browse_id: CHANNEL,
      published_at: '2013-12-17T07:23:14.000Z',
      stats: { views: 394171, likes: 2795, comments: 200 },
    });
    expect(paths(c.upstream)).toEqual([
      '/youtube/v3/channels',
      '/youtube/v3/playlistItems',
      '/youtube/v3/videos',
    ]);
    expect(c.upstream[1]?.query.get('playlistId')).toBe('UUK8sQmJBp8GCxrOtXWBpyEA');

    const shorts = await ok(t, '/vidnet/channel/shorts', { browse_ids: [CHANNEL] });
    expect(shorts.body.data.shorts.map((v: VidnetChannelVideo) => v.video_id)).toEqual([
      'BaxEJ2xaB1Q',
      'Ph7IDkvpM3g',
      'bUi2Rb5DIVE',
    ]);
    expect(shorts.upstream).toHaveLength(3);
  });

  it('an unknown channel alone is a 404 that costs nothing, after one request', async () => {
    const c = await call(t, '/vidnet/channel/videos', { browse_ids: ['UCxxxxxxxxxxxxxxxxxxxxxx'], depth: 1 });
    expect(c.status).toBe(404);
    expect(c.body.error.code).toBe('NOT_FOUND');
    expect(c.body.metadata.credits_used).toBe(0);
    expect(c.upstream).toHaveLength(1);
  });
});

describe('datadepth on vidnet: recorded search renderers in the provider envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await liveApp({ VIDNET_SOURCE: 'datadepth' }, FIXED_NOW);
  });
  afterAll(async () => t?.close());

  it('reads videos over the depth asked, leaving shelves out', async () => {
    const c = await ok(t, '/vidnet/search', { keywords: ['test'], depth: 2, max_posts_per_keyword: 20 });
    assertItems(VidnetVideo, c.body.data.videos);
    expect(c.body.data.videos.map((v: VidnetVideo) => [v.video_id, v.stats.views])).toEqual([
      ['Z8KYabgkMbw', 390201],
      ['0YWt4Ai8q_g', 594076],
      ['waLptFFtlZY', 2639],
      ['JOHUZMTdgBY', 12870],
      ['E8Ssd5-86jw', 32935],
      ['9-JeWpq0aYg', 28756],
    ]);
    expect(c.upstream.map((r) => r.query.get('start_cursor'))).toEqual([null, RECORDED.ytSearchContinuation]);
    const two = await ok(t, '/vidnet/search', { keywords: ['test'], depth: 2, max_posts_per_keyword: 2 });
    expect(two.body.data.videos).toHaveLength(2);
    expect(two.upstream).toHaveLength(1);
  });
});
