// Drift canary for operators: calls every live backend the configuration names (CLIPNET_SOURCE,
// PICNET_SOURCE, VIDNET_SOURCE, BLIPNET_SOURCE; sandbox is skipped) once per operation, with small limits, and
// prints one line per operation:
//
//   OK      vidnet youtubei search "coffee": 5 items
//   DRIFT   vidnet youtubei channelVideos UC…: 5 items, 2 skipped (layout changed): …
//   EMPTY   clipnet scrapekit hashtagPosts #coffee: nothing returned
//   FAIL    picnet picnet-graph userPosts natgeo: upstream: picnet-graph …: HTTP 400 (…)
//   N/A     vidnet datadepth comments dQw4w9WgXcQ: unsupported: datadepth offers …
//
// It exits 1 when any operation failed, drifted (left items out) or returned nothing, so a
// scheduled run (cron, CI) tells an operator of a layout change before callers meet it.
//
//   npm run check:live -- [--keyword coffee] [--hashtag coffee] [--user natgeo]
//     [--channel UC…] [--shorts-channel UC…] [--video dQw4w9WgXcQ]
//     [--clipnet-post URL] [--picnet-post URL] [--blipnet-user bsky.app] [--blipnet-post URL]
//
// Settings are read as the server reads them (environment, then .env). Needs network.

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Dispatcher } from 'undici';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { parsePostRef } from '../src/services/post-refs.js';
import { liveEnvFrom } from '../src/sources/index.js';
import {
  type BlipnetSource,
  type ClipnetSource,
  type PicnetSource,
  type Platform,
  type SkippedItem,
  SourceError,
  type VidnetSource,
} from '../src/sources/interface.js';
import { createLiveSource } from '../src/sources/providers/index.js';

export interface CheckInputs {
  keyword: string;
  hashtag: string;
  /** a clipnet and picnet username */
  user: string;
  /** a vidnet channel browse id (channel videos) */
  channel: string;
  /** the channel whose Shorts are read (default: `channel`) */
  shortsChannel?: string;
  /** a vidnet video id (comments) */
  video: string;
  /** posts whose comments are read; default: the first post of `user` */
  clipnetPost?: string;
  picnetPost?: string;
  /** a blipnet handle or account id (default: bsky.app) */
  blipnetUser?: string;
  /** a blipnet post whose replies are read; default: the first post of `blipnetUser` */
  blipnetPost?: string;
}

export const DEFAULT_INPUTS: CheckInputs = {
  keyword: 'coffee',
  hashtag: 'coffee',
  user: 'natgeo',
  channel: 'UCuAXFkgsw1L7xaCfnd5JJOw',
  video: 'dQw4w9WgXcQ',
};

export type CheckStatus = 'OK' | 'DRIFT' | 'EMPTY' | 'FAIL' | 'N/A';

export interface CheckResult {
  platform: Platform;
  backend: string;
  operation: string;
  target: string;
  status: CheckStatus;
  items: number;
  skipped: number;
  /** the error (kind: message), the first reason an item was skipped, or why it did not run */
  detail?: string;
}

export interface CheckDeps {
  /** undici dispatcher every request goes through (tests) */
  dispatcher?: Dispatcher;
  now?: () => Date;
  /** told of each result as soon as it is known */
  onResult?: (r: CheckResult) => void;
}

type Op = { operation: string; target: string; run: (ctx: Ctx) => Promise<number> };
type Ctx = { onSkip: (s: SkippedItem) => void };

/** Runs every operation of every configured live backend once; never throws for an upstream failure. */
export async function checkLive(
  env: Record<string, string | undefined>,
  inputs: CheckInputs = DEFAULT_INPUTS,
  deps: CheckDeps = {},
): Promise<CheckResult[]> {
  const config = loadConfig(env);
  const liveEnv = liveEnvFrom(config);
  const results: CheckResult[] = [];
  for (const platform of ['clipnet', 'picnet', 'vidnet', 'blipnet'] as const) {
    for (const backend of config.sources[platform].filter((n) => n !== 'sandbox')) {
      const source = createLiveSource(platform, backend, liveEnv, {
        dispatcher: deps.dispatcher,
        now: deps.now,
      });
      try {
        for (const op of operations(platform, source, inputs)) {
          const r = await runOne(platform, backend, op);
          results.push(r);
          deps.onResult?.(r);
        }
      } finally {
        await (source as { close?: () => Promise<void> }).close?.();
      }
    }
  }
  return results;
}

async function runOne(platform: Platform, backend: string, op: Op): Promise<CheckResult> {
  const skips: SkippedItem[] = [];
  const base = { platform, backend, operation: op.operation, target: op.target };
  try {
    const items = await op.run({ onSkip: (s) => skips.push(s) });
    if (skips.length > 0) {
      return {
        ...base,
        status: 'DRIFT',
        items,
        skipped: skips.length,
        detail: `${skips.length} ${skips[0]!.what} item(s) skipped (layout changed): ${skips[0]!.reason}`,
      };
    }
    if (items === 0) return { ...base, status: 'EMPTY', items, skipped: 0, detail: 'nothing returned' };
    return { ...base, status: 'OK', items, skipped: 0 };
  } catch (e) {
    const kind = e instanceof SourceError ? e.kind : 'error';
    const message = e instanceof Error ? e.message : String(e);
    const status: CheckStatus = kind === 'unsupported' ? 'N/A' : 'FAIL';
    return { ...base, status, items: 0, skipped: skips.length, detail: `${kind}: ${message}` };
  }
}

/** no post to read comments of: not a failure of the backend */
class NotRun extends SourceError {
  constructor(why: string) {
    super('unsupported', why);
  }
}

function operations(
  platform: Platform,
  source: ClipnetSource | PicnetSource | VidnetSource | BlipnetSource,
  inp: CheckInputs,
): Op[] {
  if (platform === 'blipnet') return blipnetOperations(source as BlipnetSource, inp);
  if (platform === 'vidnet') {
    const v = source as VidnetSource;
    const shortsChannel = inp.shortsChannel ?? inp.channel;
    const video = { id: inp.video, form: 'id' as const, input: inp.video };
    return [
      {
        operation: 'search',
        target: `"${inp.keyword}"`,
        run: async (ctx) =>
          (
            await v.search(
              { keyword: inp.keyword, max: 5, depth: 1, period: 'all', sorting: 'relevance' },
              ctx,
            )
          ).videos.length,
      },
      {
        operation: 'hashtag',
        target: `#${inp.hashtag}`,
        run: async (ctx) =>
          (await v.hashtag({ hashtag: inp.hashtag, depth: 1, onlyShorts: false, max: 5 }, ctx)).length,
      },
      {
        operation: 'comments',
        target: inp.video,
        run: async (ctx) => (await v.comments({ video, limit: 5 }, ctx)).length,
      },
      {
        operation: 'channelVideos',
        target: inp.channel,
        run: async (ctx) => (await v.channelVideos({ browseId: inp.channel, depth: 1, max: 5 }, ctx)).length,
      },
      {
        operation: 'channelShorts',
        target: shortsChannel,
        run: async (ctx) => (await v.channelShorts({ browseId: shortsChannel, max: 3 }, ctx)).length,
      },
    ];
  }
  const s = source as ClipnetSource | PicnetSource;
  let firstPost: string | undefined = platform === 'clipnet' ? inp.clipnetPost : inp.picnetPost;
  return [
    {
      operation: 'userPosts',
      target: inp.user,
      run: async (ctx) => {
        const page = await s.userPosts({ username: inp.user, limit: 5 }, ctx);
        firstPost ??= page.items[0]?.item.url;
        return page.items.length;
      },
    },
    {
      operation: 'hashtagPosts',
      target: `#${inp.hashtag}`,
      run: async (ctx) => (await s.hashtagPosts({ hashtag: inp.hashtag, days: 7, max: 5 }, ctx)).length,
    },
    {
      operation: 'comments',
      target: `the first post of ${inp.user}`,
      run: async (ctx) => {
        const post = firstPost === undefined ? null : parsePostRef(platform, firstPost);
        if (!post) throw new NotRun(`no post to read comments of (give --${platform}-post)`);
        return (await s.comments({ post, limit: 5 }, ctx)).length;
      },
    },
  ];
}

function blipnetOperations(b: BlipnetSource, inp: CheckInputs): Op[] {
  const user = inp.blipnetUser ?? 'bsky.app';
  let firstPost = inp.blipnetPost;
  return [
    {
      operation: 'userPosts',
      target: user,
      run: async (ctx) => {
        const page = await b.userPosts({ username: user, limit: 5 }, ctx);
        firstPost ??= page.items.find((p) => !p.item.is_repost)?.item.url;
        return page.items.length;
      },
    },
    {
      operation: 'replies',
      target: `the first post of ${user}`,
      run: async (ctx) => {
        const post = firstPost === undefined ? null : parsePostRef('blipnet', firstPost);
        if (!post) throw new NotRun('no post to read replies of (give --blipnet-post)');
        return (await b.replies({ post, limit: 5 }, ctx)).length;
      },
    },
    {
      operation: 'search',
      target: `"${inp.keyword}"`,
      run: async (ctx) =>
        (await b.search({ keyword: inp.keyword, max: 5, depth: 1, period: 'week', sorting: 'latest' }, ctx))
          .items.length,
    },
    {
      operation: 'hashtagPosts',
      target: `#${inp.hashtag}`,
      run: async (ctx) => (await b.hashtagPosts({ hashtag: inp.hashtag, days: 7, max: 5 }, ctx)).length,
    },
  ];
}

export function formatResult(r: CheckResult): string {
  const what = `${r.platform} ${r.backend} ${r.operation} ${r.target}`;
  const tail =
    r.status === 'OK'
      ? `${r.items} item${r.items === 1 ? '' : 's'}`
      : r.status === 'DRIFT'
        ? `${r.items} items, ${r.detail}`
        : (r.detail ?? '');
  return `${r.status.padEnd(6)} ${what}: ${tail}`;
}

/** whether the run found something an operator should look at */
export function failed(results: readonly CheckResult[]): boolean {
  return results.some((r) => r.status === 'FAIL' || r.status === 'DRIFT' || r.status === 'EMPTY');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      keyword: { type: 'string', default: DEFAULT_INPUTS.keyword },
      hashtag: { type: 'string', default: DEFAULT_INPUTS.hashtag },
      user: { type: 'string', default: DEFAULT_INPUTS.user },
      channel: { type: 'string', default: DEFAULT_INPUTS.channel },
      'shorts-channel': { type: 'string' },
      video: { type: 'string', default: DEFAULT_INPUTS.video },
      'clipnet-post': { type: 'string' },
      'picnet-post': { type: 'string' },
      'blipnet-user': { type: 'string' },
      'blipnet-post': { type: 'string' },
    },
  });
  loadDotEnv(process.env);
  const inputs: CheckInputs = {
    keyword: values.keyword as string,
    hashtag: (values.hashtag as string).replace(/^#/, ''),
    user: (values.user as string).replace(/^@/, ''),
    channel: values.channel as string,
    video: values.video as string,
    ...(values['shorts-channel'] ? { shortsChannel: values['shorts-channel'] } : {}),
    ...(values['clipnet-post'] ? { clipnetPost: values['clipnet-post'] } : {}),
    ...(values['picnet-post'] ? { picnetPost: values['picnet-post'] } : {}),
    ...(values['blipnet-user'] ? { blipnetUser: (values['blipnet-user'] as string).replace(/^@/, '') } : {}),
    ...(values['blipnet-post'] ? { blipnetPost: values['blipnet-post'] } : {}),
  };
  let results: CheckResult[];
  try {
    results = await checkLive(process.env, inputs, { onResult: (r) => console.log(formatResult(r)) });
  } catch (e) {
    if (e instanceof ConfigError || (e instanceof Error && e.name === 'LiveConfigError')) {
      console.error(`check:live: ${e.message}`);
      process.exit(78);
    }
    throw e;
  }
  if (results.length === 0) {
    console.error(
      'check:live: no live backend is configured (CLIPNET_SOURCE, PICNET_SOURCE, VIDNET_SOURCE, BLIPNET_SOURCE)',
    );
    process.exit(2);
  }
  const bad = results.filter((r) => r.status === 'FAIL' || r.status === 'DRIFT' || r.status === 'EMPTY');
  console.log(
    `${results.length - bad.length} of ${results.length} operations OK or not offered; ${bad.length} to look at`,
  );
  process.exit(failed(results) ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
