// Builds a live backend by its short name from the environment. The composition root calls
// createLiveSource() once per name listed in CLIPNET_SOURCE / PICNET_SOURCE / VIDNET_SOURCE and
// hands the results to composeSources() (../failover.ts).
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { HttpClient } from '../http/client.js';
import type { BlipnetSource, ClipnetSource, PicnetSource, Platform, VidnetSource } from '../interface.js';
import {
  ATPROTO_NAME,
  AtprotoBlipnetSource,
  DEFAULT_APPVIEW_URL,
  DEFAULT_PDS_URL,
} from './atproto/blipnet.js';
import { CLIPNET_RESEARCH_NAME, ClipnetResearchSource } from './clipnet-research/clipnet.js';
import {
  httpSettingsFromEnv,
  intSetting,
  LiveConfigError,
  type LiveSourcesEnvType,
  required,
  urlSetting,
} from './config.js';
import { DATADEPTH_NAME, DatadepthClipnetSource } from './datadepth/clipnet.js';
import { DatadepthPicnetSource } from './datadepth/picnet.js';
import { DatadepthVidnetSource } from './datadepth/vidnet.js';
import { PICNET_GRAPH_NAME, PicnetGraphSource } from './picnet-graph/picnet.js';
import { SCRAPEKIT_NAME, ScrapekitClipnetSource } from './scrapekit/clipnet.js';
import { ScrapekitPicnetSource } from './scrapekit/picnet.js';
import { YOUTUBE_DATA_API_NAME, YoutubeDataApiSource } from './youtube-data-api/vidnet.js';
import { YOUTUBEI_NAME, YoutubeiSource } from './youtubei/vidnet.js';

export { LiveConfigError, LiveSourcesEnv, type LiveSourcesEnvType } from './config.js';

export const LIVE_BACKENDS: Record<Platform, readonly string[]> = {
  clipnet: [SCRAPEKIT_NAME, DATADEPTH_NAME, CLIPNET_RESEARCH_NAME],
  picnet: [SCRAPEKIT_NAME, DATADEPTH_NAME, PICNET_GRAPH_NAME],
  // datadepth serves vidnet keyword search only; its other vidnet operations are `unsupported`
  vidnet: [YOUTUBEI_NAME, YOUTUBE_DATA_API_NAME, DATADEPTH_NAME],
  blipnet: [ATPROTO_NAME],
};

export interface LiveSourceDeps {
  logger?: Logger;
  /** undici dispatcher every request of the backend goes through (tests: a MockAgent) */
  dispatcher?: Dispatcher;
  now?: () => Date;
  /** jitter source for retry backoff */
  random?: () => number;
}

export function createLiveSource(
  platform: 'clipnet',
  name: string,
  env: LiveSourcesEnvType,
  deps?: LiveSourceDeps,
): ClipnetSource;
export function createLiveSource(
  platform: 'picnet',
  name: string,
  env: LiveSourcesEnvType,
  deps?: LiveSourceDeps,
): PicnetSource;
export function createLiveSource(
  platform: 'vidnet',
  name: string,
  env: LiveSourcesEnvType,
  deps?: LiveSourceDeps,
): VidnetSource;
export function createLiveSource(
  platform: 'blipnet',
  name: string,
  env: LiveSourcesEnvType,
  deps?: LiveSourceDeps,
): BlipnetSource;
export function createLiveSource(
  platform: Platform,
  name: string,
  env: LiveSourcesEnvType,
  deps?: LiveSourceDeps,
): ClipnetSource | PicnetSource | VidnetSource | BlipnetSource;
export function createLiveSource(
  platform: Platform,
  name: string,
  env: LiveSourcesEnvType,
  deps: LiveSourceDeps = {},
): ClipnetSource | PicnetSource | VidnetSource | BlipnetSource {
  if (!LIVE_BACKENDS[platform].includes(name)) {
    throw new LiveConfigError(
      `${platform.toUpperCase()}_SOURCE: unknown backend "${name}" for ${platform}; known: ${['sandbox', ...LIVE_BACKENDS[platform]].join(', ')}`,
    );
  }
  const settings = httpSettingsFromEnv(env);
  const clients: HttpClient[] = [];
  const http = (secrets: Array<string | undefined>) => {
    const client = new HttpClient(
      `${name}`,
      settings,
      { dispatcher: deps.dispatcher, logger: deps.logger, random: deps.random },
      secrets,
    );
    clients.push(client);
    return client;
  };
  const source = buildSource(platform, name, env, deps.now, http);
  // closing the source closes the connection pools of its HTTP clients (composeSources calls it)
  return Object.assign(source, {
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  });
}

function buildSource(
  platform: Platform,
  name: string,
  env: LiveSourcesEnvType,
  now: (() => Date) | undefined,
  http: (secrets: Array<string | undefined>) => HttpClient,
): ClipnetSource | PicnetSource | VidnetSource | BlipnetSource {
  switch (name) {
    case ATPROTO_NAME: {
      const identifier = env.ATPROTO_IDENTIFIER || undefined;
      const appPassword = env.ATPROTO_APP_PASSWORD || undefined;
      if ((identifier === undefined) !== (appPassword === undefined))
        throw new LiveConfigError(
          'BLIPNET_SOURCE=atproto: ATPROTO_IDENTIFIER and ATPROTO_APP_PASSWORD go together (set both, or neither for anonymous reads)',
        );
      return new AtprotoBlipnetSource(
        {
          appviewUrl: urlSetting(env, 'ATPROTO_APPVIEW_URL') ?? DEFAULT_APPVIEW_URL,
          pdsUrl: urlSetting(env, 'ATPROTO_PDS_URL') ?? DEFAULT_PDS_URL,
          identifier,
          appPassword,
          now,
        },
        http([appPassword]),
      );
    }
    case YOUTUBEI_NAME:
      return new YoutubeiSource(
        {
          lang: env.YOUTUBEI_LANG,
          location: env.YOUTUBEI_LOCATION,
          baseUrl: urlSetting(env, 'YOUTUBEI_BASE_URL'),
          now,
        },
        http([]),
      );
    case SCRAPEKIT_NAME: {
      const [apiKey, baseUrl] = required(env, platform, name, 'SCRAPEKIT_API_KEY', 'SCRAPEKIT_BASE_URL') as [
        string,
        string,
      ];
      const opts = { apiKey, baseUrl, now };
      return platform === 'clipnet'
        ? new ScrapekitClipnetSource(opts, http([apiKey]))
        : new ScrapekitPicnetSource(opts, http([apiKey]));
    }
    case DATADEPTH_NAME: {
      const [token, baseUrl] = required(env, platform, name, 'DATADEPTH_TOKEN', 'DATADEPTH_BASE_URL') as [
        string,
        string,
      ];
      const opts = { token, baseUrl, now };
      if (platform === 'clipnet') return new DatadepthClipnetSource(opts, http([token]));
      if (platform === 'picnet') return new DatadepthPicnetSource(opts, http([token]));
      return new DatadepthVidnetSource(opts, http([token]));
    }
    case CLIPNET_RESEARCH_NAME: {
      const [clientKey, clientSecret] = required(
        env,
        platform,
        name,
        'CLIPNET_RESEARCH_CLIENT_KEY',
        'CLIPNET_RESEARCH_CLIENT_SECRET',
      ) as [string, string];
      return new ClipnetResearchSource(
        {
          clientKey,
          clientSecret,
          baseUrl: env.CLIPNET_RESEARCH_BASE_URL,
          maxWindows: intSetting(env, 'CLIPNET_RESEARCH_MAX_WINDOWS', 1, 12),
          now,
        },
        http([clientKey, clientSecret]),
      );
    }
    case PICNET_GRAPH_NAME: {
      const [accessToken, igUserId] = required(
        env,
        platform,
        name,
        'PICNET_GRAPH_ACCESS_TOKEN',
        'PICNET_GRAPH_USER_ID',
      ) as [string, string];
      return new PicnetGraphSource(
        {
          accessToken,
          igUserId,
          baseUrl: env.PICNET_GRAPH_BASE_URL,
          apiVersion: env.PICNET_GRAPH_API_VERSION,
          now,
        },
        http([accessToken]),
      );
    }
    case YOUTUBE_DATA_API_NAME: {
      const [apiKey] = required(env, platform, name, 'YOUTUBE_API_KEY') as [string];
      return new YoutubeDataApiSource(
        {
          apiKey,
          baseUrl: env.YOUTUBE_API_BASE_URL,
          dailyQuota: intSetting(env, 'YOUTUBE_DAILY_QUOTA', 1, 10_000),
          now,
        },
        http([apiKey]),
      );
    }
  }
  throw new LiveConfigError(`backend ${name} is not available for ${platform}`);
}
