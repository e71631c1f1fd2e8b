// The interactive API reference at /docs: Swagger UI rendering /api/v1/openapi.json. Its assets
// come from the swagger-ui-dist package on disk, never from a CDN, and a strict Content Security
// Policy keeps the page from loading or sending anything to another host (a reference page that
// holds a typed-in API key must not talk to third parties).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';

export interface DocsOptions {
  /** where the page is served (default /docs) */
  prefix?: string;
  /** the OpenAPI document the page renders (default /api/v1/openapi.json) */
  openapiUrl?: string;
  title?: string;
}

// a Map: the name comes from the URL, and a plain object would answer "constructor" or
// "__proto__" with a prototype member
const ASSETS: ReadonlyMap<string, { file: string; type: string }> = new Map([
  ['swagger-ui.css', { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' }],
  ['swagger-ui-bundle.js', { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' }],
  ['favicon-32x32.png', { file: 'favicon-32x32.png', type: 'image/png' }],
]);

/** Only this origin: no inline script, no eval, no outside host for anything. Swagger UI sets
 *  element styles from script, which style-src 'self' allows (CSSOM, not inline markup). */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(prefix: string, openapiUrl: string, title: string): string {
  const t = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t}</title>
<link rel="icon" type="image/png" href="${prefix}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${prefix}/assets/swagger-ui.css">
</head>
<body>
<noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${escapeHtml(openapiUrl)}">${escapeHtml(openapiUrl)}</a>.</noscript>
<div id="gleaner-docs" data-openapi-url="${escapeHtml(openapiUrl)}"></div>
<script src="${prefix}/assets/swagger-ui-bundle.js"></script>
<script src="${prefix}/init.js"></script>
</body>
</html>
`;
}

// An external file, since the CSP forbids inline script.
const INIT = `(function () {
  var el = document.getElementById('gleaner-docs');
  window.ui = SwaggerUIBundle({
    url: el.getAttribute('data-openapi-url'),
    domNode: el,
    deepLinking: true,
    // no calls to the public validator service
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
})();
`;

export const docsRoutes: FastifyPluginAsync<DocsOptions> = async (app, opts) => {
  const prefix = (opts.prefix ?? '/docs').replace(/\/+$/, '');
  const openapiUrl = opts.openapiUrl ?? '/api/v1/openapi.json';
  const html = page(prefix, openapiUrl, opts.title ?? 'Gleaner API reference');
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();

  app.get(prefix, async (_req, reply) =>
    reply.headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(html),
  );
  app.get(`${prefix}/`, async (_req, reply) => reply.redirect(prefix, 301));
  app.get(`${prefix}/init.js`, async (_req, reply) =>
    reply.headers(SECURITY_HEADERS).type('text/javascript; charset=utf-8').send(INIT),
  );
  app.get<{ Params: { name: string } }>(`${prefix}/assets/:name`, async (req, reply) => {
    const asset = ASSETS.get(req.params.name);
    if (!asset) throw new AppError('NOT_FOUND', `No asset ${req.params.name}`);
    let body = cache.get(asset.file);
    if (!body) {
      body = await readFile(join(dist, asset.file));
      cache.set(asset.file, body);
    }
    return reply
      .headers(SECURITY_HEADERS)
      .header('cache-control', 'public, max-age=86400')
      .type(asset.type)
      .send(body);
  });
};

export default docsRoutes;
