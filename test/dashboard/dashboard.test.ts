// The web dashboard at /dashboard: served from the service alone under a strict CSP, and, driven
// in headless Chromium with every outside request blocked, a key holder signs in, reads the
// chart of credits per day by endpoint (uPlot: hover values, the bars drawn on the canvas, the
// keyboard), pages the recent calls, sends a call from the playground and sees the balance and the
// chart change, copies the request, and signs out; an operator creates a key, grants it credits
// and revokes it; every main control is reached with Tab. The server's clock is fixed (calls on
// known days), and the screenshots in docs/screenshots/ are rewritten only when the picture
// changed (screenshots.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { DOCS_CSP } from '../../src/http/plugins/docs.js';
import { ROOT } from '../../src/paths.js';
import { startApp, type TestApp } from '../support/app.js';
import { browserMissing, launchChromium } from '../support/browser.js';
import { decodePng, type Rect, writeIfChanged } from './screenshots.js';

const ADMIN_TOKEN = 'admin-token-dashboard-0123';
const SHOTS = join(ROOT, 'docs/screenshots');
const TODAY = '2026-03-16';
/** the series colours of the chart: the catalog's order of these endpoints */
const BLUE = '#2563eb'; // clipnet.posts
const VIOLET = '#7c3aed'; // picnet.posts
const BROWN = '#b45309'; // ml.analyze

let t: TestApp;
let url: string;

/** the server's clock (this process's Date), fixed so that calls fall on known days */
const clock = (iso: string) => vi.setSystemTime(new Date(iso));

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  clock('2026-02-20T08:00:00Z');
  t = await startApp({ credits: 100, env: { ADMIN_TOKEN } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});

describe('/dashboard over HTTP', () => {
  it('serves the page under the CSP of /docs, with nothing from another host', async () => {
    const r = await fetch(`${url}/dashboard`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(DOCS_CSP);
    const html = await r.text();
    expect(html).not.toMatch(/https?:\/\//);
    // no inline script: only the module file
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('serves its modules, uPlot from its package, the style sheets and catalog, and nothing else', async () => {
    for (const name of ['app.js', 'chart.js', 'cost.js', 'dom.js', 'snippets.js']) {
      const r = await fetch(`${url}/dashboard/assets/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/javascript');
      const js = await r.text();
      // compiled: no type annotations left
      expect(js, name).not.toMatch(/^\s*(interface|type) \w+/m);
    }
    const chart = await (await fetch(`${url}/dashboard/assets/chart.js`)).text();
    expect(chart).toMatch(/^import uPlot from '\.\/uplot\.js';$/m);
    const uplot = await fetch(`${url}/dashboard/assets/uplot.js`);
    expect(uplot.headers.get('content-type')).toContain('text/javascript');
    expect(uplot.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(await uplot.text()).toMatch(/export \{ uPlot as default \};\s*$/);
    for (const css of ['dashboard.css', 'uplot.css'])
      expect((await fetch(`${url}/dashboard/assets/${css}`)).headers.get('content-type'), css).toContain(
        'text/css',
      );
    expect(await (await fetch(`${url}/dashboard/assets/uplot.css`)).text()).toContain('.u-legend');
    const catalog = (await (await fetch(`${url}/dashboard/catalog.json`)).json()) as { endpoints: unknown[] };
    expect(catalog.endpoints).toHaveLength(ENDPOINTS.length);
    for (const bad of ['..%2Fapp.ts', 'app.ts', 'catalog.ts', 'constructor', 'uPlot.esm.js', 'uplot.d.ts'])
      expect((await fetch(`${url}/dashboard/assets/${bad}`)).status, bad).toBe(404);
  });
});

const missing = browserMissing('dashboard');

interface Watched {
  page: Page;
  /** requests to another host (blocked) */
  outside: string[];
  /** console errors and warnings, uncaught exceptions (a CSP violation is one) */
  problems: string[];
  /** every URL the page asked for */
  requested: string[];
}

interface UsageDay {
  date: string;
  credits: number;
  calls: number;
  endpoints: Record<string, { credits: number; calls: number }>;
}

describe.skipIf(missing)('/dashboard in headless Chromium', () => {
  let browser: Browser;
  let origin: string;
  /** a day with two endpoints: picnet.posts under ml.analyze */
  const STACKED = '2026-03-04';

  beforeAll(async () => {
    origin = new URL(url).origin;
    // the key's history: calls on three earlier days, then six today
    clock('2026-02-25T10:00:00Z');
    for (let i = 0; i < 2; i++)
      expect((await t.post('/clipnet/posts', { username: 'bob', limit: 1 })).statusCode).toBe(200);
    clock(`${STACKED}T10:00:00Z`);
    expect((await t.post('/picnet/posts', { username: 'bob', limit: 4 })).statusCode).toBe(200);
    expect(
      (await t.post('/ml/analyze', { texts: ['I love it', 'meh', 'awful'], enrich: ['sentiment', 'topics'] }))
        .statusCode,
    ).toBe(200);
    clock('2026-03-10T10:00:00Z');
    expect((await t.post('/ml/analyze', { texts: ['fine'], enrich: ['sentiment'] })).statusCode).toBe(200);
    clock(`${TODAY}T09:00:00Z`);
    for (let i = 0; i < 6; i++)
      expect((await t.post('/clipnet/posts', { username: 'bob', limit: 1 })).statusCode).toBe(200);
    clock(`${TODAY}T09:30:00Z`);
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** a fresh tab on /dashboard, every outside request blocked and every console problem kept */
  async function open(viewport = { width: 1280, height: 900 }): Promise<Watched> {
    const context = await browser.newContext({ viewport, colorScheme: 'light', reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const w: Watched = { page, outside: [], problems: [], requested: [] };
    await page.route('**/*', (route) => {
      const u = route.request().url();
      w.requested.push(u);
      if (u.startsWith(`${origin}/`) || u.startsWith('data:')) return route.continue();
      w.outside.push(u);
      return route.abort();
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') w.problems.push(m.text());
    });
    page.on('pageerror', (e) => w.problems.push(e.message));
    await page.goto(`${url}/dashboard`, { waitUntil: 'load' });
    await page.waitForSelector('#dashboard[data-ready="true"]');
    return w;
  }

  async function done(w: Watched) {
    expect(w.outside).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.page.context().close();
  }

  /** a screenshot for the docs, written only if it changed outside the `volatile` elements */
  async function shot(page: Page, name: string, volatile: string[] = [], fullPage = true) {
    const png = await page.screenshot({ fullPage, animations: 'disabled', caret: 'hide' });
    const ignore: Rect[] = volatile.length
      ? await page.$$eval(volatile.join(', '), (els) =>
          els.map((e) => {
            // text of another width each run: up to the right edge of what holds it
            const r = e.getBoundingClientRect();
            const right = Math.max(r.right, e.parentElement?.getBoundingClientRect().right ?? 0);
            return { x: r.x + scrollX, y: r.y + scrollY, width: right - r.x, height: r.height };
          }),
        )
      : [];
    writeIfChanged(join(SHOTS, `${name}.png`), png, ignore);
  }

  const usage = async () =>
    (await t.inject({ method: 'GET', url: '/api/v1/account/usage', headers: { 'x-api-key': t.key } })).json()
      .data as { days: UsageDay[] };

  /** the chart's legend: each series' label and the value it shows */
  const legend = (page: Page) =>
    page.$$eval('#chart .u-legend tr.u-series', (rows) =>
      Object.fromEntries(
        rows.map((r) => [
          r.querySelector('.u-label')?.textContent ?? '',
          r.querySelector('.u-value')?.textContent ?? '',
        ]),
      ),
    );

  /** the pointer on the day's bar, near its foot */
  async function hoverDay(page: Page, days: UsageDay[], date: string) {
    const i = days.findIndex((d) => d.date === date);
    const box = (await page.locator('#chart .u-over').boundingBox())!;
    await page.mouse.move(box.x + (box.width * (i + 0.5)) / days.length, box.y + box.height - 3);
  }

  /** the colours drawn on the canvas up the middle of a day's bar, bottom first, as [colour, pixels] runs */
  function column(page: Page, days: UsageDay[], date: string): Promise<Array<[string, number]>> {
    const i = days.findIndex((d) => d.date === date);
    return page.evaluate(
      ([i, n]) => {
        const canvas = document.querySelector<HTMLCanvasElement>('#chart canvas')!;
        const over = document.querySelector('#chart .u-over')!.getBoundingClientRect();
        const c = canvas.getBoundingClientRect();
        const ratio = canvas.width / c.width;
        const x = Math.round((over.x - c.x + (over.width * (i + 0.5)) / n) * ratio);
        const top = Math.round((over.y - c.y) * ratio);
        const height = Math.round(over.height * ratio);
        // read from a copy: the page's own canvas is not made for reading back (Chromium warns)
        const copy = document.createElement('canvas');
        copy.width = 1;
        copy.height = height;
        const ctx = copy.getContext('2d', { willReadFrequently: true })!;
        ctx.drawImage(canvas, x, top, 1, height, 0, 0, 1, height);
        const px = ctx.getImageData(0, 0, 1, height).data;
        const runs: Array<[string, number]> = [];
        for (let y = height - 1; y >= 0; y--) {
          const hex = `#${[0, 1, 2].map((k) => px[y * 4 + k]!.toString(16).padStart(2, '0')).join('')}`;
          const colour = px[y * 4 + 3] === 255 ? hex : '';
          const last = runs.at(-1);
          if (last && last[0] === colour) last[1]++;
          else runs.push([colour, 1]);
        }
        return runs;
      },
      [i, days.length] as const,
    );
  }
  const bars = (runs: Array<[string, number]>) =>
    runs.filter(([c, n]) => [BLUE, VIOLET, BROWN].includes(c) && n > 1);

  it('a key holder: the chart by day and endpoint, recent calls, a playground call, copying, signing out', async () => {
    const w = await open();
    const { page } = w;
    expect(await page.isVisible('#view-signin')).toBe(true);
    await shot(page, 'dashboard-sign-in');

    // the key field is reachable with the keyboard, and Enter signs in
    let focused = '';
    for (let i = 0; i < 20 && focused !== 'apikey'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.id ?? '');
    }
    expect(focused).toBe('apikey');
    await page.keyboard.type(t.key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#view-overview:not([hidden])');
    await page.waitForSelector('#chart .u-over');
    const balance = async () => Number(await page.getAttribute('#balance', 'data-credits'));
    const chartTotal = async () => Number(await page.getAttribute('#chart', 'data-total-credits'));
    const before = await balance();
    expect(before).toBe(await t.balance());
    expect(await chartTotal()).toBe(100 - before);
    // kept in this tab's sessionStorage only, never in localStorage or a URL
    expect(await page.evaluate(() => sessionStorage.getItem('gleaner.apiKey'))).toBe(t.key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(w.requested.filter((u) => u.includes(t.key))).toEqual([]);
    expect(page.url()).not.toContain(t.key);

    // the chart: a series per endpoint used, in the legend with its credits over the period
    const { days } = await usage();
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe(TODAY);
    const period = (ep: string) => days.reduce((a, d) => a + (d.endpoints[ep]?.credits ?? 0), 0);
    expect(await legend(page)).toEqual({
      'Day (UTC)': 'last 30 days',
      'clipnet.posts': String(period('clipnet.posts')),
      'picnet.posts': String(period('picnet.posts')),
      'ml.analyze': String(period('ml.analyze')),
    });
    // hovering a day shows that day's figures in the legend and a tooltip
    const stacked = days.find((d) => d.date === STACKED)!;
    const picnet = stacked.endpoints['picnet.posts']!.credits;
    const analyze = stacked.endpoints['ml.analyze']!.credits;
    await hoverDay(page, days, STACKED);
    expect(await legend(page)).toEqual({
      'Day (UTC)': STACKED,
      'clipnet.posts': '0',
      'picnet.posts': String(picnet),
      'ml.analyze': String(analyze),
    });
    expect(await page.isVisible('#chart .chart-tip')).toBe(true);
    expect(await page.textContent('#chart .chart-tip')).toBe(
      `${STACKED}picnet.posts: ${picnet} credits, 1 callml.analyze: ${analyze} credits, 1 callIn all: ${picnet + analyze} credits, 2 calls`,
    );
    // drawn: that day's bar is violet (picnet.posts) with brown (ml.analyze) stacked on it, each as
    // tall as its credits; an empty day has no bar
    const col = bars(await column(page, days, STACKED));
    expect(col.map(([c]) => c)).toEqual([VIOLET, BROWN]);
    const perCredit = (col[0]![1] + col[1]![1]) / (picnet + analyze);
    expect(Math.abs(col[0]![1] - picnet * perCredit)).toBeLessThanOrEqual(2);
    expect(bars(await column(page, days, '2026-03-01'))).toEqual([]);
    expect(bars(await column(page, days, '2026-03-10')).map(([c]) => c)).toEqual([BROWN]);
    await shot(page, 'dashboard-overview', ['#account-name', '#calls code']);

    // today's bar, before the playground's call
    const todayBefore = days.at(-1)!.endpoints['clipnet.posts']!.credits;
    await hoverDay(page, days, TODAY);
    expect((await legend(page))['clipnet.posts']).toBe(String(todayBefore));
    const [[, todayPx]] = bars(await column(page, days, TODAY)) as [[string, number]];
    const [[, stackedPx]] = [[0, col[0]![1] + col[1]![1]]] as [[unknown, number]];
    expect(Math.abs(todayPx / stackedPx - todayBefore / (picnet + analyze))).toBeLessThan(0.03);
    await page.mouse.move(0, 0);

    // recent calls, a page at a time: 6 + 5 debits and the initial grant
    const firstPage = await page.$$eval('#calls tr', (rows) => rows.map((r) => r.textContent));
    expect(firstPage).toHaveLength(10);
    await page.click('#calls-older');
    await page.waitForFunction(() => document.getElementById('calls-page')?.textContent === 'Page 2');
    const secondPage = await page.$$eval('#calls tr', (rows) => rows.map((r) => r.textContent));
    expect(secondPage).toHaveLength(2);
    expect(secondPage.at(-1)).toContain('initial credits');
    expect(await page.isDisabled('#calls-older')).toBe(true);
    await page.click('#calls-newer');
    await page.waitForFunction(() => document.getElementById('calls-page')?.textContent === 'Page 1');

    // the playground: a form from the schema with its defaults, the worst case, a call
    await page.click('nav button[data-view="playground"]');
    await page.selectOption('#pg-endpoint', 'clipnet.posts');
    expect(await page.inputValue('#f-limit')).toBe('10');
    expect(await page.getAttribute('#f-limit', 'max')).toBe('100');
    await page.fill('#f-username', 'alice');
    await page.fill('#f-limit', '3');
    // 1 + 3 × (1 + 0.5 sentiment)
    expect(await page.textContent('#pg-cost')).toBe('5.5 credits at most');
    expect(await page.textContent('#snip-cli')).toBe(
      'gleaner clipnet posts --username alice --limit 3 --enrich sentiment',
    );
    expect(await page.textContent('#snip-curl')).toContain('"username":"alice"');
    expect(await page.textContent('#snip-curl')).not.toContain(t.key);

    // each copy button puts its snippet on the clipboard, as shown
    const copied: Record<string, string> = {};
    for (const id of ['snip-curl', 'snip-cli', 'snip-sdk', 'snip-python']) {
      await page.evaluate(() => {
        document.getElementById('pg-copied')!.textContent = '';
        return navigator.clipboard.writeText('');
      });
      await page.click(`button[data-copy="${id}"]`);
      await page.waitForFunction(() => document.getElementById('pg-copied')?.textContent === 'Copied.');
      copied[id] = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied[id], id).toBe(await page.textContent(`#${id}`));
      expect(copied[id], id).not.toContain(t.key);
    }
    expect(copied['snip-curl']!.split('\n')).toEqual([
      `curl -sS -X POST ${url}/api/v1/clipnet/posts \\`,
      `  -H "X-API-Key: $GLEANER_API_KEY" \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d '{"username":"alice","limit":3,"enrich":["sentiment"]}'`,
    ]);
    expect(copied['snip-cli']).toBe('gleaner clipnet posts --username alice --limit 3 --enrich sentiment');
    expect(copied['snip-sdk']).toContain('process.env.GLEANER_API_KEY');
    expect(copied['snip-sdk']).toMatch(/await gleaner\.\w+\(\{\n {2}"username": "alice",\n {2}"limit": 3,/);
    expect(copied['snip-python']).toContain(
      'gleaner.clipnet_posts(username="alice", limit=3, enrich=["sentiment"])',
    );

    // a bound the browser enforces: nothing is sent
    await page.fill('#f-limit', '101');
    await page.click('#pg-send');
    expect(await page.textContent('#pg-status')).toBe('');
    await page.fill('#f-limit', '3');
    await shot(page, 'dashboard-playground', ['#account-name', '#snip-curl', '#snip-sdk', '#snip-python']);
    await page.click('#pg-send');
    await page.waitForFunction(() =>
      /^HTTP 200/.test(document.getElementById('pg-status')?.textContent ?? ''),
    );
    // the figures are read again before the button is offered again
    await page.waitForSelector('#pg-send:not([disabled])');
    const reply = JSON.parse((await page.textContent('#pg-reply'))!) as {
      metadata: { credits_used: number };
    };
    expect(reply.metadata.credits_used).toBe(5.5);

    // the balance, the chart and the recent calls follow
    await page.click('nav button[data-view="overview"]');
    expect(await balance()).toBe(before - 5.5);
    expect(await balance()).toBe(await t.balance());
    expect(await chartTotal()).toBe(100 - before + 5.5);
    expect(await page.textContent('#calls tr:first-child')).toContain('clipnet.posts');
    await hoverDay(page, days, TODAY);
    expect((await legend(page))['clipnet.posts']).toBe(String(todayBefore + 5.5));
    expect(await page.textContent('#chart .chart-tip')).toContain(
      `clipnet.posts: ${todayBefore + 5.5} credits, 7 calls`,
    );
    const [[, todayAfter]] = bars(await column(page, days, TODAY)) as [[string, number]];
    const stackedAfter = bars(await column(page, days, STACKED)).reduce((a, [, n]) => a + n, 0);
    expect(Math.abs(todayAfter / stackedAfter - (todayBefore + 5.5) / (picnet + analyze))).toBeLessThan(0.03);
    expect(await page.textContent(`#chart-table tr[data-date="${TODAY}"]`)).toContain(
      String(todayBefore + 5.5),
    );
    await page.mouse.move(0, 0);

    // phone width: nothing wider than the screen, the chart narrowed to fit
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(
      () => (document.querySelector('#chart canvas')?.getBoundingClientRect().right ?? 999) <= 390,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-phone', ['#account-name', '#calls code']);
    await page.click('nav button[data-view="playground"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.click('nav button[data-view="overview"]');
    await page.setViewportSize({ width: 1280, height: 900 });

    // sign out forgets the key
    await page.click('#signout');
    await page.waitForSelector('#view-signin:not([hidden])');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.$('#chart canvas')).toBeNull();
    await done(w);
  }, 120_000);

  it('an operator: creates a key, grants it credits, revokes it; the revoked key is refused', async () => {
    clock(`${TODAY}T10:00:00Z`);
    const w = await open();
    const { page } = w;
    await page.click('nav button[data-view="operator"]');
    await page.fill('#admintoken', ADMIN_TOKEN);
    await page.press('#admintoken', 'Enter');
    await page.waitForFunction(
      () =>
        !document.getElementById('operator-body')?.hidden ||
        document.getElementById('operator-status')?.textContent,
    );
    expect(await page.textContent('#operator-status')).toBe('');
    expect(await page.textContent('#reconcile')).toContain('no difference');
    clock(`${TODAY}T10:05:00Z`);
    await page.fill('#new-name', 'partner');
    await page.fill('#new-credits', '25');
    await page.click('#create-form button[type="submit"]');
    await page.waitForSelector('#new-key-value');
    const newKey = (await page.textContent('#new-key-value'))!;
    expect(newKey).toMatch(/^gl_/);
    const partner = (await t.services.ledger.listKeys()).find((k) => k.name === 'partner')!;
    expect(partner.balance).toBe(25_000);
    await page.selectOption('#grant-key', partner.id);
    await page.fill('#grant-credits', '10');
    await page.fill('#grant-note', 'trial');
    await page.click('#grant-form button[type="submit"]');
    await page.waitForFunction(() =>
      /now has 35 credits/.test(document.getElementById('operator-status')?.textContent ?? ''),
    );
    expect((await t.services.ledger.getKey(partner.id))!.balance).toBe(35_000);
    const row = `#keys tr[data-key="${partner.id}"]`;
    expect(await page.textContent(row)).toContain('35');
    // the new key works against the API at once
    const account = (key: string) =>
      t.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key } });
    expect((await account(newKey)).json().data.credits).toBe(35);
    await shot(page, 'dashboard-operator', ['#keys code', '#new-key-value', '#grant-key']);
    // on a phone, the keys table scrolls inside its card: the page itself is no wider than the screen
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    // the new key's holder signs in (another tab): no calls yet, an empty chart that says so
    const holder = await open();
    await holder.page.fill('#apikey', newKey);
    await holder.page.press('#apikey', 'Enter');
    await holder.page.waitForSelector('#chart .u-over');
    expect(await holder.page.getAttribute('#balance', 'data-credits')).toBe('35');
    expect(await holder.page.textContent('#chart')).toContain('No calls in this period yet.');
    expect(await legend(holder.page)).toEqual({ 'Day (UTC)': 'last 30 days' });
    expect(await holder.page.$$eval('#chart-table tbody tr', (rows) => rows.length)).toBe(0);
    await done(holder);

    // revoking asks first: dismissed, nothing happens
    page.once('dialog', (d) => void d.dismiss());
    await page.click(`${row} button[data-revoke]`);
    expect(await page.textContent(`${row} td:nth-child(5)`)).toBe('active');
    expect((await account(newKey)).statusCode).toBe(200);
    // accepted: the key is revoked, offered for no more grants, refused by the API and at sign-in
    page.once('dialog', (d) => void d.accept());
    await page.click(`${row} button[data-revoke]`);
    await page.waitForFunction(() =>
      /^Revoked /.test(document.getElementById('operator-status')?.textContent ?? ''),
    );
    expect(await page.textContent(`${row} td:nth-child(5)`)).toBe('revoked');
    expect(await page.$(`${row} button[data-revoke]`)).toBeNull();
    expect(
      await page.$$eval('#grant-key option', (o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).not.toContain(partner.id);
    expect((await t.services.ledger.getKey(partner.id))!.revokedAt).not.toBeNull();
    const refused = await account(newKey);
    expect(refused.statusCode).toBe(401);
    expect(
      (await t.post('/clipnet/posts', { username: 'bob', limit: 1 }, { 'x-api-key': newKey })).statusCode,
    ).toBe(401);
    await page.click('nav button[data-view="overview"]');
    await page.fill('#apikey', newKey);
    await page.press('#apikey', 'Enter');
    await page.waitForFunction(() => document.getElementById('signin-status')?.textContent !== '');
    expect(await page.textContent('#signin-status')).toBe('That key is not valid.');
    expect(await page.isVisible('#view-signin')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('gleaner.apiKey'))).toBeNull();
    // the 401 of the refused sign-in is the one console message the page may cause
    w.problems = w.problems.filter((p) => !/status of 401/.test(p));
    await done(w);
  }, 60_000);

  it('every main control is reached with Tab and works from the keyboard', async () => {
    const w = await open();
    const { page } = w;
    /** what has the focus, by a name a test can read */
    const focusName = () =>
      page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        if (!e || e === document.body) return '';
        if (e.id) return `#${e.id}`;
        if (e.dataset.view) return `view:${e.dataset.view}`;
        if (e.dataset.copy) return `copy:${e.dataset.copy}`;
        if (e.dataset.revoke) return 'revoke';
        if (e.classList.contains('u-over')) return 'chart';
        if (e.closest('.u-legend')) return `legend:${e.textContent}`;
        if (e.closest('form')) return `${e.closest('form')!.id}:${e.tagName.toLowerCase()}`;
        return e.tagName.toLowerCase();
      });
    /** every stop of the Tab key's round through the page */
    async function round(): Promise<string[]> {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const stops: string[] = [];
      for (let i = 0; i < 150; i++) {
        await page.keyboard.press('Tab');
        const name = await focusName();
        if (name === stops[0]) break;
        if (name) stops.push(name);
      }
      return stops;
    }
    const tabTo = async (name: string) => {
      for (let i = 0; i < 150 && (await focusName()) !== name; i++) await page.keyboard.press('Tab');
      expect(await focusName()).toBe(name);
    };

    expect(await round()).toEqual(
      expect.arrayContaining([
        'view:overview',
        'view:playground',
        'view:operator',
        '#apikey',
        'signin-form:button',
      ]),
    );
    await tabTo('#apikey');
    await page.keyboard.type(t.key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#chart .u-over');
    const overview = await round();
    expect(overview).toEqual(
      expect.arrayContaining([
        '#signout',
        'chart',
        'legend:clipnet.posts',
        'legend:picnet.posts',
        'legend:ml.analyze',
        'summary',
        '#calls-older',
      ]),
    );
    // the chart from the keyboard: the focus shows today, the arrows walk the days, read out
    await tabTo('chart');
    const spoken = () => page.textContent('#chart [aria-live]');
    expect(await spoken()).toMatch(
      new RegExp(`^${TODAY}: [\\d.]+ credits, \\d+ calls \\(clipnet\\.posts [\\d.]+\\)$`),
    );
    expect(await page.textContent('#chart .u-legend .u-series:first-child .u-value')).toBe(TODAY);
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowLeft');
    expect(await spoken()).toMatch(
      /^2026-03-04: [\d.]+ credits, 2 calls \(picnet\.posts [\d.]+, ml\.analyze [\d.]+\)$/,
    );
    await page.keyboard.press('Home');
    expect(await spoken()).toBe('2026-02-15: 0 credits, 0 calls');
    // a legend entry switches its series off and on
    await tabTo('legend:ml.analyze');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('#chart .u-legend .u-series:nth-child(4) th', 'aria-pressed')).toBe(
      'false',
    );
    expect(await page.getAttribute('#chart .u-legend .u-series:nth-child(4)', 'class')).toContain('u-off');
    await page.keyboard.press(' ');
    expect(await page.getAttribute('#chart .u-legend .u-series:nth-child(4) th', 'aria-pressed')).toBe(
      'true',
    );

    // the views switch from the keyboard
    await tabTo('view:playground');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#view-playground:not([hidden])');
    expect(await round()).toEqual(
      expect.arrayContaining([
        '#pg-endpoint',
        '#f-username',
        '#f-limit',
        '#pg-send',
        '#pg-reply',
        'copy:snip-curl',
        'copy:snip-cli',
        'copy:snip-sdk',
        'copy:snip-python',
      ]),
    );
    await tabTo('view:operator');
    await page.keyboard.press('Enter');
    await tabTo('#admintoken');
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#operator-body:not([hidden])');
    expect(await round()).toEqual(
      expect.arrayContaining([
        '#operator-refresh',
        'revoke',
        '#new-name',
        '#new-credits',
        'create-form:button',
        '#grant-key',
        '#grant-credits',
        '#grant-note',
        'grant-form:button',
      ]),
    );
    await tabTo('#signout');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#view-signin:not([hidden])');
    expect(await focusName()).toBe('#apikey');
    await done(w);
  }, 60_000);

  it("reads each screenshot's pixels as Chromium decodes them (the comparison of screenshots.ts)", async () => {
    const page = await browser.newPage();
    try {
      for (const name of ['sign-in', 'overview', 'playground', 'operator', 'phone']) {
        const png = readFileSync(join(SHOTS, `dashboard-${name}.png`));
        const ours = decodePng(png);
        const theirs = await page.evaluate(async (b64) => {
          const img = new Image();
          img.src = `data:image/png;base64,${b64}`;
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
          ctx.drawImage(img, 0, 0);
          const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
          // FNV-1a over the RGBA bytes (about:blank has no crypto.subtle)
          let hash = 0x811c9dc5;
          for (const b of data) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
          return { width: canvas.width, height: canvas.height, hash };
        }, png.toString('base64'));
        let hash = 0x811c9dc5;
        for (const b of ours.rgba) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
        expect({ width: ours.width, height: ours.height, hash }, name).toEqual(theirs);
      }
    } finally {
      await page.close();
    }
  });
});
