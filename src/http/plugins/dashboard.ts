// The web dashboard at /dashboard: sign in with an API key to see the balance, credits per day by
// endpoint and the recent calls, try every endpoint in a playground, and, with ADMIN_TOKEN, manage
// keys. The page calls the same JSON APIs as any client (/api/v1/account…, the paid endpoints,
// /admin/v1); the key stays in the tab's sessionStorage and travels as a header only.
// The browser code is the TypeScript under src/dashboard/client/, compiled by the build into
// dist/ (from the sources, under tsx or the tests, each module is compiled on first request); the
// chart library, uPlot, is served from its installed package.
// Served with no outside host and under a strict CSP, like /docs.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { API_PREFIX } from '../../contract/endpoints.js';
import { CSS } from '../../dashboard/style.js';
import { AppError } from '../../errors.js';
import { buildCatalog } from '../../services/catalog.js';
import { DOCS_CSP } from './docs.js';

/** the browser modules, by the name the page asks for */
const MODULES: ReadonlySet<string> = new Set(['app.js', 'chart.js', 'cost.js', 'dom.js', 'snippets.js']);

const CLIENT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../dashboard/client');

/** files served as they are from installed packages (a Map: the name comes from the URL) */
const VENDORED: ReadonlyMap<string, { pkg: string; file: string; type: string }> = new Map([
  // the chart library's ESM build: chart.js imports it as './uplot.js'
  ['uplot.js', { pkg: 'uplot', file: 'dist/uPlot.esm.js', type: 'text/javascript; charset=utf-8' }],
  ['uplot.css', { pkg: 'uplot', file: 'dist/uPlot.min.css', type: 'text/css; charset=utf-8' }],
]);

/** a file of an installed package: resolved from node_modules at run time, from src/ or dist/ alike */
async function vendored(pkg: string, file: string): Promise<string> {
  const dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  return readFile(join(dir, file), 'utf8');
}

const SECURITY_HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** the compiled module, or (running from the sources) the TypeScript compiled now */
async function compiled(name: string): Promise<string> {
  const js = join(CLIENT_DIR, name);
  if (existsSync(js)) return (await readFile(js, 'utf8')).replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');
  const source = await readFile(js.replace(/\.js$/, '.ts'), 'utf8');
  const ts = (await import('typescript')).default;
  return ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
  }).outputText;
}

function page(prefix: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gleaner dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${prefix}/assets/uplot.css">
<link rel="stylesheet" href="${prefix}/assets/dashboard.css">
<script type="module" src="${prefix}/assets/app.js"></script>
</head>
<body>
<div id="dashboard" data-api="${API_PREFIX}" data-catalog="${prefix}/catalog.json" data-openapi="${API_PREFIX}/openapi.json">
<header>
  <h1>Gleaner <span id="account-name" class="muted"></span></h1>
  <nav aria-label="Views">
    <button type="button" data-view="overview">Overview</button>
    <button type="button" data-view="playground">Playground</button>
    <button type="button" data-view="operator">Operator</button>
    <button type="button" id="signout" class="secondary" hidden>Sign out</button>
  </nav>
</header>
<main>
<noscript><p>The dashboard needs JavaScript. The API reference is at <a href="/docs">/docs</a>.</p></noscript>

<section id="view-signin" class="card" hidden>
  <h2>Sign in</h2>
  <form id="signin-form" autocomplete="off">
    <div class="field">
      <label for="apikey">API key</label>
      <input id="apikey" name="apikey" type="password" autocomplete="off" spellcheck="false" required aria-describedby="apikey-hint">
      <small id="apikey-hint">Kept in this tab only (sessionStorage) and sent as the X-API-Key header; signing out or closing the tab forgets it.</small>
    </div>
    <button type="submit">Sign in</button>
  </form>
  <p id="signin-status" class="status" role="status" aria-live="polite"></p>
</section>

<div id="view-overview" hidden>
  <section class="card" aria-labelledby="balance-title">
    <h2 id="balance-title">Balance</h2>
    <div><span id="balance" class="balance" tabindex="-1">–</span> credits</div>
    <dl id="figures" class="figures"></dl>
  </section>
  <section class="card" aria-labelledby="chart-title">
    <h2 id="chart-title">Credits per day by endpoint, last 30 days (UTC)</h2>
    <div id="chart"></div>
  </section>
  <section class="card" aria-labelledby="calls-title">
    <h2 id="calls-title">Recent calls</h2>
    <div class="scroll">
      <table>
        <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Endpoint</th><th scope="col" class="num">Credits</th><th scope="col">Request id</th><th scope="col">Idempotency-Key</th></tr></thead>
        <tbody id="calls"></tbody>
      </table>
    </div>
    <div class="pager">
      <button type="button" id="calls-newer" class="secondary small">Newer</button>
      <span id="calls-page" class="muted"></span>
      <button type="button" id="calls-older" class="secondary small">Older</button>
    </div>
  </section>
</div>

<div id="view-playground" hidden>
  <section class="card">
    <h2>Playground</h2>
    <form id="pg-form" novalidate>
      <div class="field">
        <label for="pg-endpoint">Endpoint</label>
        <select id="pg-endpoint"></select>
        <small id="pg-summary"></small>
      </div>
      <div id="pg-fields"></div>
      <p>Worst case: <span id="pg-cost" class="cost" aria-live="polite"></span> · balance <span id="pg-balance"></span> credits</p>
      <button type="submit" id="pg-send">Send</button>
    </form>
    <p id="pg-status" class="status" role="status" aria-live="polite"></p>
    <h3>Reply</h3>
    <pre id="pg-reply" tabindex="0" aria-label="Reply"></pre>
  </section>
  <section class="card">
    <h2>Copy the request</h2>
    <p class="muted">The key is read from the GLEANER_API_KEY environment variable, never written out.</p>
    <div class="cols">
      <div><h3>curl</h3><pre id="snip-curl"></pre><button type="button" class="secondary small" data-copy="snip-curl">Copy curl</button></div>
      <div><h3>gleaner CLI</h3><pre id="snip-cli"></pre><button type="button" class="secondary small" data-copy="snip-cli">Copy CLI line</button></div>
    </div>
    <h3>SDK (TypeScript)</h3><pre id="snip-sdk"></pre><button type="button" class="secondary small" data-copy="snip-sdk">Copy SDK code</button>
    <h3>Python</h3><pre id="snip-python"></pre><button type="button" class="secondary small" data-copy="snip-python">Copy Python code</button>
    <p id="pg-copied" class="status" role="status" aria-live="polite"></p>
  </section>
</div>

<div id="view-operator" hidden>
  <section class="card" id="operator-signin">
    <h2>Operator</h2>
    <form id="operator-form" autocomplete="off">
      <div class="field">
        <label for="admintoken">Admin token</label>
        <input id="admintoken" type="password" autocomplete="off" required aria-describedby="admintoken-hint">
        <small id="admintoken-hint">The server's ADMIN_TOKEN; kept in this tab only and sent as a bearer token.</small>
      </div>
      <button type="submit">Unlock</button>
    </form>
  </section>
  <p id="operator-status" class="status" role="status" aria-live="polite"></p>
  <div id="operator-body" hidden>
    <section class="card">
      <h2>Reconcile</h2>
      <div id="reconcile"></div>
      <button type="button" id="operator-refresh" class="secondary small">Refresh</button>
    </section>
    <section class="card">
      <h2>Keys</h2>
      <div class="scroll">
        <table>
          <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Last 30 days (credits / calls)</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
          <tbody id="keys"></tbody>
        </table>
      </div>
    </section>
    <div class="cols">
      <section class="card">
        <h2>Create a key</h2>
        <form id="create-form" class="row">
          <div><label for="new-name">Name</label><input id="new-name" required maxlength="200"></div>
          <div><label for="new-credits">Credits</label><input id="new-credits" type="number" min="0" max="1000000000" step="0.001" required value="100"></div>
          <button type="submit">Create</button>
        </form>
        <div id="new-key" role="status" aria-live="polite" hidden></div>
      </section>
      <section class="card">
        <h2>Grant credits</h2>
        <form id="grant-form">
          <div class="field"><label for="grant-key">Key</label><select id="grant-key" required></select></div>
          <div class="row">
            <div><label for="grant-credits">Credits</label><input id="grant-credits" type="number" min="0.001" max="1000000000" step="0.001" required></div>
            <div><label for="grant-note">Note</label><input id="grant-note" maxlength="500"></div>
            <button type="submit">Grant</button>
          </div>
        </form>
      </section>
    </div>
  </div>
</div>
</main>
</div>
</body>
</html>
`;
}

export interface DashboardOptions {
  /** where the dashboard is served (default /dashboard) */
  prefix?: string;
}

const dashboard: FastifyPluginAsync<DashboardOptions> = async (app, opts) => {
  const prefix = (opts.prefix ?? '/dashboard').replace(/\/+$/, '');
  const html = page(prefix);
  const catalog = JSON.stringify(buildCatalog());
  const cache = new Map<string, string>();

  app.get(prefix, async (_req, reply) =>
    reply.headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(html),
  );
  app.get(`${prefix}/`, async (_req, reply) => reply.redirect(prefix, 301));
  app.get(`${prefix}/catalog.json`, async (_req, reply) =>
    reply.headers(SECURITY_HEADERS).type('application/json; charset=utf-8').send(catalog),
  );
  app.get<{ Params: { name: string } }>(`${prefix}/assets/:name`, async (req, reply) => {
    const name = req.params.name;
    if (name === 'dashboard.css')
      return reply.headers(SECURITY_HEADERS).type('text/css; charset=utf-8').send(CSS);
    const vendor = VENDORED.get(name);
    if (!vendor && !MODULES.has(name)) throw new AppError('NOT_FOUND', `No asset ${name}`);
    let text = cache.get(name);
    if (text === undefined) {
      text = vendor ? await vendored(vendor.pkg, vendor.file) : await compiled(name);
      cache.set(name, text);
    }
    return reply
      .headers(SECURITY_HEADERS)
      .type(vendor?.type ?? 'text/javascript; charset=utf-8')
      .send(text);
  });
};

export default dashboard;
