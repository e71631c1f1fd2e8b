// One row per backend operation: how to build the backend against a dispatcher, which upstream
// request the operation makes first, a good response for it, and the call itself. The failure
// matrix (failures.test.ts) runs every row through the same upstream misbehaviours.
import type { Dispatcher, MockAgent } from 'undici';
import type {
  BlipnetSource,
  ClipnetSource,
  PicnetSource,
  Platform,
  VidnetSource,
} from '../../../src/sources/interface.js';
import { createLiveSource } from '../../../src/sources/providers/index.js';
import { FIXED_NOW, fixture } from './helpers.js';
import { recordedBody } from './replay.js';

export const SECRETS = {
  YOUTUBE_API_KEY: 'AIzaSyTEST-not-a-real-key-0123456789',
  SCRAPEKIT_API_KEY: 'sk_live_TESTKEY_abcdef0123456789',
  CLIPNET_RESEARCH_CLIENT_KEY: 'awTESTclientkey01',
  CLIPNET_RESEARCH_CLIENT_SECRET: 'TESTclientSECRET0123456789abcd',
  PICNET_GRAPH_ACCESS_TOKEN: 'EAAGtestTOKEN0123456789abcdefghij',
  DATADEPTH_TOKEN: 'ddTEST_token_0123456789abcdef',
  ATPROTO_APP_PASSWORD: 'abcd-efgh-ijkl-mnop',
} as const;

export const ENV = {
  ...SECRETS,
  SCRAPEKIT_BASE_URL: 'https://api.scrapekit.test',
  DATADEPTH_BASE_URL: 'https://api.datadepth.test/apis',
  PICNET_GRAPH_USER_ID: '17841400000000000',
  // signed in: every atproto read goes to the account's PDS (https://bsky.social by default)
  ATPROTO_IDENTIFIER: 'shinyakato.dev',
};

/** the access token the atproto fixtures' session hands out */
export const ATPROTO_ACCESS_JWT =
  'eyJ0eXAiOiJhdCtqd3QiLCJhbGciOiJFUzI1NksifQ.TEST-access.not-a-real-signature';

type AnySource = ClipnetSource | PicnetSource | VidnetSource | BlipnetSource;

export interface Case {
  label: string;
  platform: Platform;
  backend: string;
  origin: string;
  method: 'GET' | 'POST';
  /** the upstream path (without query) of the operation's first data request */
  path: string;
  ok: string;
  /** requests the backend needs before the data request (e.g. an OAuth token) */
  prepare?: (agent: MockAgent) => void;
  call: (src: AnySource) => Promise<unknown>;
}

const ref = (id: string) => ({ id, form: 'id' as const, input: id });

const researchToken = (agent: MockAgent) => {
  agent
    .get('https://open.tiktokapis.com')
    .intercept({ method: 'POST', path: '/v2/oauth/token/' })
    .reply(200, fixture('clipnet-research', 'token'))
    .persist();
};

const atprotoSession = (agent: MockAgent) => {
  agent
    .get('https://bsky.social')
    .intercept({ method: 'POST', path: '/xrpc/com.atproto.server.createSession' })
    .reply(200, fixture('atproto', 'create-session'))
    .persist();
};

const atproto = (label: string, nsid: string, ok: string, call: Case['call']): Case => ({
  label: `atproto ${label}`,
  platform: 'blipnet',
  backend: 'atproto',
  origin: 'https://bsky.social',
  method: 'GET',
  path: `/xrpc/${nsid}`,
  ok: fixture('atproto', ok),
  prepare: atprotoSession,
  call,
});

export const CASES: Case[] = [
  atproto('user posts', 'app.bsky.feed.getAuthorFeed', 'get-author-feed-page2', (s) =>
    (s as BlipnetSource).userPosts({ username: 'did:plc:iijrtk7ocored6zuziwmqq3c', limit: 5 }),
  ),
  atproto('replies', 'app.bsky.feed.getPostThread', 'get-post-thread', (s) =>
    (s as BlipnetSource).replies({
      post: ref('at://did:plc:by3jhwdqgbtrcc7q4tkkv3cf/app.bsky.feed.post/3jtvi2jrijx2y'),
      limit: 5,
    }),
  ),
  atproto('search', 'app.bsky.feed.searchPosts', 'search-posts-page2', (s) =>
    (s as BlipnetSource).search({ keyword: 'bluesky', max: 5, depth: 1, period: 'week', sorting: 'latest' }),
  ),
  atproto('hashtag', 'app.bsky.feed.searchPosts', 'search-posts-tag-coffee', (s) =>
    (s as BlipnetSource).hashtagPosts({ hashtag: 'coffee', days: 7, max: 5 }),
  ),
  {
    label: 'youtube-data-api search',
    platform: 'vidnet',
    backend: 'youtube-data-api',
    origin: 'https://www.googleapis.com',
    method: 'GET',
    path: '/youtube/v3/search',
    ok: fixture('youtube-data-api', 'search-page2'),
    prepare: (a) => {
      a.get('https://www.googleapis.com')
        .intercept({ method: 'GET', path: (p) => p.startsWith('/youtube/v3/videos') })
        .reply(200, fixture('youtube-data-api', 'videos-for-search'))
        .persist();
    },
    call: (s) =>
      (s as VidnetSource).search({
        keyword: 'coffee',
        max: 10,
        depth: 1,
        period: 'all',
        sorting: 'relevance',
      }),
  },
  {
    label: 'youtube-data-api comments',
    platform: 'vidnet',
    backend: 'youtube-data-api',
    origin: 'https://www.googleapis.com',
    method: 'GET',
    path: '/youtube/v3/commentThreads',
    ok: fixture('youtube-data-api', 'comment-threads-page2'),
    call: (s) => (s as VidnetSource).comments({ video: ref('dQw4w9WgXcQ'), limit: 5 }),
  },
  {
    label: 'youtube-data-api channel videos',
    platform: 'vidnet',
    backend: 'youtube-data-api',
    origin: 'https://www.googleapis.com',
    method: 'GET',
    path: '/youtube/v3/channels',
    ok: fixture('youtube-data-api', 'channels-empty'),
    call: (s) =>
      (s as VidnetSource)
        .channelVideos({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', depth: 1, max: 5 })
        .catch((e) => {
          if ((e as { kind?: string }).kind === 'not_found') return [];
          throw e;
        }),
  },
  {
    label: 'youtubei search',
    platform: 'vidnet',
    backend: 'youtubei',
    origin: 'https://www.youtube.com',
    method: 'POST',
    path: '/youtubei/v1/search',
    ok: recordedBody('search-test-page2'),
    call: (s) =>
      (s as VidnetSource).search({
        keyword: 'coffee',
        max: 10,
        depth: 1,
        period: 'today',
        sorting: 'relevance',
      }),
  },
  {
    label: 'youtubei comments',
    platform: 'vidnet',
    backend: 'youtubei',
    origin: 'https://www.youtube.com',
    method: 'POST',
    path: '/youtubei/v1/next',
    ok: recordedBody('comments-xaQJbozY_Is-page1'),
    call: (s) => (s as VidnetSource).comments({ video: ref('dQw4w9WgXcQ'), limit: 5 }),
  },
  {
    label: 'youtubei channel videos',
    platform: 'vidnet',
    backend: 'youtubei',
    origin: 'https://www.youtube.com',
    method: 'POST',
    path: '/youtubei/v1/browse',
    ok: recordedBody('channel-videos-page1'),
    call: (s) =>
      (s as VidnetSource).channelVideos({ browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', depth: 1, max: 5 }),
  },
  {
    label: 'scrapekit clipnet user posts',
    platform: 'clipnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v3/tiktok/profile/videos',
    ok: fixture('scrapekit', 'tiktok-profile-videos-page2'),
    call: (s) => (s as ClipnetSource).userPosts({ username: 'brewlab', limit: 5 }),
  },
  {
    label: 'scrapekit clipnet comments',
    platform: 'clipnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v1/tiktok/video/comments',
    ok: fixture('scrapekit', 'tiktok-video-comments'),
    call: (s) => (s as ClipnetSource).comments({ post: ref('7321987654321098761'), limit: 5 }),
  },
  {
    label: 'scrapekit clipnet hashtag',
    platform: 'clipnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v1/tiktok/search/hashtag',
    ok: fixture('scrapekit', 'tiktok-search-hashtag'),
    call: (s) => (s as ClipnetSource).hashtagPosts({ hashtag: 'coffee', days: 7, max: 5 }),
  },
  {
    label: 'scrapekit picnet user posts',
    platform: 'picnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v2/instagram/user/posts',
    ok: fixture('scrapekit', 'instagram-user-posts-page2'),
    call: (s) => (s as PicnetSource).userPosts({ username: 'brewlab', limit: 5 }),
  },
  {
    label: 'scrapekit picnet comments',
    platform: 'picnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v2/instagram/post/comments',
    ok: fixture('scrapekit', 'instagram-post-comments'),
    call: (s) => (s as PicnetSource).comments({ post: ref('C8abcDE1xyz'), limit: 5 }),
  },
  {
    label: 'scrapekit picnet hashtag',
    platform: 'picnet',
    backend: 'scrapekit',
    origin: 'https://api.scrapekit.test',
    method: 'GET',
    path: '/v2/instagram/hashtag/posts',
    ok: fixture('scrapekit', 'instagram-hashtag-posts'),
    call: (s) => (s as PicnetSource).hashtagPosts({ hashtag: 'latteart', days: 7, max: 5 }),
  },
  ...datadepthCases(),
  {
    label: 'clipnet-research user posts',
    platform: 'clipnet',
    backend: 'clipnet-research',
    origin: 'https://open.tiktokapis.com',
    method: 'POST',
    path: '/v2/research/video/query/',
    ok: fixture('clipnet-research', 'video-query-fields'),
    prepare: researchToken,
    call: (s) => (s as ClipnetSource).userPosts({ username: 'brewlab', limit: 1 }),
  },
  {
    label: 'clipnet-research comments',
    platform: 'clipnet',
    backend: 'clipnet-research',
    origin: 'https://open.tiktokapis.com',
    method: 'POST',
    path: '/v2/research/video/comment/list/',
    ok: fixture('clipnet-research', 'comment-list-docs-example'),
    prepare: researchToken,
    call: (s) => (s as ClipnetSource).comments({ post: ref('7321987654321098765'), limit: 5 }),
  },
  {
    label: 'picnet-graph user posts',
    platform: 'picnet',
    backend: 'picnet-graph',
    origin: 'https://graph.facebook.com',
    method: 'GET',
    path: '/v21.0/17841400000000000',
    ok: fixture('picnet-graph', 'business-discovery-media-page2'),
    call: (s) => (s as PicnetSource).userPosts({ username: 'brewlab', limit: 5 }),
  },
  {
    label: 'picnet-graph hashtag',
    platform: 'picnet',
    backend: 'picnet-graph',
    origin: 'https://graph.facebook.com',
    method: 'GET',
    path: '/v21.0/ig_hashtag_search',
    ok: fixture('picnet-graph', 'hashtag-search-empty'),
    call: (s) =>
      (s as PicnetSource).hashtagPosts({ hashtag: 'latteart', days: 1, max: 5 }).catch((e) => {
        if ((e as { kind?: string }).kind === 'not_found') return [];
        throw e;
      }),
  },
];

function datadepthCases(): Case[] {
  const origin = 'https://api.datadepth.test';
  const base = { backend: 'datadepth', origin, method: 'GET' as const };
  const ok = (name: string) => fixture('datadepth', name);
  return [
    {
      ...base,
      label: 'datadepth clipnet user posts',
      platform: 'clipnet',
      path: '/apis/tt/user/posts',
      ok: ok('tt-user-posts-page2'),
      call: (s) => (s as ClipnetSource).userPosts({ username: 'brewlab', limit: 5 }),
    },
    {
      ...base,
      label: 'datadepth clipnet comments',
      platform: 'clipnet',
      path: '/apis/tt/post/comments',
      ok: ok('tt-post-comments-page2'),
      call: (s) => (s as ClipnetSource).comments({ post: ref('7321987654321098771'), limit: 5 }),
    },
    {
      ...base,
      label: 'datadepth clipnet hashtag',
      platform: 'clipnet',
      path: '/apis/tt/hashtag/posts',
      ok: ok('tt-hashtag-posts'),
      call: (s) => (s as ClipnetSource).hashtagPosts({ hashtag: 'coffee', days: 7, max: 5 }),
    },
    {
      ...base,
      label: 'datadepth picnet user posts',
      platform: 'picnet',
      path: '/apis/instagram/user/posts',
      ok: ok('ig-user-posts-page2'),
      // a numeric user id goes straight to user/posts (no user/info lookup)
      call: (s) => (s as PicnetSource).userPosts({ username: '5471203390', limit: 5 }),
    },
    {
      ...base,
      label: 'datadepth picnet comments',
      platform: 'picnet',
      path: '/apis/instagram/post/comments',
      ok: ok('ig-post-comments'),
      call: (s) => (s as PicnetSource).comments({ post: ref('C6ddA1Bq2xY'), limit: 5 }),
    },
    {
      ...base,
      label: 'datadepth picnet hashtag',
      platform: 'picnet',
      path: '/apis/instagram/hashtag/posts',
      ok: ok('ig-hashtag-posts'),
      call: (s) => (s as PicnetSource).hashtagPosts({ hashtag: 'latteart', days: 7, max: 5 }),
    },
    {
      ...base,
      label: 'datadepth vidnet search',
      platform: 'vidnet',
      path: '/apis/youtube/search',
      ok: ok('yt-search-page2'),
      call: (s) =>
        (s as VidnetSource).search({ keyword: 'coffee', max: 10, depth: 2, period: 'week', sorting: 'date' }),
    },
  ];
}

export function build(
  c: Case,
  env: Record<string, string>,
  dispatcher: Dispatcher,
  logger?: import('pino').Logger,
): AnySource {
  return createLiveSource(
    c.platform,
    c.backend,
    { ...ENV, ...env },
    { dispatcher, logger, now: () => FIXED_NOW },
  );
}
