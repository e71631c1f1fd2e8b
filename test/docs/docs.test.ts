// The API reference at /docs: served from local files under a strict CSP, and, opened in headless
// Chromium with every outside request blocked, it renders every endpoint of the OpenAPI document.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { SqliteLedger } from '../../src/billing/ledger/sqlite/ledger.js';
import { createServices, type Services } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { DOCS_CSP } from '../../src/http/plugins/docs.js';
import { browserMissing, launchChromium } from '../support/browser.js';
import { fakeEnricher, fakeSources } from '../support/fakes.js';

let app: App;
let services: Services;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-docs-'));
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'ledger.db')}`, LOG_LEVEL: 'silent' });
  const logger = pino({ level: 'silent' });
  services = await createServices(config, logger, {
    ledger: new SqliteLedger(join(dir, 'ledger.db')),
    sources: fakeSources(),
    enricher: fakeEnricher(),
  });
  app = await buildApp({ services, logger });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await services?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/docs over HTTP', () => {
  it('serves the page with a CSP that allows this origin only', async () => {
    const r = await fetch(`${url}/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("default-src 'none'");
    expect(DOCS_CSP).not.toMatch(/https?:|\*|unsafe/);
    const html = await r.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(html).toContain('/api/v1/openapi.json');
  });

  it('serves the renderer assets from the local package', async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
    ] as const) {
      const r = await fetch(`${url}/docs/assets/${name}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain(type);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    expect((await fetch(`${url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${url}/docs/assets/index.html`)).status).toBe(404);
  });

  it('has a request example, a success example and an example of every error for every endpoint', async () => {
    const doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { post?: Record<string, unknown> }>;
    };
    for (const e of ENDPOINTS) {
      const op = doc.paths[`/api/v1${e.path}`]?.post as {
        requestBody: { content: { 'application/json': { example?: unknown } } };
        responses: Record<
          string,
          { content: { 'application/json': { example?: unknown; examples?: unknown } } }
        >;
      };
      expect(op.requestBody.content['application/json'].example, e.path).toBeTruthy();
      const ok = op.responses['200']?.content['application/json'].example as {
        success: boolean;
        data: unknown;
      };
      expect(ok?.success, e.path).toBe(true);
      for (const status of [
        '400',
        '401',
        '402',
        '404',
        '405',
        '409',
        '413',
        '415',
        '422',
        '429',
        '500',
        '502',
        '503',
      ]) {
        const media = op.responses[status]?.content['application/json'];
        expect(media?.example ?? media?.examples, `${e.path} ${status}`).toBeTruthy();
      }
    }
  });
});

const missing = browserMissing('/docs');

describe.skipIf(missing)('/docs in headless Chromium', () => {
  it('lists every endpoint, loading nothing from another host', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const origin = new URL(url).origin;
      const outside: string[] = [];
      const problems: string[] = [];
      await page.route('**/*', (route) => {
        const u = route.request().url();
        if (u.startsWith(`${origin}/`) || u.startsWith('data:')) return route.continue();
        outside.push(u);
        return route.abort();
      });
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${url}/docs`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
      const paths = await page.$$eval('.opblock-summary-path', (els) =>
        els.map((el) => el.getAttribute('data-path') ?? el.textContent?.trim() ?? ''),
      );
      const api = [
        ...new Set(paths.map((p) => p.replace(/\u200b/g, '')).filter((p) => p.startsWith('/api/v1/'))),
      ];
      const account = ['/api/v1/account', '/api/v1/account/entries', '/api/v1/account/usage'];
      expect(api.sort()).toEqual([...ENDPOINTS.map((e) => `/api/v1${e.path}`), ...account].sort());
      expect(api).toHaveLength(ENDPOINTS.length + account.length);

      // an operation opens on its examples, errors included
      await page.click('#operations-clipnet-clipnet_posts .opblock-summary');
      await page.waitForSelector('#operations-clipnet-clipnet_posts .responses-table');
      const text = await page.textContent('#operations-clipnet-clipnet_posts');
      expect(text).toContain('PAYMENT_REQUIRED');
      expect(text).toContain('Insufficient credits');
      expect(text).toContain('example_user');

      expect(outside).toEqual([]);
      expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
