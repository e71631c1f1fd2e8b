// What the README says, read from it: its sections, the Quick start's requests, the names it
// gives for the sandbox, and its price table. Shared by the README example test and the
// first-hour check (scripts/check-first-hour.ts), so both hold the README to its word.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readReadme(root: string): string {
  return readFileSync(join(root, 'README.md'), 'utf8');
}

/** the part of the README under a heading, up to the next heading of the same level */
export function section(README: string, heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

export interface Example {
  path: string;
  body: Record<string, unknown>;
}

/** the Quick start's curl requests: path and JSON body */
export function quickStart(README: string): Example[] {
  const re = /curl -s http:\/\/127\.0\.0\.1:8080\/api\/v1(\/[\w/]+)[^\n]*\\\n\s*-d '([^']+)'/g;
  return [...section(README, 'Quick start').matchAll(re)].map((m) => ({
    path: m[1] as string,
    body: JSON.parse(m[2] as string) as Record<string, unknown>,
  }));
}

/** the names the README gives after "`npm run sandbox:sample` lists …", by kind */
type Kind = 'clipnet' | 'picnet' | 'channels' | 'hashtags' | 'keywords' | 'blipnet' | 'blipnetHashtags';

export function readmeNames(README: string): Record<Kind, string[]> {
  const m = /`npm run sandbox:sample` lists[^(]*\(([^)]*)\)/.exec(section(README, 'Quick start'));
  if (!m) throw new Error('README names no sandbox examples after `npm run sandbox:sample` lists');
  const names = {
    clipnet: [],
    picnet: [],
    channels: [],
    hashtags: [],
    keywords: [],
    blipnet: [],
    blipnetHashtags: [],
  } as Record<Kind, string[]>;
  const kinds: Record<string, keyof typeof names> = {
    clipnet: 'clipnet',
    picnet: 'picnet',
    'vidnet channel': 'channels',
    'vidnet channels': 'channels',
    hashtags: 'hashtags',
    keywords: 'keywords',
    blipnet: 'blipnet',
    'blipnet hashtags': 'blipnetHashtags',
  };
  for (const part of (m[1] as string).split(';')) {
    const label = part.trim().split('`')[0]?.trim() ?? '';
    const kind = kinds[label];
    if (!kind) throw new Error(`README names sandbox examples of an unknown kind "${label}"`);
    for (const n of part.matchAll(/`([^`]+)`/g)) names[kind].push((n[1] as string).replace(/^#/, ''));
  }
  return names;
}

export interface Price {
  base: number;
  perItem: number;
}

/** the price table: endpoint path → base and per-item credits, and the enrichment rates */
export function priceTable(README: string): {
  prices: Map<string, Price>;
  enrichment: Record<string, number>;
} {
  const prices = new Map<string, Price>();
  let enrichment: Record<string, number> = {};
  for (const row of section(README, 'The API')
    .split('\n')
    .filter((l) => l.startsWith('| `/'))) {
    const [paths, , credits] = row
      .split('|')
      .slice(1)
      .map((c) => c.trim());
    const fixed = /^(\d+(?:\.\d+)?) \+ (\d+(?:\.\d+)?) per \w+$/.exec(credits ?? '');
    const perText = /^per text: (.*)$/.exec(credits ?? '');
    for (const p of (paths ?? '').matchAll(/`(\/[\w/]+)`/g)) {
      if (fixed) prices.set(p[1] as string, { base: Number(fixed[1]), perItem: Number(fixed[2]) });
      else if (perText) prices.set(p[1] as string, { base: 0, perItem: 0 });
      else throw new Error(`README price table: cannot read "${credits}"`);
    }
    if (perText)
      enrichment = Object.fromEntries(
        (perText[1] as string).split(',').map((r) => {
          const [type, rate] = r.trim().split(' ');
          return [type as string, Number(rate)];
        }),
      );
  }
  return { prices, enrichment };
}

/** the items of a response, whatever the endpoint calls them */
export function items(data: Record<string, unknown>): number {
  if (Array.isArray(data.users))
    return (data.users as Array<{ posts: unknown[] }>).reduce((n, u) => n + u.posts.length, 0);
  for (const k of ['posts', 'videos', 'shorts', 'comments', 'results'])
    if (Array.isArray(data[k])) return (data[k] as unknown[]).length;
  throw new Error(`no items in ${JSON.stringify(data).slice(0, 200)}`);
}

/** what a request costs by the README's price table: base + (per item + enrichment) × items */
export function expectedCost(
  table: ReturnType<typeof priceTable>,
  path: string,
  body: Record<string, unknown>,
  n: number,
): number | undefined {
  const price = table.prices.get(path);
  if (!price) return undefined;
  const enrich = ((body.enrich as string[] | undefined) ?? []).reduce(
    (s, e) => s + (table.enrichment[e] ?? Number.NaN),
    0,
  );
  return path === '/ml/analyze' ? enrich * n : price.base + (price.perItem + enrich) * n;
}
