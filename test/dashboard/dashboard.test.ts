// The web dashboard at /dashboard: served from the service alone under a strict CSP, and, driven
// in headless Chromium with every outside request blocked, a key holder signs in, sends a call
// from the playground, sees the balance and the chart change, pages the recent calls and signs
// out; an operator creates a key and grants it credits. Screenshots of each view are written to
// docs/screenshots/ (the README shows one).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP } from '../../src/http/plugins/docs.js';
import { ROOT } from '../../src/paths.js';
import { startApp, type TestApp } from '../support/app.js';
import { browserMissing, launchChromium } from '../support/browser.js';

const ADMIN_TOKEN = 'admin-token-dashboard-0123';
const SHOTS = join(ROOT, 'docs/screenshots');

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await startApp({ credits: 100, env: { ADMIN_TOKEN } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
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

  it('serves its modules, style sheet and catalog, and nothing else', async () => {
    for (const name of ['app.js', 'chart.js', 'cost.js', 'dom.js', 'snippets.js']) {
      const r = await fetch(`${url}/dashboard/assets/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/javascript');
      const js = await r.text();
      // compiled: no type annotations left
      expect(js, name).not.toMatch(/^\s*(interface|type) \w+/m);
    }
    expect((await fetch(`${url}/dashboard/assets/dashboard.css`)).headers.get('content-type')).toContain(
      'text/css',
    );
    const catalog = (await (await fetch(`${url}/dashboard/catalog.json`)).json()) as { endpoints: unknown[] };
    expect(catalog.endpoints).toHaveLength(13);
    for (const bad of ['..%2Fapp.ts', 'app.ts', 'catalog.ts', 'constructor'])
      expect((await fetch(`${url}/dashboard/assets/${bad}`)).status, bad).toBe(404);
  });
});

const missing = browserMissing('dashboard');

describe.skipIf(missing)('/dashboard in headless Chromium', () => {
  it('key holder and operator flows, keyboard reachable, no console errors', async () => {
    // twelve calls before signing in: two pages of recent calls
    for (let i = 0; i < 12; i++)
      expect((await t.post('/clipnet/posts', { username: 'bob', limit: 1 })).statusCode).toBe(200);
    mkdirSync(SHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const origin = new URL(url).origin;
      const outside: string[] = [];
      const problems: string[] = [];
      const requested: string[] = [];
      await page.route('**/*', (route) => {
        const u = route.request().url();
        requested.push(u);
        if (u.startsWith(`${origin}/`) || u.startsWith('data:')) return route.continue();
        outside.push(u);
        return route.abort();
      });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));

      await page.goto(`${url}/dashboard`, { waitUntil: 'load' });
      await page.waitForSelector('#dashboard[data-ready="true"]');
      expect(await page.isVisible('#view-signin')).toBe(true);
      await page.screenshot({ path: join(SHOTS, 'dashboard-sign-in.png') });

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
      const balance = async () => Number(await page.getAttribute('#balance', 'data-credits'));
      const chartTotal = async () => Number(await page.getAttribute('#chart', 'data-total-credits'));
      const before = await balance();
      expect(before).toBe(await t.balance());
      const chartBefore = await chartTotal();
      expect(chartBefore).toBe(100 - before);
      // kept in this tab's sessionStorage only, never in localStorage or a URL
      expect(await page.evaluate(() => sessionStorage.getItem('gleaner.apiKey'))).toBe(t.key);
      expect(await page.evaluate(() => localStorage.length)).toBe(0);
      expect(requested.filter((u) => u.includes(t.key))).toEqual([]);
      expect(page.url()).not.toContain(t.key);
      await page.screenshot({ path: join(SHOTS, 'dashboard-overview.png'), fullPage: true });

      // recent calls, a page at a time
      const firstPage = await page.$$eval('#calls tr', (rows) => rows.map((r) => r.textContent));
      expect(firstPage).toHaveLength(10);
      await page.click('#calls-older');
      await page.waitForFunction(() => document.getElementById('calls-page')?.textContent === 'Page 2');
      const secondPage = await page.$$eval('#calls tr', (rows) => rows.map((r) => r.textContent));
      // 12 debits and the initial grant
      expect(secondPage).toHaveLength(3);
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
      // a bound the browser enforces: nothing is sent
      await page.fill('#f-limit', '101');
      await page.click('#pg-send');
      expect(await page.textContent('#pg-status')).toBe('');
      await page.fill('#f-limit', '3');
      await page.screenshot({ path: join(SHOTS, 'dashboard-playground.png'), fullPage: true });
      await page.click('#pg-send');
      await page.waitForFunction(() =>
        /^HTTP 200/.test(document.getElementById('pg-status')?.textContent ?? ''),
      );
      const reply = JSON.parse((await page.textContent('#pg-reply'))!) as {
        metadata: { credits_used: number };
      };
      expect(reply.metadata.credits_used).toBe(5.5);
      await page.click('nav button[data-view="overview"]');
      expect(await balance()).toBe(before - 5.5);
      expect(await balance()).toBe(await t.balance());
      expect(await chartTotal()).toBe(chartBefore + 5.5);
      expect(await page.textContent('#calls tr:first-child')).toContain('clipnet.posts');

      // phone width: nothing wider than the screen
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, 'dashboard-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      // sign out forgets the key
      await page.click('#signout');
      await page.waitForSelector('#view-signin:not([hidden])');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

      // the operator: create a key, grant it credits
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
      expect(await page.textContent(`#keys tr[data-key="${partner.id}"]`)).toContain('35');
      // the new key works against the API at once
      expect(
        (await t.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': newKey } })).json()
          .data.credits,
      ).toBe(35);
      await page.screenshot({ path: join(SHOTS, 'dashboard-operator.png'), fullPage: true });

      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
