// Records fresh upstream fixtures on a networked machine with real credentials:
//
//   YOUTUBE_API_KEY=… SCRAPEKIT_API_KEY=… SCRAPEKIT_BASE_URL=… npm run record:fixtures -- \
//     --backend youtube-data-api --keyword coffee --channel UCuAXFkgsw1L7xaCfnd5JJOw --video dQw4w9WgXcQ
//   DATADEPTH_TOKEN=… DATADEPTH_BASE_URL=… npm run record:fixtures -- --backend datadepth \
//     --user brewlab --hashtag coffee --post <a clipnet video id or a picnet shortcode>
//
// Every response body the chosen backends receive is written, scrubbed, to
// test/fixtures/live/<backend>/recorded-<n>-<op>.json. Scrubbing removes configured secret
// values, credential-named query parameters and JSON fields (keys, tokens, cookies) and email
// addresses. Review the files before committing them. Never run by the tests (it needs network).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { Redactor } from '../src/sources/http/redact.js';
import type { ClipnetSource, PicnetSource, Platform, VidnetSource } from '../src/sources/interface.js';
import { createLiveSource, LIVE_BACKENDS } from '../src/sources/live/index.js';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', multiple: true },
    keyword: { type: 'string', default: 'coffee' },
    hashtag: { type: 'string', default: 'coffee' },
    user: { type: 'string', default: 'natgeo' },
    channel: { type: 'string', default: 'UCuAXFkgsw1L7xaCfnd5JJOw' },
    video: { type: 'string', default: 'dQw4w9WgXcQ' },
    post: { type: 'string' },
  },
});

const env = process.env as Record<string, string | undefined>;
const secrets = Object.entries(env)
  .filter(([k]) => /KEY|SECRET|TOKEN|PASSWORD/.test(k))
  .map(([, v]) => v);
const redactor = new Redactor(secrets);

function scrub(text: string): string {
  return redactor
    .text(text)
    .replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, 'user@example.com')
    .replace(
      /"(visitorData|visitor_data|cookie|set-cookie|sessionid|csrftoken|fbtrace_id|log_id)"\s*:\s*"[^"]*"/gi,
      '"$1":"scrubbed"',
    );
}

/** a dispatcher that tees every response body into the recorder */
class Recording extends Agent {
  constructor(private readonly onBody: (path: string, body: string) => void) {
    super();
  }
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const chunks: Buffer[] = [];
    const onBody = this.onBody;
    const wrapped: Dispatcher.DispatchHandler = {
      ...handler,
      onData: (chunk: Buffer) => {
        chunks.push(chunk);
        return handler.onData?.(chunk) ?? true;
      },
      onComplete: (trailers: string[] | null) => {
        onBody(String(opts.path), Buffer.concat(chunks).toString('utf8'));
        handler.onComplete?.(trailers);
      },
    };
    return super.dispatch(
      { ...opts, headers: { ...(opts.headers as Record<string, string>), 'accept-encoding': 'identity' } },
      wrapped,
    );
  }
}

async function main(): Promise<void> {
  const wanted = values.backend ?? [];
  if (wanted.length === 0)
    throw new Error(
      `name at least one --backend (${[...new Set(Object.values(LIVE_BACKENDS).flat())].join(', ')})`,
    );
  for (const [platform, names] of Object.entries(LIVE_BACKENDS) as Array<[Platform, readonly string[]]>) {
    for (const name of names.filter((n) => wanted.includes(n))) {
      const dir = join('test/fixtures/live', name);
      mkdirSync(dir, { recursive: true });
      let n = 0;
      const dispatcher = new Recording((path, body) => {
        const op = new URL(path, 'http://x').pathname.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
        const file = join(dir, `recorded-${platform}-${String(++n).padStart(2, '0')}-${op}.json`);
        writeFileSync(file, scrub(body));
        console.log(`wrote ${file}`);
      });
      const src = createLiveSource(platform, name, env, { dispatcher });
      const ref = (id: string) => ({ id, form: 'id' as const, input: id });
      const tryOp = async (label: string, fn: () => Promise<unknown>) => {
        try {
          await fn();
        } catch (e) {
          console.warn(`${name} ${label}: ${redactor.text(e instanceof Error ? e.message : String(e))}`);
        }
      };
      if (platform === 'vidnet') {
        const v = src as VidnetSource;
        await tryOp('search', () =>
          v.search({
            keyword: values.keyword as string,
            max: 40,
            depth: 2,
            period: 'week',
            sorting: 'relevance',
          }),
        );
        await tryOp('hashtag', () =>
          v.hashtag({ hashtag: values.hashtag as string, depth: 1, onlyShorts: false, max: 20 }),
        );
        await tryOp('comments', () => v.comments({ video: ref(values.video as string), limit: 40 }));
        await tryOp('channelVideos', () =>
          v.channelVideos({ browseId: values.channel as string, depth: 2, max: 40 }),
        );
        await tryOp('channelShorts', () => v.channelShorts({ browseId: values.channel as string, max: 10 }));
      } else {
        const s = src as ClipnetSource | PicnetSource;
        await tryOp('userPosts', () => s.userPosts({ username: values.user as string, limit: 30 }));
        await tryOp('hashtagPosts', () =>
          s.hashtagPosts({ hashtag: values.hashtag as string, days: 7, max: 30 }),
        );
        if (values.post)
          await tryOp('comments', () => s.comments({ post: ref(values.post as string), limit: 30 }));
      }
      await dispatcher.close();
    }
  }
}

main().catch((e: unknown) => {
  console.error(redactor.text(e instanceof Error ? e.message : String(e)));
  process.exit(1);
});
