// What a newcomer reads in the README, tried on the app as `npm start` wires it (sandbox, built-in
// analyzer) at several times of day on several dates, from just after midnight UTC to just
// before the next: every Quick start request and every name the README and `npm run
// sandbox:sample` give answers with items, and costs what the README's price table says.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  items,
  priceTable,
  readmeNames as readNames,
  quickStart as readQuickStart,
  readReadme,
  section as sectionOf,
} from '../../scripts/lib/readme.js';
import { loadConfig } from '../../src/config.js';
import { createEnricher } from '../../src/enrichment/index.js';
import { ROOT } from '../../src/paths.js';
import { createSources } from '../../src/sources/index.js';
import { defaultSandboxPath } from '../../src/sources/sandbox/index.js';
import { sampleWorld } from '../../src/sources/sandbox/sample.js';
import { startApp, type TestApp } from '../support/app.js';

const DATES = ['2025-06-15', '2026-01-01', '2028-02-29'];
const TIMES = ['00:05:00', '03:36:00', '12:00:00', '23:55:00'];

const README = readReadme(ROOT);
const _section = (heading: string) => sectionOf(README, heading);
const quickStart = () => readQuickStart(README);
const readmeNames = () => readNames(README);

const { prices, enrichment } = priceTable(README);

// ---- the app, on a clock the test sets ----

let clock = new Date(`${DATES[0]}T12:00:00Z`);
let t: TestApp;

beforeAll(async () => {
  const config = loadConfig({ ENRICH_THREADS: '1' });
  const sources = await createSources(config, pino({ level: 'silent' }), { now: () => clock });
  t = await startApp({ credits: 10_000_000, sources, enricher: createEnricher(config) });
}, 180_000);
afterAll(async () => t?.close());

/** posts a request and checks that it answers items at the price the README gives */
async function expectItems(path: string, body: Record<string, unknown>, what: string): Promise<number> {
  const r = await t.post(path, body);
  expect(r.statusCode, `${what}: ${r.body.slice(0, 300)}`).toBe(200);
  const j = r.json();
  const n = items(j.data);
  expect(n, `${what} returned no items`).toBeGreaterThan(0);
  const price = prices.get(path);
  expect(price, `README's price table has no row for ${path}`).toBeDefined();
  const enrich = ((body.enrich as string[] | undefined) ?? []).reduce((s, e) => {
    expect(enrichment[e], `README's price table has no rate for ${e}`).toBeDefined();
    return s + (enrichment[e] as number);
  }, 0);
  const texts = path === '/ml/analyze' ? (body.texts as unknown[]).length : 0;
  const expected = path === '/ml/analyze' ? enrich * texts : price!.base + (price!.perItem + enrich) * n;
  expect(j.metadata.credits_used, `${what}: ${n} items`).toBe(expected);
  return n;
}

describe.each(DATES)('on %s', (date) => {
  test.each(TIMES)('at %s UTC every Quick start request answers items at its README price', async (time) => {
    clock = new Date(`${date}T${time}Z`);
    const examples = quickStart();
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const e of examples) await expectItems(e.path, e.body, `${e.path} ${JSON.stringify(e.body)}`);
    // the defaults the README's examples leave out: vidnet search looks at today, hashtags at 7 days
    for (const e of examples.filter(
      (x) => x.path === '/vidnet/search' || x.path.endsWith('/hashtag/posts'),
    )) {
      const { period: _p, days: _d, ...rest } = e.body;
      await expectItems(
        e.path,
        { ...rest, ...(e.path === '/vidnet/search' ? {} : { days: 1 }) },
        `${e.path} today`,
      );
    }
  });

  test.each(TIMES)('at %s UTC every name the README gives answers, in every window', async (time) => {
    clock = new Date(`${date}T${time}Z`);
    const names = readmeNames();
    for (const kind of ['clipnet', 'picnet', 'channels', 'hashtags', 'keywords'] as const)
      expect(names[kind].length, kind).toBeGreaterThan(0);
    for (const username of names.clipnet)
      await expectItems('/clipnet/posts', { username, limit: 5 }, username);
    await expectItems('/clipnet/bulk/posts', { usernames: names.clipnet, limit_per_user: 2 }, 'bulk');
    for (const username of names.picnet) await expectItems('/picnet/posts', { username, limit: 5 }, username);
    for (const id of names.channels) {
      await expectItems('/vidnet/channel/videos', { browse_ids: [id], depth: 1 }, `${id} videos`);
      await expectItems('/vidnet/channel/shorts', { browse_ids: [id] }, `${id} Shorts`);
    }
    for (const tag of names.hashtags) {
      for (const days of [1, 2, 7, 30]) {
        await expectItems('/clipnet/hashtag/posts', { hashtags: [tag], days }, `clipnet #${tag} ${days} d`);
        await expectItems('/picnet/hashtag/posts', { hashtags: [tag], days }, `picnet #${tag} ${days} d`);
      }
      await expectItems('/vidnet/hashtag/search', { hashtags: [tag] }, `vidnet #${tag}`);
    }
    for (const keyword of names.keywords)
      for (const period of ['today', 'week', 'month', 'all'])
        await expectItems('/vidnet/search', { keywords: [keyword], period }, `${keyword} ${period}`);
    expect(names.blipnet.length).toBeGreaterThan(0);
    for (const username of names.blipnet)
      await expectItems('/blipnet/posts', { username, limit: 5 }, username);
    for (const tag of names.blipnetHashtags) {
      for (const days of [1, 2, 7, 30])
        await expectItems('/blipnet/hashtag/posts', { hashtags: [tag], days }, `blipnet #${tag} ${days} d`);
      for (const period of ['today', 'week', 'month', 'year', 'all'])
        await expectItems('/blipnet/search', { keywords: [tag], period }, `blipnet "${tag}" ${period}`);
    }
  });
});

test('every name `npm run sandbox:sample` prints answers at any time of day', async () => {
  // printed at one time of day, tried at others and on another day
  const printed = sampleWorld(defaultSandboxPath(), new Date(`${DATES[0]}T12:00:00Z`));
  const lines = printed.split('\n');
  const sectionOf = (name: string) => {
    const start = lines.indexOf(`== ${name}`);
    const end = lines.findIndex((l, i) => i > start && l.startsWith('== '));
    return lines.slice(start, end < 0 ? undefined : end);
  };
  const handles = (name: string) =>
    sectionOf(name)
      .filter((l) => /^ {2}[\w.]+ +\w+ +[\d,]+ followers/.test(l))
      .flatMap((l) => {
        const [handle] = l.trim().split(/\s+/);
        const id = /user id (\d+)/.exec(l)?.[1];
        return id ? [handle as string, id] : [handle as string];
      });
  const hashtags = (name: string) =>
    [
      ...(sectionOf(name).find((l) => l.startsWith('hashtags with posts at any hour')) ?? '').matchAll(
        /#(\w+)/g,
      ),
    ].map((m) => m[1] as string);
  const urls = (name: string) =>
    sectionOf(name)
      .map((l) => /^ {2}(https:\/\/\S+)/.exec(l)?.[1])
      .filter((u): u is string => u !== undefined);
  const vidnet = sectionOf('vidnet');
  const channels = [
    ...new Set(vidnet.map((l) => /^ {2}(UC[\w-]{22})\b/.exec(l)?.[1]).filter(Boolean)),
  ] as string[];
  const keywords = [
    ...(vidnet.find((l) => l.startsWith('keywords with videos at any hour')) ?? '').matchAll(/"([^"]+)"/g),
  ].map((m) => m[1] as string);
  const vtags = [...(vidnet.find((l) => l.startsWith('popular hashtags')) ?? '').matchAll(/#(\w+)/g)].map(
    (m) => m[1] as string,
  );
  for (const list of [
    handles('clipnet'),
    handles('picnet'),
    hashtags('clipnet'),
    hashtags('picnet'),
    urls('clipnet'),
    urls('picnet'),
    urls('vidnet'),
    channels,
    keywords,
    vtags,
  ])
    expect(list.length, printed).toBeGreaterThan(0);

  for (const date of [DATES[0], DATES[1]])
    for (const time of ['00:00:01', ...TIMES]) {
      clock = new Date(`${date}T${time}Z`);
      const when = `${date} ${time}`;
      for (const username of handles('clipnet'))
        await expectItems('/clipnet/posts', { username, limit: 1 }, `${username} ${when}`);
      for (const username of handles('picnet'))
        await expectItems('/picnet/posts', { username, limit: 1 }, `${username} ${when}`);
      for (const tag of hashtags('clipnet'))
        await expectItems('/clipnet/hashtag/posts', { hashtags: [tag], days: 1 }, `clipnet #${tag} ${when}`);
      for (const tag of hashtags('picnet'))
        await expectItems('/picnet/hashtag/posts', { hashtags: [tag], days: 1 }, `picnet #${tag} ${when}`);
      await expectItems(
        '/clipnet/comments',
        { post_urls: urls('clipnet'), limit_per_post: 3 },
        `clipnet URLs ${when}`,
      );
      await expectItems(
        '/picnet/comments',
        { post_urls: urls('picnet'), limit_per_post: 3 },
        `picnet URLs ${when}`,
      );
      await expectItems(
        '/vidnet/comments',
        { post_urls: urls('vidnet'), limit_per_post: 3 },
        `vidnet URLs ${when}`,
      );
      for (const id of channels) {
        await expectItems('/vidnet/channel/videos', { browse_ids: [id], depth: 1 }, `${id} ${when}`);
        await expectItems('/vidnet/channel/shorts', { browse_ids: [id] }, `${id} Shorts ${when}`);
      }
      for (const keyword of keywords)
        await expectItems('/vidnet/search', { keywords: [keyword], period: 'today' }, `${keyword} ${when}`);
      for (const tag of vtags)
        await expectItems('/vidnet/hashtag/search', { hashtags: [tag] }, `vidnet #${tag} ${when}`);
    }
});
