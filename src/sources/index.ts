// Builds each platform's source from configuration: CLIPNET_SOURCE, PICNET_SOURCE,
// VIDNET_SOURCE and BLIPNET_SOURCE name one backend or several (comma-separated, tried in order for failover).
// `sandbox` is the embedded world; other names are live backends (src/sources/live/).

import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { type Config, ConfigError } from '../config.js';
import { composeSources } from './failover.js';
import type {
  BlipnetSource,
  ClipnetSource,
  PicnetSource,
  Platform,
  Sources,
  VidnetSource,
} from './interface.js';
import { LiveSourcesEnv } from './providers/config.js';
import { createLiveSource, LIVE_BACKENDS, type LiveSourcesEnvType } from './providers/index.js';
import { openSandbox, type Sandbox } from './sandbox/index.js';

export interface SourceDeps {
  /** undici dispatcher for every live backend (tests route it to local stubs) */
  dispatcher?: Dispatcher;
  now?: () => Date;
}

export function liveEnvFrom(config: Config): LiveSourcesEnvType {
  const env: Record<string, string> = {};
  for (const k of Object.keys(LiveSourcesEnv.properties)) {
    const v = config.env[k];
    if (v !== undefined && v !== '') env[k] = v;
  }
  return env as LiveSourcesEnvType;
}

export async function createSources(config: Config, logger: Logger, deps: SourceDeps = {}): Promise<Sources> {
  const platforms: Platform[] = ['clipnet', 'picnet', 'vidnet', 'blipnet'];
  for (const p of platforms)
    for (const name of config.sources[p])
      if (name !== 'sandbox' && !LIVE_BACKENDS[p].includes(name))
        throw new ConfigError(
          `invalid configuration:\n  ${p.toUpperCase()}_SOURCE: unknown backend "${name}" (known: sandbox, ${LIVE_BACKENDS[p].join(', ')})`,
        );
  const needsSandbox = platforms.some((p) => config.sources[p].includes('sandbox'));
  const sandbox: Sandbox | null = needsSandbox
    ? openSandbox({ dbPath: config.SANDBOX_DB, now: deps.now })
    : null;
  const liveEnv = liveEnvFrom(config);
  const liveDeps = { logger, dispatcher: deps.dispatcher, now: deps.now };
  try {
    const clipnet = composeSources(
      'clipnet',
      config.sources.clipnet.map(
        (n): ClipnetSource =>
          n === 'sandbox' ? sandbox!.clipnet : createLiveSource('clipnet', n, liveEnv, liveDeps),
      ),
    );
    const picnet = composeSources(
      'picnet',
      config.sources.picnet.map(
        (n): PicnetSource =>
          n === 'sandbox' ? sandbox!.picnet : createLiveSource('picnet', n, liveEnv, liveDeps),
      ),
    );
    const vidnet = composeSources(
      'vidnet',
      config.sources.vidnet.map(
        (n): VidnetSource =>
          n === 'sandbox' ? sandbox!.vidnet : createLiveSource('vidnet', n, liveEnv, liveDeps),
      ),
    );
    const blipnet = composeSources(
      'blipnet',
      config.sources.blipnet.map(
        (n): BlipnetSource =>
          n === 'sandbox' ? sandbox!.blipnet : createLiveSource('blipnet', n, liveEnv, liveDeps),
      ),
    );
    return {
      clipnet,
      picnet,
      vidnet,
      blipnet,
      async close() {
        // composeSources closes every backend it was given (their HTTP connection pools)
        await Promise.all(
          [clipnet, picnet, vidnet, blipnet].map((s) => (s as { close?: () => Promise<void> }).close?.()),
        );
        sandbox?.close();
      },
    };
  } catch (e) {
    sandbox?.close();
    if (e instanceof Error && e.name === 'LiveConfigError')
      throw new ConfigError(`invalid configuration:\n  ${e.message}`);
    throw e;
  }
}
