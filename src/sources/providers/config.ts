// Environment variables read by the live backends. All optional here: which ones are required
// depends on the backends named in CLIPNET_SOURCE / PICNET_SOURCE / VIDNET_SOURCE, and
// createLiveSource() fails with a clear message when one it needs is missing. The service's
// config schema merges this object.
import { type Static, Type } from '@sinclair/typebox';
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from '../http/client.js';

const opt = (description: string) => Type.Optional(Type.String({ description }));

export const LiveSourcesEnv = Type.Object({
  // shared HTTP layer
  UPSTREAM_TIMEOUT_MS: opt(
    `Per-attempt timeout of an upstream request, ms (default ${DEFAULT_HTTP_SETTINGS.timeoutMs})`,
  ),
  UPSTREAM_DEADLINE_MS: opt(
    `Overall deadline of one upstream call including retries and Retry-After waits, ms (default ${DEFAULT_HTTP_SETTINGS.deadlineMs})`,
  ),
  UPSTREAM_RETRIES: opt(
    `Extra attempts for safe requests after 429/502/503/504/resets/timeouts (default ${DEFAULT_HTTP_SETTINGS.retries})`,
  ),
  UPSTREAM_CONCURRENCY: opt(
    `Concurrent upstream requests per backend (default ${DEFAULT_HTTP_SETTINGS.concurrency})`,
  ),
  UPSTREAM_QUEUE: opt(
    `Requests that may wait for a slot per backend before failing as unavailable (default ${DEFAULT_HTTP_SETTINGS.queue})`,
  ),
  UPSTREAM_PROXY_URL: opt(
    'Outbound HTTP(S) proxy for every upstream request, e.g. http://user:pass@proxy:3128',
  ),
  UPSTREAM_BREAKER_THRESHOLD: opt(
    `Consecutive failed attempts (5xx, timeouts, connection errors) that switch a backend off (default ${DEFAULT_HTTP_SETTINGS.breakerThreshold})`,
  ),
  UPSTREAM_BREAKER_HALF_OPEN_MS: opt(
    `How long a switched-off backend stays off before one probe request, ms (default ${DEFAULT_HTTP_SETTINGS.breakerHalfOpenMs})`,
  ),
  UPSTREAM_BACKOFF_BASE_MS: opt(
    `First retry delay, doubled per retry with jitter, ms (default ${DEFAULT_HTTP_SETTINGS.backoffBaseMs})`,
  ),
  UPSTREAM_BACKOFF_MAX_MS: opt(`Largest retry delay, ms (default ${DEFAULT_HTTP_SETTINGS.backoffMaxMs})`),

  // vidnet: youtubei
  YOUTUBEI_LANG: opt('youtubei: interface language (hl) sent to InnerTube, e.g. en (default en)'),
  YOUTUBEI_LOCATION: opt('youtubei: content region (gl) sent to InnerTube, e.g. US (default US)'),
  YOUTUBEI_BASE_URL: opt(
    'youtubei: origin that replaces https://www.youtube.com in every InnerTube request, e.g. a mirror or a local replay server (default https://www.youtube.com)',
  ),

  // vidnet: youtube-data-api
  YOUTUBE_API_KEY: opt('youtube-data-api: YouTube Data API v3 key (required by that backend)'),
  YOUTUBE_API_BASE_URL: opt('youtube-data-api: API root (default https://www.googleapis.com/youtube/v3)'),
  YOUTUBE_DAILY_QUOTA: opt(
    'youtube-data-api: daily quota units of the key; calls that would exceed it fail as throttled (default 10000)',
  ),

  // blipnet: atproto
  ATPROTO_APPVIEW_URL: opt(
    'atproto: the AppView whose public XRPC read API serves blipnet (default https://public.api.bsky.app)',
  ),
  ATPROTO_IDENTIFIER: opt(
    'atproto: optional handle or email of an account to sign in with (with ATPROTO_APP_PASSWORD), for AppViews that refuse some anonymous reads such as post search',
  ),
  ATPROTO_APP_PASSWORD: opt(
    "atproto: that account's app password; when set, every read goes signed in through ATPROTO_PDS_URL",
  ),
  ATPROTO_PDS_URL: opt(
    "atproto: the signing-in account's PDS, which proxies reads to its AppView (default https://bsky.social)",
  ),

  // data providers
  SCRAPEKIT_API_KEY: opt(
    'scrapekit provider: API key, sent as the x-api-key header (required by that backend)',
  ),
  SCRAPEKIT_BASE_URL: opt('scrapekit provider: API root of the provider (required by that backend)'),
  DATADEPTH_TOKEN: opt(
    'datadepth provider: API token, sent as the token query parameter (required by that backend)',
  ),
  DATADEPTH_BASE_URL: opt('datadepth provider: API root of the provider (required by that backend)'),

  // clipnet: clipnet-research
  CLIPNET_RESEARCH_CLIENT_KEY: opt(
    'clipnet-research: client key of an approved Research API app (required by that backend)',
  ),
  CLIPNET_RESEARCH_CLIENT_SECRET: opt(
    'clipnet-research: client secret of that app (required by that backend)',
  ),
  CLIPNET_RESEARCH_BASE_URL: opt('clipnet-research: API root (default https://open.tiktokapis.com)'),
  CLIPNET_RESEARCH_MAX_WINDOWS: opt(
    'clipnet-research: how many 30-day windows, newest first, user posts walk back through (default 12, about a year)',
  ),

  // picnet: picnet-graph
  PICNET_GRAPH_ACCESS_TOKEN: opt(
    'picnet-graph: Graph API access token of the app (required by that backend)',
  ),
  PICNET_GRAPH_USER_ID: opt(
    "picnet-graph: the app's own professional account id that business discovery and hashtag search run as (required)",
  ),
  PICNET_GRAPH_BASE_URL: opt('picnet-graph: API root (default https://graph.facebook.com)'),
  PICNET_GRAPH_API_VERSION: opt('picnet-graph: Graph API version (default v21.0)'),
});
export type LiveSourcesEnv = Static<typeof LiveSourcesEnv>;
/** alias used by createLiveSource's signature */
export type LiveSourcesEnvType = LiveSourcesEnv;

export class LiveConfigError extends Error {
  override readonly name = 'LiveConfigError';
}

function int(env: LiveSourcesEnv, key: keyof LiveSourcesEnv, min: number): number | undefined {
  const raw = env[key];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new LiveConfigError(`${key} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export function httpSettingsFromEnv(env: LiveSourcesEnv): Partial<HttpSettings> {
  const s: Partial<HttpSettings> = {
    timeoutMs: int(env, 'UPSTREAM_TIMEOUT_MS', 1),
    deadlineMs: int(env, 'UPSTREAM_DEADLINE_MS', 1),
    retries: int(env, 'UPSTREAM_RETRIES', 0),
    concurrency: int(env, 'UPSTREAM_CONCURRENCY', 1),
    queue: int(env, 'UPSTREAM_QUEUE', 0),
    breakerThreshold: int(env, 'UPSTREAM_BREAKER_THRESHOLD', 1),
    breakerHalfOpenMs: int(env, 'UPSTREAM_BREAKER_HALF_OPEN_MS', 1),
    backoffBaseMs: int(env, 'UPSTREAM_BACKOFF_BASE_MS', 0),
    backoffMaxMs: int(env, 'UPSTREAM_BACKOFF_MAX_MS', 0),
    proxyUrl: env.UPSTREAM_PROXY_URL || undefined,
  };
  if (s.proxyUrl) {
    let u: URL;
    try {
      u = new URL(s.proxyUrl);
    } catch {
      throw new LiveConfigError('UPSTREAM_PROXY_URL is not a valid URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw new LiveConfigError('UPSTREAM_PROXY_URL must be an http:// or https:// URL');
    }
  }
  return s;
}

export function intSetting(
  env: LiveSourcesEnv,
  key: keyof LiveSourcesEnv,
  min: number,
  dflt: number,
): number {
  return int(env, key, min) ?? dflt;
}

/** an optional http(s) URL setting, without trailing slashes */
export function urlSetting(env: LiveSourcesEnv, key: keyof LiveSourcesEnv): string | undefined {
  const raw = env[key];
  if (raw === undefined || raw === '') return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new LiveConfigError(`${key} is not a valid URL: "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new LiveConfigError(`${key} must be an http:// or https:// URL`);
  }
  return raw.replace(/\/+$/, '');
}

/** the value of a required variable, or a configuration error naming the backend that needs it */
export function required(
  env: LiveSourcesEnv,
  platform: string,
  backend: string,
  ...keys: Array<keyof LiveSourcesEnv>
): string[] {
  const missing = keys.filter((k) => !env[k]);
  if (missing.length > 0) {
    throw new LiveConfigError(`${platform.toUpperCase()}_SOURCE=${backend} needs ${missing.join(' and ')}`);
  }
  return keys.map((k) => env[k] as string);
}
