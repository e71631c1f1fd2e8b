// Records fresh upstream fixtures on a networked machine with real credentials:
//
//   YOUTUBE_API_KEY=… SCRAPEKIT_API_KEY=… SCRAPEKIT_BASE_URL=… npm run record:fixtures -- \
//     --backend youtube-data-api --keyword coffee --channel UCuAXFkgsw1L7xaCfnd5JJOw --video dQw4w9WgXcQ
//   DATADEPTH_TOKEN=… DATADEPTH_BASE_URL=… npm run record:fixtures -- --backend datadepth \
//     --user brewlab --hashtag coffee --post <a clipnet video id or a picnet shortcode>
//   npm run record:fixtures -- --backend youtubei --keyword coffee --hashtag coffee \
//     --channel UC… --shorts-channel UC… --video dQw4w9WgXcQ
//   npm run record:fixtures -- --backend atproto --blipnet-user bsky.app --keyword coffee \
//     --hashtag coffee --post https://bsky.app/profile/<handle>/post/<key>
//
// Every response body the chosen backends receive is written, scrubbed, to
// test/fixtures/live/<backend>/recorded-<platform>-<n>-<op>.json (--out changes the folder).
// youtubei's are written as replayable exchanges, the request (path, body without the client
// `context`) beside the response (status, body), in the format test/sources/live/replay.ts
// serves (see test/fixtures/live/youtubei/SOURCES.md). Scrubbing removes configured secret
// values, credential-named query parameters and JSON fields (keys, tokens, cookies, visitor
// data) and email addresses. Review the files, trim them (cut long item lists, keep the
// structure and the continuation items) and name their source before committing them. Never
// run by the tests against a real upstream (it needs network).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { parsePostRef } from '../src/services/post-refs.js';
import { Redactor } from '../src/sources/http/redact.js';
import type {
  BlipnetSource,
  ClipnetSource,
  PicnetSource,
  Platform,
  VidnetSource,
} from '../src/sources/interface.js';
import { createLiveSource, LIVE_BACKENDS } from '../src/sources/providers/index.js';
import { YOUTUBEI_NAME } from '../src/sources/providers/youtubei/vidnet.js';
import type { CheckInputs } from './check-live.js';

/** what each operation is called with (the canary's inputs) and the post whose comments are read */
export type RecordInputs = CheckInputs & { post?: string };

export interface RecordOptions {
  backends: string[];
  env: Record<string, string | undefined>;
  inputs: RecordInputs;
  /** the fixtures folder; each backend writes into a subfolder named after it */
  outDir: string;
  log?: (line: string) => void;
}

interface Captured {
  method: string;
  path: string;
  requestBody: string | undefined;
  status: number;
  body: string;
}

const PERSONAL: Array<[RegExp, string]> = [
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, 'user@example.com'],
  [
    /"(visitorData|visitor_data|cookie|set-cookie|sessionid|csrftoken|fbtrace_id|log_id)"\s*:\s*"[^"]*"/gi,
    '"$1":"scrubbed"',
  ],
];

/**
 * Masks the configured secrets, credential-named fields and parameters, and personal data. For
 * InnerTube (`exact`), credential-named fields are kept: it gets no credential from us, and its
 * continuation "token" fields must stay as sent for the recording to replay.
 */
function scrubber(env: Record<string, string | undefined>, exact = false): (text: string) => string {
  const secrets = Object.entries(env)
    .filter(([k, v]) => /KEY|SECRET|TOKEN|PASSWORD/.test(k) && typeof v === 'string' && v.length >= 4)
    .map(([, v]) => v as string);
  const redactor = new Redactor(secrets);
  return (text) => {
    let out = exact ? secrets.reduce((t, s) => t.split(s).join('[redacted]'), text) : redactor.text(text);
    for (const [re, to] of PERSONAL) out = out.replace(re, to);
    return out;
  };
}

/** a dispatcher that tees every exchange into the recorder */
class Recording extends Agent {
  constructor(private readonly onExchange: (c: Captured) => void) {
    super();
  }
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const chunks: Buffer[] = [];
    let status = 0;
    const onExchange = this.onExchange;
    // the handler is a class instance: delegate to its methods rather than spreading it
    const h = handler as Dispatcher.DispatchHandler & {
      onConnect?: (...a: unknown[]) => void;
      onHeaders?: (statusCode: number, ...rest: unknown[]) => boolean;
      onUpgrade?: (...a: unknown[]) => void;
      onBodySent?: (...a: unknown[]) => void;
    };
    const wrapped = {
      onConnect: (...a: unknown[]) => h.onConnect?.(...a),
      onError: (e: Error) => h.onError?.(e),
      onUpgrade: (...a: unknown[]) => h.onUpgrade?.(...a),
      onBodySent: (...a: unknown[]) => h.onBodySent?.(...a),
      onHeaders: (statusCode: number, ...rest: unknown[]) => {
        status = statusCode;
        return h.onHeaders ? h.onHeaders(statusCode, ...rest) : true;
      },
      onData: (chunk: Buffer) => {
        chunks.push(chunk);
        return h.onData?.(chunk) ?? true;
      },
      onComplete: (trailers: string[] | null) => {
        onExchange({
          method: String(opts.method),
          path: String(opts.path),
          requestBody: typeof opts.body === 'string' ? opts.body : undefined,
          status,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        h.onComplete?.(trailers);
      },
    } as unknown as Dispatcher.DispatchHandler;
    return super.dispatch(
      { ...opts, headers: { ...(opts.headers as Record<string, string>), 'accept-encoding': 'identity' } },
      wrapped,
    );
  }
}

/** a youtubei exchange in the replay format: the request line and body, the answer compact */
function exchangeFile(c: Captured, scrub: (t: string) => string): string {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(c.requestBody ?? '{}') as Record<string, unknown>;
  } catch {
    // not JSON: recorded without a body
  }
  const { context: _context, ...sans } = body;
  const request = { method: c.method, path: new URL(c.path, 'http://x').pathname, body: sans };
  let response: unknown;
  try {
    response = JSON.parse(scrub(c.body));
  } catch {
    response = scrub(c.body);
  }
  return `{\n "request": ${JSON.stringify(request)},\n "response": {"status": ${c.status}, "body": ${JSON.stringify(response)}}\n}\n`;
}

/** Records what the chosen backends receive for one call of each operation; returns the files written. */
export async function recordFixtures(o: RecordOptions): Promise<string[]> {
  const log = o.log ?? ((l: string) => console.log(l));
  const scrub = scrubber(o.env);
  const exact = scrubber(o.env, true);
  const written: string[] = [];
  for (const [platform, names] of Object.entries(LIVE_BACKENDS) as Array<[Platform, readonly string[]]>) {
    for (const name of names.filter((n) => o.backends.includes(n))) {
      const dir = join(o.outDir, name);
      mkdirSync(dir, { recursive: true });
      let n = 0;
      const dispatcher = new Recording((c) => {
        const op = new URL(c.path, 'http://x').pathname.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
        const file = join(dir, `recorded-${platform}-${String(++n).padStart(2, '0')}-${op}.json`);
        writeFileSync(file, name === YOUTUBEI_NAME ? exchangeFile(c, exact) : scrub(c.body));
        written.push(file);
        log(`wrote ${file}`);
      });
      const src = createLiveSource(platform, name, o.env, { dispatcher });
      const ref = (id: string) => ({ id, form: 'id' as const, input: id });
      const i = o.inputs;
      const tryOp = async (label: string, fn: () => Promise<unknown>) => {
        try {
          await fn();
        } catch (e) {
          log(`${name} ${label}: ${scrub(e instanceof Error ? e.message : String(e))}`);
        }
      };
      if (platform === 'blipnet') {
        const b = src as BlipnetSource;
        await tryOp('userPosts', () => b.userPosts({ username: i.blipnetUser ?? i.user, limit: 30 }));
        const post = i.post ? parsePostRef('blipnet', i.post) : null;
        if (post) await tryOp('replies', () => b.replies({ post, limit: 50 }));
        await tryOp('search', () =>
          b.search({ keyword: i.keyword, max: 50, depth: 2, period: 'week', sorting: 'latest' }),
        );
        await tryOp('hashtagPosts', () => b.hashtagPosts({ hashtag: i.hashtag, days: 7, max: 30 }));
      } else if (platform === 'vidnet') {
        const v = src as VidnetSource;
        await tryOp('search', () =>
          v.search({ keyword: i.keyword, max: 40, depth: 2, period: 'all', sorting: 'relevance' }),
        );
        await tryOp('hashtag', () => v.hashtag({ hashtag: i.hashtag, depth: 1, onlyShorts: false, max: 20 }));
        await tryOp('comments', () => v.comments({ video: ref(i.video), limit: 40 }));
        await tryOp('channelVideos', () => v.channelVideos({ browseId: i.channel, depth: 2, max: 40 }));
        await tryOp('channelShorts', () =>
          v.channelShorts({ browseId: i.shortsChannel ?? i.channel, max: 10 }),
        );
      } else {
        const s = src as ClipnetSource | PicnetSource;
        await tryOp('userPosts', () => s.userPosts({ username: i.user, limit: 30 }));
        await tryOp('hashtagPosts', () => s.hashtagPosts({ hashtag: i.hashtag, days: 7, max: 30 }));
        const post = i.post;
        if (post) await tryOp('comments', () => s.comments({ post: ref(post), limit: 30 }));
      }
      await (src as { close?: () => Promise<void> }).close?.();
      await dispatcher.close();
    }
  }
  return written;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string', multiple: true },
      keyword: { type: 'string', default: 'coffee' },
      hashtag: { type: 'string', default: 'coffee' },
      user: { type: 'string', default: 'natgeo' },
      channel: { type: 'string', default: 'UCuAXFkgsw1L7xaCfnd5JJOw' },
      'shorts-channel': { type: 'string' },
      video: { type: 'string', default: 'dQw4w9WgXcQ' },
      post: { type: 'string' },
      'blipnet-user': { type: 'string' },
      out: { type: 'string', default: 'test/fixtures/live' },
    },
  });
  const wanted = values.backend ?? [];
  if (wanted.length === 0)
    throw new Error(
      `name at least one --backend (${[...new Set(Object.values(LIVE_BACKENDS).flat())].join(', ')})`,
    );
  await recordFixtures({
    backends: wanted,
    env: process.env,
    outDir: values.out as string,
    inputs: {
      keyword: values.keyword as string,
      hashtag: values.hashtag as string,
      user: values.user as string,
      channel: values.channel as string,
      video: values.video as string,
      ...(values['shorts-channel'] ? { shortsChannel: values['shorts-channel'] } : {}),
      ...(values.post ? { post: values.post } : {}),
      ...(values['blipnet-user'] ? { blipnetUser: values['blipnet-user'] } : {}),
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(scrubber(process.env)(e instanceof Error ? e.message : String(e)));
    process.exit(1);
  });
}
