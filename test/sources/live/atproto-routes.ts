// The AppView stand-in for the atproto backend: XRPC queries answered from the fixtures in
// test/fixtures/live/atproto/ (see SOURCES.md there), with the AppView's own error answers for
// unknown accounts and posts, and targets that misbehave on purpose (rate limit, 5xx, 403).
import { fixture } from './helpers.js';
import type { Route, StubAnswer } from './stub.js';

const atproto = (name: string, status = 200, headers?: Record<string, string>): StubAnswer => ({
  status,
  body: fixture('atproto', name),
  ...(headers ? { headers } : {}),
});

export const ATPROTO = {
  /** the account of the recorded author feed and profile */
  profileHandle: 'shinyakato.dev',
  profileDid: 'did:plc:iijrtk7ocored6zuziwmqq3c',
  /** the author of the recorded thread, by handle */
  threadHandle: 'aliceisjustplaying.bsky.social',
  threadDid: 'did:plc:by3jhwdqgbtrcc7q4tkkv3cf',
  threadRkey: '3jtvi2jrijx2y',
  /** a post the AppView answers with notFoundPost (deleted) */
  deletedRkey: '3jtoq4zmhvz2z',
  /** the cursor of the recorded author feed's first page */
  feedCursor: '1682809172466::bafyreihdpdn7uiqmshzb2y4o67gzy2aeairq6phuk476k2oidhy2p5dbwu',
  /** unix seconds the rate-limited answer says the window resets at, relative to now */
  resetIn: 7,
  /** the app password the stand-in accepts for profileHandle */
  appPassword: 'abcd-efgh-ijkl-mnop',
};

/** answers /xrpc/<nsid> like an AppView; `now` is the clock the rate limit's reset is set from */
export function atprotoRoutes(now: () => Date): Route {
  return (r) => {
    if (r.method === 'POST' && r.path === '/xrpc/com.atproto.server.createSession') {
      const { identifier, password } = JSON.parse(r.body || '{}') as Record<string, string>;
      return identifier === ATPROTO.profileHandle && password === ATPROTO.appPassword
        ? atproto('create-session')
        : {
            status: 401,
            body: '{"error":"AuthenticationRequired","message":"Invalid identifier or password"}',
          };
    }
    if (r.method !== 'GET' || !r.path.startsWith('/xrpc/')) return undefined;
    const q = r.query;
    switch (r.path.slice('/xrpc/'.length)) {
      case 'app.bsky.actor.getProfile':
        return q.get('actor') === ATPROTO.profileHandle || q.get('actor') === ATPROTO.profileDid
          ? atproto('get-profile')
          : atproto('error-profile-not-found', 400);
      case 'com.atproto.identity.resolveHandle':
        return q.get('handle') === ATPROTO.threadHandle
          ? atproto('resolve-handle')
          : { status: 400, body: '{"error":"InvalidRequest","message":"Unable to resolve handle"}' };
      case 'app.bsky.feed.getAuthorFeed':
        if (q.get('actor') !== ATPROTO.profileDid) return atproto('error-profile-not-found', 400);
        if (!q.has('cursor')) return atproto('get-author-feed-page1');
        return q.get('cursor') === ATPROTO.feedCursor ? atproto('get-author-feed-page2') : undefined;
      case 'app.bsky.feed.getPostThread': {
        const uri = q.get('uri') ?? '';
        if (uri === `at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.threadRkey}`)
          return atproto('get-post-thread');
        if (uri === `at://${ATPROTO.threadDid}/app.bsky.feed.post/${ATPROTO.deletedRkey}`)
          return atproto('get-post-thread-not-found');
        return atproto('error-post-not-found', 400);
      }
      case 'app.bsky.feed.searchPosts': {
        const term = q.get('q');
        if (term === 'bluesky')
          return atproto(q.get('cursor') === '25' ? 'search-posts-page2' : 'search-posts-page1');
        if (term === '#coffee' && q.get('tag') === 'coffee') return atproto('search-posts-tag-coffee');
        if (term === 'ratelimited')
          return atproto('error-rate-limit', 429, {
            'ratelimit-limit': '3000',
            'ratelimit-remaining': '0',
            'ratelimit-reset': String(Math.floor(now().getTime() / 1000) + ATPROTO.resetIn),
            'ratelimit-policy': '3000;w=300',
          });
        if (term === 'broken')
          return { status: 502, body: '{"error":"UpstreamFailure","message":"Upstream Failure"}' };
        if (term === 'forbidden') return atproto('error-search-forbidden', 403);
        return { status: 200, body: '{"posts":[],"hitsTotal":0}' };
      }
    }
    return undefined;
  };
}
