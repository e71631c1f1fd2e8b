// The npm packages as a user gets them: `npm pack` of @gleaner/client and @gleaner/cli (their
// prepack builds them), both tarballs installed offline into an empty project outside the
// repository, and every example of their READMEs (and the root README's CLI example) run there
// in plain JavaScript against the real app (served by this process: every process that calls it
// runs asynchronously). Also: the `gleaner` bin of a checkout after
// `npm ci --omit=dev`, which has no TypeScript, runs from the committed build.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gleaner } from '../../packages/client/src/index.js';
import { ROOT } from '../../src/paths.js';
import { type LiveApp, startLive } from './live.js';

/** the environment of a user's shell: none of the npm_* variables of the test runner */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.toLowerCase().startsWith('npm_') && !k.startsWith('GLEANER_')) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', ...extra };
}

function npm(args: string[], cwd: string, env = userEnv()): string {
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** runs a process without blocking this one, which serves the app it calls */
function run(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { ...opts, encoding: 'utf8' }, (_e, stdout, stderr) =>
      resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

/** fenced blocks of a language in a Markdown file */
function blocks(file: string, lang: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/** the `gleaner …` command lines of the sh blocks of a Markdown file */
const commandLines = (file: string) =>
  blocks(file, 'sh').flatMap((b) => b.split('\n').filter((l) => l.startsWith('gleaner ')));

interface Packed {
  filename: string;
  files: Array<{ path: string }>;
}

describe('npm packages installed from their tarballs', () => {
  let t: LiveApp;
  let work: string;
  let project: string;
  let packed: Record<'client' | 'cli', Packed>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await startLive({ credits: 20_000 });
    work = mkdtempSync(join(tmpdir(), 'gleaner-packages-'));
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const pack = (pkg: string) =>
      (
        JSON.parse(
          npm(['pack', '--json', '--pack-destination', tarballs], join(ROOT, 'packages', pkg)),
        ) as Packed[]
      )[0]!;
    packed = { client: pack('client'), cli: pack('cli') };

    project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-pull', private: true }));
    // offline, with an empty cache: nothing can come from a registry
    npm(
      [
        'install',
        '--offline',
        '--no-audit',
        `--cache=${join(work, 'npm-cache')}`,
        join(tarballs, packed.client.filename),
        join(tarballs, packed.cli.filename),
      ],
      project,
    );
    env = userEnv({
      GLEANER_API_KEY: t.key,
      GLEANER_BASE_URL: t.url,
      PATH: `${join(project, 'node_modules/.bin')}:${process.env.PATH}`,
      HOME: join(work, 'home'),
    });
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs built JavaScript, types and the README, and no sources', () => {
    for (const [name, p] of Object.entries(packed)) {
      const files = p.files.map((f) => f.path).sort();
      expect(files, name).toContain('README.md');
      expect(files, name).toContain('package.json');
      expect(files, name).toContain(name === 'cli' ? 'dist/main.js' : 'dist/index.js');
      expect(
        files.some((f) => f.endsWith('.d.ts')),
        name,
      ).toBe(true);
      expect(
        files.filter((f) => !/^(dist\/|bin\/|README\.md$|package\.json$)/.test(f)),
        name,
      ).toEqual([]);
      expect(
        files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        name,
      ).toEqual([]);
    }
    const pkg = (n: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules/@gleaner', n, 'package.json'), 'utf8'));
    // the client has no dependencies; the CLI only the client, which is the tarball installed
    expect(pkg('client').dependencies).toBeUndefined();
    expect(Object.keys(pkg('cli').dependencies)).toEqual(['@gleaner/client']);
    expect(readdirSync(join(project, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual([
      '@gleaner',
    ]);
    expect(existsSync(join(project, 'node_modules/@gleaner/cli/node_modules'))).toBe(false);
  });

  it('its versions follow the API version', () => {
    const api = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')).info.version as string;
    for (const n of ['client', 'cli']) {
      const v = JSON.parse(readFileSync(join(project, 'node_modules/@gleaner', n, 'package.json'), 'utf8'))
        .version as string;
      expect(v.split('.').slice(0, 2), n).toEqual(api.split('.').slice(0, 2));
    }
  });

  it("runs every example of the client's README and the root README's in plain JavaScript", async () => {
    const examples = [...blocks('packages/client/README.md', 'js'), ...blocks('README.md', 'js')];
    const expected = [
      /^5 8\.5 \d+(\.\d+)?\n$/,
      /^\d+ \d+ (positive|negative|neutral)\n[\s\S]*\n\{ posts: \d+, requests: \d+, credits: \d+(\.\d+)? \}\n$/,
      /^no such user: clipnet user no_such_user_here not found req_\S+\n$/,
      // the root README's
      /^[1-9]\d* \{ sentiment: '(positive|negative|neutral)', sentiment_score: [-\d.]+, topics: \[/,
    ];
    expect(examples).toHaveLength(expected.length);
    for (const [i, code] of examples.entries()) {
      const file = join(project, `example-${i}.mjs`);
      writeFileSync(file, code);
      const r = await run(process.execPath, [file], { cwd: project, env });
      expect(r.stderr, `example ${i}`).toBe('');
      expect(r.status, `example ${i}`).toBe(0);
      expect(r.stdout, `example ${i}`).toMatch(expected[i]!);
    }
  });

  it('gives TypeScript users the types, without the server', () => {
    writeFileSync(
      join(project, 'typed.ts'),
      `import { Gleaner, type ClipnetPost, type ApiResult, type ClipnetPostsData } from '@gleaner/client';
const g = new Gleaner({ apiKey: 'gl_x' });
export const page: Promise<ApiResult<ClipnetPostsData>> = g.clipnetPosts({ username: 'x' });
export const views = (p: ClipnetPost): number => p.stats.views;
// @ts-expect-error: a misspelt field is a type error
g.clipnetPosts({ username: 'x', limt: 5 });
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: [],
          skipLibCheck: false,
        },
        files: ['typed.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("runs the CLI README's commands and the root README's, with the installed gleaner", async () => {
    const lines = [...commandLines('packages/cli/README.md'), ...commandLines('README.md')];
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const before = await t.balance();
    const summaries = new Map<string, string>();
    for (const line of lines) {
      const r = await run('/bin/sh', ['-c', line], { cwd: project, env });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).toMatch(/gleaner: \d+ items, \d+ requests?, [\d.]+ credits used/);
      summaries.set(line, r.stderr);
    }
    expect(await t.balance()).toBeLessThan(before);

    // the JSON Lines pull of the READMEs: every post of the user with its enrichment, 100 a request
    const pull = lines.find((l) => l.includes('--out posts.jsonl'))!;
    const username = /--username (\S+)/.exec(pull)![1]!;
    const posts = readFileSync(join(project, 'posts.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const all = await new Gleaner({ apiKey: t.key, baseUrl: t.url })
      .iterateClipnetPosts({ username, limit: 100 })
      .all();
    expect(posts.map((p) => p.id)).toEqual(all.map((p) => p.id));
    expect(summaries.get(pull)).toContain(`${all.length} items, ${Math.ceil(all.length / 100)} request`);
    for (const p of posts) {
      expect(p.enrichment.sentiment).toMatch(/^(positive|negative|neutral)$/);
      expect(Array.isArray(p.enrichment.topics)).toBe(true);
    }
    expect(readFileSync(join(project, 'videos.csv'), 'utf8').split('\r\n')[0]).toContain('video_id');
    // --max-credits 5 on pages of 1 + 1 per post: one page lowered to 4 posts
    expect(readFileSync(join(project, 'zanedrums.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(4);

    const version = await run('gleaner', ['--version'], { cwd: project, env });
    expect(version.stdout).toBe(`gleaner ${packed.cli.filename.match(/-(\d+\.\d+\.\d+)\.tgz$/)![1]}\n`);
  });
});

describe('the gleaner bin of a checkout', () => {
  it('runs from the committed build after npm ci --omit=dev, without TypeScript or tsx', () => {
    const copy = mkdtempSync(join(tmpdir(), 'gleaner-omit-dev-'));
    try {
      for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(copy, f));
      for (const pkg of ['client', 'cli'])
        cpSync(join(ROOT, 'packages', pkg), join(copy, 'packages', pkg), {
          recursive: true,
          filter: (src) => !src.includes('node_modules'),
        });
      // from npm's cache, which the checkout's own `npm ci` filled; no install scripts, which
      // would build better-sqlite3, a dependency of the server and not of the CLI
      npm(['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit'], copy);
      expect(existsSync(join(copy, 'node_modules/typescript'))).toBe(false);
      expect(existsSync(join(copy, 'node_modules/tsx'))).toBe(false);
      const r = spawnSync(join(copy, 'node_modules/.bin/gleaner'), ['clipnet', 'posts', '--help'], {
        cwd: copy,
        env: userEnv(),
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: gleaner clipnet posts');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 300_000);
});
