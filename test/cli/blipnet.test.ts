// gleaner blipnet …: the CLI against the real app on the sandbox (run in-process through run()).
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, run } from '../../packages/cli/src/run.js';
import { Gleaner } from '../../packages/client/src/index.js';
import type { BlipnetPost } from '../../packages/client/src/types.js';
import { BLIPNET_PINNED_ACCOUNTS } from '../../src/sources/sandbox/world/featured.js';
import { type LiveApp, startLive } from '../client/live.js';

const MARA = BLIPNET_PINNED_ACCOUNTS[0]!;

async function cli(argv: string[], env: Record<string, string>) {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.on('data', (c: Buffer) => errs.push(c));
  const code = await run(argv, {
    env: { HOME: '/nonexistent-home', ...env },
    stdout: out,
    stderr: err,
    stdin: () => '',
  });
  return {
    code,
    stdout: Buffer.concat(chunks).toString('utf8'),
    stderr: Buffer.concat(errs).toString('utf8'),
  };
}

describe('gleaner blipnet on the sandbox', () => {
  let t: LiveApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startLive({ credits: 5000 });
    env = { GLEANER_API_KEY: t.key, GLEANER_BASE_URL: t.url };
  });
  afterAll(async () => t?.close());

  it('posts --all pulls every post of a user to JSONL, as the client pages them', async () => {
    const client = new Gleaner({ apiKey: t.key, baseUrl: t.url });
    const api: BlipnetPost[] = [];
    for await (const p of client.iterateBlipnetPosts({ username: MARA.handle, limit: 40 })) api.push(p);
    expect(api.length).toBeGreaterThan(40);
    const before = await t.balance();
    const r = await cli(
      ['blipnet', 'posts', '--username', MARA.handle, '--limit', '40', '--all', '--format', 'jsonl'],
      env,
    );
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as BlipnetPost);
    expect(lines).toEqual(api);
    const pages = Math.ceil(api.length / 40);
    expect(before - (await t.balance())).toBe(pages + api.length);
  });

  it('comments writes the flattened thread to CSV with parent ids and depths', async () => {
    const url = `https://blipnet.app/profile/${MARA.handle}/post/3l754t3z5mssm`;
    const r = await cli(
      ['blipnet', 'comments', '--url', url, '--limit-per-post', '30', '--format', 'csv'],
      env,
    );
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const [header, ...rows] = r.stdout.trimEnd().split('\r\n');
    expect(header).toContain('parent_id');
    expect(header).toContain('author.handle');
    expect(header).toContain('depth');
    expect(rows.length).toBe(30);
  });

  it('search continues a keyword from a cursor; hashtag-posts reads several hashtags', async () => {
    const a = await cli(
      ['blipnet', 'search', '--keyword', 'books', '--max-per-keyword', '3', '--period', 'all'],
      env,
    );
    expect(a.code, a.stderr).toBe(EXIT.ok);
    const first = JSON.parse(a.stdout) as Array<{ id: string }>;
    expect(first).toHaveLength(3);
    const client = new Gleaner({ apiKey: t.key, baseUrl: t.url });
    const page = await client.blipnetSearch({ keywords: ['books'], max_posts_per_keyword: 3, period: 'all' });
    const whole = await client.blipnetSearch({
      keywords: ['books'],
      max_posts_per_keyword: 6,
      period: 'all',
    });
    const b = await cli(
      [
        'blipnet',
        'search',
        '--keyword',
        'books',
        '--max-per-keyword',
        '3',
        '--period',
        'all',
        '--cursor',
        page.data.cursor!,
      ],
      env,
    );
    expect(b.code, b.stderr).toBe(EXIT.ok);
    expect((JSON.parse(b.stdout) as Array<{ id: string }>).map((p) => p.id)).toEqual(
      whole.data.posts.slice(3).map((p) => p.id),
    );
    const h = await cli(
      [
        'blipnet',
        'hashtag-posts',
        '--hashtag',
        'coffee',
        '--hashtag',
        '#books',
        '--days',
        '2',
        '--max-per-hashtag',
        '2',
      ],
      env,
    );
    expect(h.code, h.stderr).toBe(EXIT.ok);
    expect((JSON.parse(h.stdout) as Array<{ source_hashtag: string }>).map((p) => p.source_hashtag)).toEqual([
      'coffee',
      'coffee',
      'books',
      'books',
    ]);
    const bad = await cli(['blipnet', 'search', '--keyword', 'books', '--sorting', 'viewCount'], env);
    expect(bad.code).toBe(EXIT.usage);
  });
});
