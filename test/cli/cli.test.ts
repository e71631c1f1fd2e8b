// The CLI against the real app on the sandbox, run in-process through run() (and as a process
// for the launcher): full pulls to CSV and JSONL match the API page by page, --max-credits never
// overspends, retries are charged once, errors print their code and exit with the documented code.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../packages/cli/src/commands.js';
import { commandHelp } from '../../packages/cli/src/help.js';
import { flatten } from '../../packages/cli/src/output.js';
import { EXIT, run } from '../../packages/cli/src/run.js';
import { Gleaner } from '../../packages/client/src/index.js';
import { ROOT } from '../../src/paths.js';
import { failingClipnet, type LiveApp, startLive } from '../client/live.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function cli(argv: string[], env: Record<string, string | undefined>, stdin = ''): Promise<Ran> {
  const out = capture();
  const err = capture();
  const code = await run(argv, {
    env: { HOME: '/nonexistent-home', ...env },
    stdout: out.stream,
    stderr: err.stream,
    stdin: () => stdin,
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** RFC 4180 reader (quoted fields with commas, quotes and line breaks) */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

describe('gleaner CLI on the sandbox', () => {
  let t: LiveApp;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    t = await startLive({ credits: 5000 });
    env = { GLEANER_API_KEY: t.key, GLEANER_BASE_URL: t.url };
    dir = mkdtempSync(join(tmpdir(), 'gleaner-cli-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** cli() with what the run spent from the key's balance */
  async function spending(argv: string[]): Promise<Ran & { spent: number }> {
    const before = await t.balance();
    const r = await cli(argv, env);
    return { ...r, spent: before - (await t.balance()) };
  }

  it('pulls every post of a user to JSONL and CSV, matching the API page by page', async () => {
    // the API itself, page by page
    const client = new Gleaner({ apiKey: t.key, baseUrl: t.url });
    const pages: Array<Array<Record<string, unknown>>> = [];
    for await (const p of client
      .iterateClipnetPosts({ username: 'rafatech', limit: 7, enrich: ['sentiment', 'topics'] })
      .pages())
      pages.push(p.data.posts as unknown as Array<Record<string, unknown>>);
    const apiItems = pages.flat();
    expect(pages.length).toBeGreaterThan(2);

    const args = [
      'clipnet',
      'posts',
      '--username',
      'rafatech',
      '--limit',
      '7',
      '--all',
      '--enrich',
      'sentiment,topics',
    ];
    const before = await t.balance();
    const jsonl = await cli(
      [...args, '--format', 'jsonl', '--out', join(dir, 'posts.jsonl'), '--verbose'],
      env,
    );
    expect(jsonl.code).toBe(EXIT.ok);
    const lines = readFileSync(join(dir, 'posts.jsonl'), 'utf8').trimEnd().split('\n');
    const items = lines.map((l) => JSON.parse(l));
    let at = 0;
    for (const page of pages) {
      expect(items.slice(at, at + page.length)).toEqual(page);
      at += page.length;
    }
    expect(items).toHaveLength(apiItems.length);
    // one request per page, each logged, the key never
    expect(jsonl.stderr.match(/POST \/api\/v1\/clipnet\/posts/g)).toHaveLength(pages.length);
    expect(jsonl.stderr).not.toContain(t.key);
    const spent = before - (await t.balance());
    expect(jsonl.stderr).toContain(
      `${apiItems.length} items, ${pages.length} requests, ${spent} credits used`,
    );

    const csv = await cli([...args, '--out', join(dir, 'posts.csv')], env);
    expect(csv.code).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(readFileSync(join(dir, 'posts.csv'), 'utf8'));
    expect(header).toEqual([
      'id',
      'caption',
      'url',
      'timestamp',
      'stats.views',
      'stats.likes',
      'stats.comments',
      'stats.shares',
      'enrichment.sentiment',
      'enrichment.sentiment_score',
      'enrichment.topics',
    ]);
    expect(rows).toHaveLength(apiItems.length);
    apiItems.forEach((item, i) => {
      const flat = flatten(item);
      expect(rows[i]).toEqual(header!.map((h) => cell(flat[h])));
      const topics = (item.enrichment as { topics: string[] }).topics;
      expect(rows[i]![header!.indexOf('enrichment.topics')]).toBe(topics.join('|'));
    });
  });

  it('--all without --limit asks for the largest page the contract allows, each paying one base charge', async () => {
    const openapi = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
    for (const platform of ['clipnet', 'picnet']) {
      const limit =
        openapi.paths[`/api/v1/${platform}/posts`].post.requestBody.content['application/json'].schema
          .properties.limit;
      const username = platform === 'clipnet' ? 'rafatech' : 'critterswithliam';
      const all = await cli([platform, 'posts', '--username', username, '--all', '--dry-run'], env);
      expect(JSON.parse(all.stdout).body.limit).toBe(limit.maximum);
      const one = await cli([platform, 'posts', '--username', username, '--dry-run'], env);
      expect(JSON.parse(one.stdout).body.limit).toBe(limit.default);
      const chosen = await cli(
        [platform, 'posts', '--username', username, '--all', '--limit', '7', '--dry-run'],
        env,
      );
      expect(JSON.parse(chosen.stdout).body.limit).toBe(7);
    }
    expect(commandHelp(COMMANDS.find((c) => c.endpoint === 'clipnet.posts')!)).toContain('100 posts a page');

    const { spent, ...r } = await spending(['clipnet', 'posts', '--username', 'rafatech', '--all', '-v']);
    expect(r.code).toBe(EXIT.ok);
    const posts = JSON.parse(r.stdout) as unknown[];
    const requests = r.stderr.match(/POST \/api\/v1\/clipnet\/posts/g)!.length;
    expect(requests).toBe(Math.ceil(posts.length / 100));
    expect(spent).toBe(requests + posts.length);
  });

  it('--max-credits lowers the last page to fit and never spends more', async () => {
    const { spent, ...r } = await spending([
      'clipnet',
      'posts',
      '--username',
      'rafatech',
      '--limit',
      '7',
      '--all',
      '--max-credits',
      '20',
      '--format',
      'jsonl',
    ]);
    expect(r.code).toBe(EXIT.ok);
    // pages of 1 + 7 credits: 8, 8, then a page lowered to 3 posts for the 4 credits left
    expect(spent).toBe(20);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(17);
    expect(r.stderr).toContain('stopped by --max-credits');
    expect(r.stderr).toMatch(/continue with --cursor \S+/);
  });

  it('--max-credits lowers a per-target cap to fit', async () => {
    const { spent, ...r } = await spending([
      'vidnet',
      'search',
      '--keyword',
      'speedrun',
      '--keyword',
      'budgeting',
      '--period',
      'all',
      '--max-credits',
      '12',
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toContain('max_posts_per_keyword lowered to 5');
    expect(spent).toBeLessThanOrEqual(12);
    expect(JSON.parse(r.stdout)).toHaveLength(spent - 2);
  });

  it('--max-credits refuses a request whose exact cost is over the budget', async () => {
    const before = await t.balance();
    const r = await cli(
      ['analyze', '--text', 'a', '--text', 'b', '--text', 'c', '--enrich', 'topics', '--max-credits', '2.5'],
      env,
    );
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe('[]\n');
    expect(r.stderr).toContain('the next request could cost up to 3 credits and 2.5 of 2.5 are left');
    expect(await t.balance()).toBe(before);
  });

  it('writes JSON by default, and CSV with RFC 4180 quoting for comments', async () => {
    const json = await cli(
      ['picnet', 'comments', '--url', 'https://www.picnet.com/p/CxD9PthspC3/', '--limit-per-post', '5'],
      env,
    );
    expect(json.code).toBe(EXIT.ok);
    const comments = JSON.parse(json.stdout);
    expect(comments).toHaveLength(5);
    const csv = await cli(
      ['picnet', 'comments', '--urls-file', '-', '--limit-per-post', '5', '--format', 'csv', '-q'],
      env,
      '# posts to read\nCxD9PthspC3\n\n',
    );
    expect(csv.stderr).toBe('');
    const [header, ...rows] = parseCsv(csv.stdout);
    expect(header).toEqual(['id', 'post_url', 'text', 'user', 'timestamp', 'likes']);
    expect(rows.map((r) => r[2])).toEqual(comments.map((c: { text: string }) => c.text));
  });

  it('prints the code and message of an API error and exits with its code', async () => {
    const notFound = await cli(['clipnet', 'posts', '--username', 'no_such_user_here'], env);
    expect(notFound.code).toBe(EXIT.error);
    expect(notFound.stderr).toMatch(/NOT_FOUND \(HTTP 404\): clipnet user no_such_user_here not found/);
    expect(notFound.stderr).toMatch(/request id: req_/);

    const poor = await t.newKey(1);
    const pay = await cli(['clipnet', 'hashtag-posts', '--hashtag', 'fitness'], {
      ...env,
      GLEANER_API_KEY: poor.key,
    });
    expect(pay.code).toBe(EXIT.payment);
    expect(pay.stderr).toContain('PAYMENT_REQUIRED (HTTP 402): Insufficient credits');
    expect(pay.stderr).not.toContain(poor.key);

    const wrongKey = 'gl_wrong_wrong_wrong_wrong_wrong_wrong';
    const auth = await cli(['analyze', '--text', 'x', '--enrich', 'sentiment', '-v'], {
      ...env,
      GLEANER_API_KEY: wrongKey,
    });
    expect(auth.code).toBe(EXIT.auth);
    expect(auth.stderr).toContain('UNAUTHORIZED (HTTP 401): Invalid API key');
    expect(auth.stderr).not.toContain(wrongKey);

    const noKey = await cli(['analyze', '--text', 'x', '--enrich', 'sentiment'], { GLEANER_BASE_URL: t.url });
    expect(noKey.code).toBe(EXIT.auth);
    expect(noKey.stderr).toContain('no API key');

    const bad = await cli(['vidnet', 'comments', '--url', 'https://example.com/nothing-here'], env);
    expect(bad.code).toBe(EXIT.error);
    expect(bad.stderr).toContain('BAD_REQUEST (HTTP 400)');
    expect(bad.stderr).toContain('post_urls[0]:');
  });

  it('exits 2 on usage errors, before sending anything', async () => {
    const before = await t.balance();
    for (const argv of [
      ['clipnet', 'posts'],
      ['clipnet', 'posts', '--username', 'x', '--limit', '0'],
      ['clipnet', 'posts', '--username', 'x', '--bogus'],
      ['clipnet', 'comments', '--all', '--url', 'x'],
      ['vidnet', 'search', '--keyword', 'x', '--period', 'year'],
      ['analyze', '--text', 'x'],
      ['analyze', '--text', 'x', '--enrich', 'mood'],
      ['picnet', 'comments', '--urls-file', join(dir, 'missing.txt')],
      ['clipnet', 'posts', '--username', 'x', '--format', 'xml'],
      ['tiktok', 'posts'],
      [],
    ]) {
      const r = await cli(argv, env);
      expect(r.code, argv.join(' ')).toBe(EXIT.usage);
      expect(r.stderr, argv.join(' ')).toMatch(/gleaner:|Usage:/);
    }
    expect(await t.balance()).toBe(before);
  });

  it('reads the key and server from a config file', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'gleaner'), { recursive: true });
    const file = join(home, '.config', 'gleaner', 'config.json');
    writeFileSync(file, JSON.stringify({ apiKey: t.key, baseUrl: t.url }));
    chmodSync(file, 0o600);
    const r = await cli(
      ['analyze', '--text', 'love it', '--enrich', 'sentiment', '--format', 'jsonl', '-v'],
      {
        HOME: home,
      },
    );
    expect(r.code).toBe(EXIT.ok);
    expect(JSON.parse(r.stdout).enrichment.sentiment).toBe('positive');
    expect(r.stderr).toContain(`API key from ${file}`);
    expect(r.stderr).not.toContain(t.key);

    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ apiKey: 'gl_nope', baseUrl: t.url }));
    const viaFlag = await cli(['analyze', '--text', 'x', '--enrich', 'sentiment', '--config', other], {});
    expect(viaFlag.code).toBe(EXIT.auth);
    expect(viaFlag.stderr).toContain('readable by others');
  });

  it('batches more targets than one request takes', async () => {
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i} is great`);
    const before = await t.balance();
    const r = await cli(
      ['analyze', '--file', '-', '--enrich', 'sentiment', '--format', 'jsonl', '-v'],
      env,
      texts.join('\n'),
    );
    expect(r.code).toBe(EXIT.ok);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).text),
    ).toEqual(texts);
    expect(r.stderr.match(/POST \/api\/v1\/ml\/analyze/g)).toHaveLength(2);
    expect(before - (await t.balance())).toBe(65);
  });

  it('has help with examples for every subcommand', async () => {
    for (const c of COMMANDS) {
      const r = await cli([...c.path, '--help'], {});
      expect(r.code).toBe(EXIT.ok);
      expect(r.stdout).toBe(commandHelp(c));
      expect(r.stdout).toContain('Examples:');
      for (const e of c.examples) expect(r.stdout).toContain(e);
      for (const flag of Object.keys(c.options)) expect(r.stdout).toContain(`--${flag}`);
    }
    const main = await cli(['--help'], {});
    expect(main.stdout).toContain('Exit codes:');
  });
});

describe('gleaner CLI retries', () => {
  it('retries a 503 and charges the pull once', async () => {
    const failing = failingClipnet('unavailable', 1);
    const t = await startLive({ credits: 100, wrap: failing.wrap });
    try {
      const r = await cli(
        ['clipnet', 'posts', '--username', 'rafatech', '--limit', '5', '--format', 'jsonl'],
        {
          GLEANER_API_KEY: t.key,
          GLEANER_BASE_URL: t.url,
        },
      );
      expect(r.code).toBe(EXIT.ok);
      expect(r.stderr).toContain('SERVICE_UNAVAILABLE (HTTP 503)');
      expect(r.stderr).toContain('retrying');
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(5);
      expect(failing.calls()).toBe(2);
      expect(await t.balance()).toBe(94);
    } finally {
      await t.close();
    }
  });
});

describe('gleaner launcher', () => {
  const bin = join(ROOT, 'packages/cli/bin/gleaner.js');
  it('runs the committed build, which needs neither TypeScript nor tsx', () => {
    const r = spawnSync(process.execPath, [bin, 'vidnet', 'search', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: gleaner vidnet search');
    expect(readFileSync(bin, 'utf8')).toContain("import('../dist/main.js')");
    const built = readdirSync(join(ROOT, 'packages/cli/dist')).filter((f) => f.endsWith('.js'));
    for (const f of built) {
      const js = readFileSync(join(ROOT, 'packages/cli/dist', f), 'utf8');
      const imports = [...js.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      expect(
        imports.filter((i) => !i.startsWith('./') && !i.startsWith('node:')),
        f,
      ).toEqual(imports.filter((i) => i === '@gleaner/client'));
    }
  });

  it('exits with the documented code as a process', async () => {
    const t = await startLive({ credits: 10 });
    try {
      const usage = spawnSync(process.execPath, [bin, 'clipnet', 'posts', '--nope'], { encoding: 'utf8' });
      expect(usage.status).toBe(2);
      // asynchronously: the server runs in this process and must keep answering
      const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [bin, 'analyze', '--text', 'x', '--enrich', 'sentiment'],
          {
            env: { ...process.env, GLEANER_API_KEY: 'gl_invalid_key_for_the_test', GLEANER_BASE_URL: t.url },
          },
          (_err, _stdout, stderr) => resolve({ status: child.exitCode, stderr }),
        );
      });
      expect(r.stderr).toContain('UNAUTHORIZED');
      expect(r.status).toBe(4);
    } finally {
      await t.close();
    }
  });
});
