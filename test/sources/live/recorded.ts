// Upstream answers for the provider and official backends (scrapekit, datadepth,
// clipnet-research, picnet-graph, youtube-data-api), chosen by request the way the real upstream
// would: by path, by the cursor or page token sent, by the ids asked for. The bodies are the
// fixtures under test/fixtures/live/<backend>/, derived from responses the real platforms sent
// (each folder's SOURCES.md names the source of every file, and which ones are hand-written
// because no recording exists). Used by the local stub (stub.ts) the real app is pointed at.
import { fixture, fixtureJson } from './helpers.js';
import type { Route, StubAnswer, StubRequest } from './stub.js';

const ok = (backend: string, name: string): StubAnswer => ({ body: fixture(backend, name) });
const status = (s: number, body = '{}'): StubAnswer => ({ status: s, body });
const json = (b: string): Record<string, unknown> => {
  try {
    return JSON.parse(b) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** clocks that put each family of recordings "now", so look-back windows keep their items */
export const RECORDED_NOW = {
  /** the TikTok app bodies (extra.now of the user-videos recording: 2021-08-27T03:05:28Z) */
  tiktokApp: new Date(1_630_033_528_000),
  /** the 2019 web GraphQL hashtag page (its newest post: 2019-10-17T10:37:21Z) */
  instagramWeb: new Date('2019-10-18T00:00:00Z'),
  /** the Graph API hashtag media (timestamps of 2020-02-14, see picnet-graph/SOURCES.md) */
  graphHashtag: new Date('2020-02-14T12:00:00Z'),
  /** the Research API documentation's example (create_time 2021-10-09T23:59:59Z) */
  research: new Date('2021-10-12T00:00:00Z'),
} as const;

/** the research API window that holds the documentation's example video */
const RESEARCH_WINDOW_END = '20211012';
/** the app's professional account the Graph backend runs as (PICNET_GRAPH_USER_ID) */
export const GRAPH_USER_ID = '17841406338772941';
/** the hashtag id of the recorded recent_media answer without timestamps (from its `next` URL) */
const GRAPH_TAG_NO_TIMESTAMP = '17843826142012701';

type YtSearch = { items: Array<{ id: { videoId?: string } }> };
const searchIds = (name: string) =>
  fixtureJson<YtSearch>('youtube-data-api', name).items.flatMap((i) => i.id.videoId ?? []);

/** the page tokens, cursors and ids the recordings carry */
export const RECORDED = {
  /** the video ids of both recorded search.list pages, in order */
  youtubeSearchIds: [...searchIds('search-page1'), ...searchIds('search-page2')],
  tiktokMaxCursor: '1611080207000',
  igEndCursor: fixtureJson<{ data: { last_cursor: string } }>('datadepth', 'ig-user-posts-page1').data
    .last_cursor,
  ytSearchContinuation: fixtureJson<{ data: { nextCursor: string } }>('datadepth', 'yt-search-page1').data
    .nextCursor,
  youtubeCommentsToken: fixtureJson<{ nextPageToken: string }>('youtube-data-api', 'comment-threads-page1')
    .nextPageToken,
} as const;

/** the recorded first page of user videos, its aweme_list replaced: recorded items or renamed ones */
function withAwemes(kinds: Array<'recorded' | 'renamed'>): StubAnswer {
  const page = fixtureJson<{ aweme_list: unknown[]; has_more: number }>(
    'scrapekit',
    'tiktok-profile-videos-page1',
  );
  const recorded = page.aweme_list[0];
  page.has_more = 0;
  page.aweme_list = kinds.map((k) =>
    k === 'recorded' ? recorded : { id: 'renamed', description: 'x', createTime: 1627618258 },
  );
  return { body: JSON.stringify(page) };
}

function scrapekit(r: StubRequest): StubAnswer | undefined {
  const q = r.query;
  switch (r.path) {
    case '/v3/tiktok/profile/videos':
      if (q.get('handle') === 'nobody') return status(404, fixture('scrapekit', 'error-not-found'));
      // layout drift: a renamed item beside the recorded one, or alone
      if (q.get('handle') === 'drifted') return withAwemes(['renamed', 'recorded']);
      if (q.get('handle') === 'unreadable') return withAwemes(['renamed', 'renamed']);
      if (!q.has('max_cursor')) return ok('scrapekit', 'tiktok-profile-videos-page1');
      if (q.get('max_cursor') === RECORDED.tiktokMaxCursor)
        return ok('scrapekit', 'tiktok-profile-videos-page2');
      return undefined;
    case '/v1/tiktok/video/comments':
      return ok(
        'scrapekit',
        q.get('cursor') === '40' ? 'tiktok-video-comments-end' : 'tiktok-video-comments',
      );
    case '/v1/tiktok/search/hashtag':
      return ok(
        'scrapekit',
        q.get('cursor') === '40' ? 'tiktok-search-hashtag-page2' : 'tiktok-search-hashtag',
      );
    case '/v2/instagram/user/posts':
      return ok(
        'scrapekit',
        q.get('next_max_id') ? 'instagram-user-posts-page2' : 'instagram-user-posts-page1',
      );
    case '/v2/instagram/post/comments':
      return ok('scrapekit', 'instagram-post-comments');
    case '/v2/instagram/hashtag/posts':
      return ok('scrapekit', 'instagram-hashtag-posts');
  }
  return undefined;
}

function datadepth(r: StubRequest): StubAnswer | undefined {
  const q = r.query;
  if (!r.path.startsWith('/apis/')) return undefined;
  switch (r.path.slice('/apis'.length)) {
    case '/tt/user/posts':
      if (q.get('username') === 'nobody') return status(404, fixture('datadepth', 'error-not-found'));
      if (!q.has('start_cursor')) return ok('datadepth', 'tt-user-posts-page1');
      if (q.get('start_cursor') === RECORDED.tiktokMaxCursor) return ok('datadepth', 'tt-user-posts-page2');
      return undefined;
    case '/tt/post/comments':
      return ok('datadepth', q.get('cursor') === '1' ? 'tt-post-comments-page2' : 'tt-post-comments-page1');
    case '/tt/hashtag/posts': {
      const c = q.get('cursor');
      return ok(
        'datadepth',
        c === '20' ? 'tt-hashtag-posts-page2' : c === '40' ? 'tt-hashtag-posts-end' : 'tt-hashtag-posts',
      );
    }
    case '/instagram/user/info':
      return ok('datadepth', 'ig-user-info');
    case '/instagram/user/posts':
      if (!q.has('start_cursor')) return ok('datadepth', 'ig-user-posts-page1');
      if (q.get('start_cursor') === RECORDED.igEndCursor) return ok('datadepth', 'ig-user-posts-page2');
      return undefined;
    case '/instagram/post/comments':
      return ok('datadepth', 'ig-post-comments');
    case '/instagram/hashtag/posts':
      return ok('datadepth', q.has('cursor') ? 'ig-hashtag-posts-end' : 'ig-hashtag-posts');
    case '/youtube/search':
      if (!q.has('start_cursor')) return ok('datadepth', 'yt-search-page1');
      if (q.get('start_cursor') === RECORDED.ytSearchContinuation) return ok('datadepth', 'yt-search-page2');
      return undefined;
  }
  return undefined;
}

function research(r: StubRequest): StubAnswer | undefined {
  switch (r.path) {
    case '/v2/oauth/token/':
      return ok('clipnet-research', 'token');
    case '/v2/research/video/query/': {
      const b = json(r.body) as {
        search_id?: string;
        end_date?: string;
        query?: { and?: Array<{ field_values?: string[] }> };
      };
      // the recorded answer says has_more with cursor 100: its continuation is the end
      if (typeof b.search_id === 'string') return ok('clipnet-research', 'video-query-empty');
      if (b.end_date !== RESEARCH_WINDOW_END) return ok('clipnet-research', 'video-query-empty');
      // "docs_example": the documentation's answer as it is (without the fields we ask for)
      const verbatim = b.query?.and?.[0]?.field_values?.[0] === 'docs_example';
      return ok('clipnet-research', verbatim ? 'video-query-docs-example' : 'video-query-fields');
    }
    case '/v2/research/video/comment/list/':
      return ok(
        'clipnet-research',
        json(r.body).cursor === 300 ? 'comment-list-end' : 'comment-list-docs-example',
      );
  }
  return undefined;
}

function graph(r: StubRequest): StubAnswer | undefined {
  const q = r.query;
  switch (r.path) {
    case `/graph/v21.0/${GRAPH_USER_ID}`:
      return ok(
        'picnet-graph',
        (q.get('fields') ?? '').includes('.after(after)')
          ? 'business-discovery-media-page2'
          : 'business-discovery-media-page1',
      );
    case '/graph/v21.0/ig_hashtag_search':
      if (q.get('q') === 'notimestamp') return { body: `{"data":[{"id":"${GRAPH_TAG_NO_TIMESTAMP}"}]}` };
      return ok('picnet-graph', 'ig-hashtag-search');
    case '/graph/v21.0/17841562426109234/recent_media':
      return ok('picnet-graph', q.get('after') === 'after' ? 'hashtag-media-page2' : 'hashtag-media-page1');
    case `/graph/v21.0/${GRAPH_TAG_NO_TIMESTAMP}/recent_media`:
      return ok('picnet-graph', 'hashtag-recent-media-no-timestamp');
  }
  return undefined;
}

interface YtList {
  kind: string;
  items: Array<{ id: string }>;
}

/** videos.list answers with the recorded videos among the ids asked for, as the API does */
function youtubeVideos(ids: string[]): StubAnswer {
  const known = [
    ...fixtureJson<YtList>('youtube-data-api', 'videos').items,
    ...fixtureJson<YtList>('youtube-data-api', 'videos-for-search').items,
  ];
  const items = ids.flatMap((id) => known.filter((v) => v.id === id));
  return { body: JSON.stringify({ kind: 'youtube#videoListResponse', items }) };
}

function youtubeDataApi(r: StubRequest): StubAnswer | undefined {
  const q = r.query;
  switch (r.path) {
    case '/youtube/v3/search':
      if (!q.has('pageToken')) return ok('youtube-data-api', 'search-page1');
      if (q.get('pageToken') === 'CBkQAA') return ok('youtube-data-api', 'search-page2');
      return undefined;
    case '/youtube/v3/videos':
      return youtubeVideos((q.get('id') ?? '').split(','));
    case '/youtube/v3/commentThreads':
      if (!q.has('pageToken')) return ok('youtube-data-api', 'comment-threads-page1');
      if (q.get('pageToken') === RECORDED.youtubeCommentsToken)
        return ok('youtube-data-api', 'comment-threads-page2');
      return undefined;
    case '/youtube/v3/channels': {
      const all = fixtureJson<YtList>('youtube-data-api', 'channels');
      const items = all.items.filter((c) => c.id === q.get('id'));
      return items.length > 0
        ? { body: JSON.stringify({ ...all, items }) }
        : ok('youtube-data-api', 'channels-empty');
    }
    case '/youtube/v3/playlistItems':
      return ok('youtube-data-api', 'playlist-items');
  }
  return undefined;
}

/** every recorded upstream of the provider and official backends, by request */
export const recordedRoutes: Route = (r) =>
  scrapekit(r) ?? datadepth(r) ?? research(r) ?? graph(r) ?? youtubeDataApi(r);
