// The dashboard in the browser: sign in with an API key (kept in sessionStorage, sent as the
// X-API-Key header, never in a URL), the balance, credits per day by endpoint, the recent calls,
// the playground, and the operator view (ADMIN_TOKEN, also in sessionStorage only).
import { clearChart, renderChart, type UsageDay } from './chart.js';
import { type CostCatalog, worstCase } from './cost.js';
import { byId, credits, h, replace } from './dom.js';
import { type Body, type CliField, cliLine, curl, pythonCode, sdkCode } from './snippets.js';

const KEY = 'gleaner.apiKey';
const ADMIN = 'gleaner.adminToken';
const PAGE = 10;

interface Catalog extends CostCatalog {
  prefix: string;
  endpoints: Array<
    CostCatalog['endpoints'][number] & {
      path: string;
      summary: string;
      sdk: string;
      cli: { command: string; fields: Record<string, CliField> };
    }
  >;
}

type Json = Record<string, unknown>;
interface Schema {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  const?: unknown;
}

const root = byId('dashboard');
const apiBase = root.dataset.api ?? '/api/v1';
let catalog: Catalog;
let openapi: { paths: Record<string, { post?: Json }>; components: { schemas: Record<string, Schema> } };
let cursors: Array<string | null> = [null];

// ---- requests ----

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call(
  url: string,
  init: RequestInit & { admin?: boolean } = {},
): Promise<{ status: number; body: unknown }> {
  const headers = new Headers(init.headers);
  if (init.admin) headers.set('Authorization', `Bearer ${sessionStorage.getItem(ADMIN) ?? ''}`);
  else {
    const key = sessionStorage.getItem(KEY);
    if (key) headers.set('X-API-Key', key);
  }
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const r = await fetch(url, { ...init, headers, credentials: 'omit', cache: 'no-store' });
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: shown as it is
  }
  return { status: r.status, body };
}

async function getData<T>(url: string, admin = false): Promise<T> {
  const r = await call(url, { admin });
  const b = r.body as { data?: T; error?: { message?: string } };
  if (r.status >= 400) throw new HttpError(r.status, b?.error?.message ?? `HTTP ${r.status}`);
  return (admin ? r.body : b.data) as T;
}

function say(id: string, text: string, kind: 'ok' | 'error' | '' = '') {
  const el = byId(id);
  el.textContent = text;
  el.className = `status ${kind}`;
}

// ---- views ----

function show(view: 'signin' | 'overview' | 'playground' | 'operator') {
  const signedIn = sessionStorage.getItem(KEY) !== null;
  if ((view === 'overview' || view === 'playground') && !signedIn) view = 'signin';
  for (const id of ['signin', 'overview', 'playground', 'operator']) byId(`view-${id}`).hidden = id !== view;
  for (const tab of Array.from(document.querySelectorAll<HTMLButtonElement>('nav button[data-view]'))) {
    const current = tab.dataset.view === view || (view === 'signin' && tab.dataset.view === 'overview');
    tab.setAttribute('aria-current', current ? 'page' : 'false');
  }
  byId('signout').hidden = !signedIn;
}

async function signIn(e: Event) {
  e.preventDefault();
  const input = byId<HTMLInputElement>('apikey');
  const key = input.value.trim();
  if (!key) return say('signin-status', 'Enter an API key.', 'error');
  sessionStorage.setItem(KEY, key);
  try {
    await refresh();
    input.value = '';
    say('signin-status', '');
    show('overview');
    byId('balance').focus();
  } catch (err) {
    sessionStorage.removeItem(KEY);
    say(
      'signin-status',
      err instanceof HttpError && err.status === 401
        ? 'That key is not valid.'
        : String((err as Error).message),
      'error',
    );
  }
}

function signOut() {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(ADMIN);
  replace(byId('account-name'));
  byId('balance').textContent = '–';
  replace(byId('calls'));
  clearChart(byId('chart'));
  replace(byId('keys'));
  replace(byId('reconcile'));
  replace(byId('new-key'));
  byId('new-key').hidden = true;
  byId('operator-body').hidden = true;
  byId('operator-signin').hidden = false;
  show('signin');
  byId('apikey').focus();
}

// ---- overview ----

async function refresh() {
  const [account, usage] = await Promise.all([
    getData<Json & { totals: Json }>(`${apiBase}/account`),
    getData<{ days: UsageDay[]; total: { credits: number; calls: number } }>(`${apiBase}/account/usage`),
  ]);
  replace(byId('account-name'), `${account.name} (${account.prefix}…)`);
  byId('balance').textContent = credits(account.credits as number);
  byId('balance').dataset.credits = String(account.credits);
  replace(
    byId('figures'),
    ...[
      ['Available', account.available],
      ['Held by running calls', account.held],
      ['Granted in all', account.totals.granted],
      ['Spent in all', account.totals.spent],
      ['Calls in all', account.totals.calls],
      ['Spent, last 30 days', usage.total.credits],
    ].map(([k, v]) => h('div', {}, h('dt', {}, String(k)), h('dd', {}, credits(v as number)))),
  );
  byId('pg-balance').textContent = credits(account.credits as number);
  renderChart(
    byId('chart'),
    usage.days,
    catalog.endpoints.map((e) => e.id),
  );
  cursors = [null];
  await loadCalls();
}

async function loadCalls() {
  const cursor = cursors[cursors.length - 1];
  const page = await getData<{ entries: Json[]; next_cursor: string | null }>(
    `${apiBase}/account/entries?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
  );
  const rows = page.entries.map((e) =>
    h(
      'tr',
      {},
      h('td', {}, h('time', { datetime: String(e.time) }, String(e.time).replace('T', ' ').slice(0, 19))),
      h('td', {}, e.kind === 'grant' ? `grant${e.note ? ` (${e.note})` : ''}` : String(e.endpoint ?? '')),
      h('td', { class: 'num' }, `${e.kind === 'grant' ? '+' : '−'}${credits(e.credits as number)}`),
      h('td', {}, h('code', {}, String(e.request_id ?? ''))),
      h('td', {}, e.idempotent ? 'yes' : ''),
    ),
  );
  replace(byId('calls'), ...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 5 }, 'Nothing yet.'))]));
  const older = byId<HTMLButtonElement>('calls-older');
  older.disabled = page.next_cursor === null;
  older.dataset.cursor = page.next_cursor ?? '';
  byId<HTMLButtonElement>('calls-newer').disabled = cursors.length <= 1;
  byId('calls-page').textContent = `Page ${cursors.length}`;
}

// ---- playground ----

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = openapi.components.schemas[s.$ref.split('/').pop()!] ?? {};
  return s;
}

function enumOf(s: Schema): string[] | null {
  if (s.enum) return s.enum.map(String);
  if (s.anyOf?.every((x) => x.const !== undefined)) return s.anyOf.map((x) => String(x.const));
  return null;
}

const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

function currentEndpoint() {
  const id = byId<HTMLSelectElement>('pg-endpoint').value;
  return catalog.endpoints.find((e) => e.id === id)!;
}

function bodySchema(path: string): { schema: Schema; example: Json } {
  const op = openapi.paths[`${catalog.prefix}${path}`]?.post as {
    requestBody: { content: { 'application/json': { schema: Schema; example?: Json } } };
  };
  const media = op.requestBody.content['application/json'];
  return { schema: resolve(media.schema), example: media.example ?? {} };
}

function buildForm() {
  const ep = currentEndpoint();
  const { schema, example } = bodySchema(ep.path);
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, raw]) => {
    const s = resolve(raw);
    const id = `f-${name}`;
    const start = example[name] ?? s.default;
    const label = h(
      'label',
      { for: id },
      name,
      required.has(name) ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null,
    );
    const hint = h(
      'small',
      { id: `${id}-hint` },
      [s.description, s.default !== undefined ? `default ${JSON.stringify(s.default)}` : '']
        .filter(Boolean)
        .join(' · '),
    );
    const common = {
      id,
      name,
      'data-field': name,
      'aria-describedby': `${id}-hint`,
      required: required.has(name),
    };
    const values = enumOf(s);
    const itemValues = s.items ? enumOf(resolve(s.items)) : null;
    const t = typeOf(s);
    let input: HTMLElement;
    if (values) {
      input = h(
        'select',
        { ...common, 'data-kind': 'enum' },
        required.has(name) ? null : h('option', { value: '' }, '—'),
        ...values.map((v) => h('option', { value: v, selected: v === String(start ?? '') }, v)),
      );
    } else if (t === 'boolean') {
      input = h('input', {
        ...common,
        type: 'checkbox',
        'data-kind': 'boolean',
        checked: start === true,
        required: false,
      });
    } else if (t === 'integer' || t === 'number') {
      const step = t === 'integer' ? 1 : (s.multipleOf ?? 'any');
      input = h('input', {
        ...common,
        type: 'number',
        inputmode: 'numeric',
        'data-kind': t,
        min: s.minimum ?? s.exclusiveMinimum,
        max: s.maximum,
        step,
        value: start === undefined ? undefined : String(start),
      });
    } else if (t === 'array' && itemValues) {
      const chosen = new Set(Array.isArray(start) ? start.map(String) : []);
      input = h(
        'fieldset',
        {
          id,
          'data-field': name,
          'data-kind': 'choices',
          'data-min': s.minItems,
          'data-max': s.maxItems,
          'aria-describedby': `${id}-hint`,
        },
        h('legend', {}, name),
        ...itemValues.map((v) =>
          h(
            'label',
            { class: 'choice' },
            h('input', { type: 'checkbox', value: v, checked: chosen.has(v) }),
            ` ${v}`,
          ),
        ),
      );
      return h('div', { class: 'field' }, input, hint);
    } else if (t === 'array') {
      input = h('textarea', {
        ...common,
        rows: 3,
        'data-kind': 'lines',
        'data-min': s.minItems,
        'data-max': s.maxItems,
        'data-items': typeOf(resolve(s.items)) ?? 'string',
      });
      (input as HTMLTextAreaElement).value = Array.isArray(start) ? start.join('\n') : '';
      hint.textContent = `One a line${s.maxItems ? `, at most ${s.maxItems}` : ''}. ${hint.textContent}`;
    } else if (t === 'object') {
      input = h('textarea', { ...common, rows: 3, 'data-kind': 'json' });
      (input as HTMLTextAreaElement).value = start === undefined ? '' : JSON.stringify(start);
      hint.textContent = `JSON. ${hint.textContent}`;
    } else {
      input = h('input', {
        ...common,
        type: 'text',
        'data-kind': 'string',
        minlength: s.minLength,
        maxlength: s.maxLength,
        'data-pattern': s.pattern,
        value: start === undefined ? undefined : String(start),
      });
    }
    return h('div', { class: 'field' }, label, input, hint);
  });
  replace(byId('pg-fields'), ...fields);
  byId('pg-summary').textContent = `POST ${catalog.prefix}${ep.path} — ${ep.summary}`;
  update();
}

/** the request body the form describes; marks the fields the browser cannot check itself */
function formBody(): Body {
  const body: Body = {};
  for (const el of Array.from(byId('pg-fields').querySelectorAll<HTMLElement>('[data-field]'))) {
    const name = el.dataset.field!;
    const kind = el.dataset.kind;
    if (kind === 'choices') {
      const chosen = Array.from(el.querySelectorAll<HTMLInputElement>('input:checked')).map((i) => i.value);
      const first = el.querySelector<HTMLInputElement>('input');
      const min = Number(el.dataset.min ?? 0);
      const max = Number(el.dataset.max ?? Number.POSITIVE_INFINITY);
      first?.setCustomValidity(chosen.length < min || chosen.length > max ? `Choose ${min} to ${max}` : '');
      if (chosen.length) body[name] = chosen;
      continue;
    }
    const input = el as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const v = input.value.trim();
    if (kind === 'boolean') {
      if ((input as HTMLInputElement).checked) body[name] = true;
    } else if (kind === 'integer' || kind === 'number') {
      if (v !== '') body[name] = Number(v);
    } else if (kind === 'lines') {
      const lines = v
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const min = Number(input.dataset.min ?? 0);
      const max = Number(input.dataset.max ?? Number.POSITIVE_INFINITY);
      input.setCustomValidity(
        lines.length > max
          ? `At most ${max} lines`
          : lines.length < min && (lines.length > 0 || input.required)
            ? `At least ${min} lines`
            : '',
      );
      if (lines.length)
        body[name] =
          input.dataset.items === 'integer' || input.dataset.items === 'number' ? lines.map(Number) : lines;
    } else if (kind === 'json') {
      input.setCustomValidity('');
      if (v !== '')
        try {
          body[name] = JSON.parse(v);
        } catch {
          input.setCustomValidity('Not valid JSON');
        }
    } else {
      // JSON Schema's pattern, checked here: the HTML attribute reads it with other rules
      const pattern = input.dataset.pattern;
      input.setCustomValidity(
        pattern && v !== '' && !new RegExp(pattern, 'u').test(v) ? `Must match ${pattern}` : '',
      );
      if (v !== '') body[name] = v;
    }
  }
  return body;
}

function update() {
  const ep = currentEndpoint();
  const body = formBody();
  byId('pg-cost').textContent = `${credits(worstCase(catalog, ep.id, body))} credits at most`;
  const origin = location.origin;
  byId('snip-curl').textContent = curl(origin, `${catalog.prefix}${ep.path}`, body);
  byId('snip-cli').textContent = cliLine(ep.cli.command, ep.cli.fields, body);
  byId('snip-sdk').textContent = sdkCode(ep.sdk, body, origin);
  byId('snip-python').textContent = pythonCode(ep.sdk, body, origin);
}

async function send(e: Event) {
  e.preventDefault();
  const form = byId<HTMLFormElement>('pg-form');
  const ep = currentEndpoint();
  const body = formBody();
  if (!form.reportValidity()) return;
  const button = byId<HTMLButtonElement>('pg-send');
  button.disabled = true;
  say('pg-status', 'Sending…');
  try {
    const r = await call(`${catalog.prefix}${ep.path}`, { method: 'POST', body: JSON.stringify(body) });
    byId('pg-reply').textContent = typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2);
    const used = (r.body as { metadata?: { credits_used?: number } })?.metadata?.credits_used ?? 0;
    say('pg-status', `HTTP ${r.status}: ${credits(used)} credits used`, r.status < 400 ? 'ok' : 'error');
    await refresh();
  } catch (err) {
    say('pg-status', (err as Error).message, 'error');
  } finally {
    button.disabled = false;
  }
}

async function copy(e: Event) {
  const target = byId((e.currentTarget as HTMLElement).dataset.copy!);
  try {
    await navigator.clipboard.writeText(target.textContent ?? '');
    say('pg-copied', 'Copied.');
  } catch {
    // no clipboard permission: select the text for a manual copy
    getSelection()?.selectAllChildren(target);
    say('pg-copied', 'Selected: press Ctrl+C (⌘C) to copy.');
  }
}

// ---- operator ----

async function operatorSignIn(e: Event) {
  e.preventDefault();
  const input = byId<HTMLInputElement>('admintoken');
  sessionStorage.setItem(ADMIN, input.value.trim());
  try {
    await loadOperator();
    input.value = '';
    say('operator-status', '');
  } catch (err) {
    sessionStorage.removeItem(ADMIN);
    say(
      'operator-status',
      err instanceof HttpError && err.status === 404
        ? 'The operator API is not enabled on this server (ADMIN_TOKEN is not set).'
        : err instanceof HttpError && err.status === 401
          ? 'That token is not valid.'
          : (err as Error).message,
      'error',
    );
  }
}

async function loadOperator() {
  const [{ keys }, usage, rec] = await Promise.all([
    getData<{ keys: Json[] }>('/admin/v1/keys', true),
    getData<{ keys: Array<{ id: string; credits: number; calls: number }> }>('/admin/v1/usage', true),
    call('/admin/v1/reconcile', { admin: true }),
  ]);
  if (rec.status === 401 || rec.status === 404) throw new HttpError(rec.status, `HTTP ${rec.status}`);
  const spent = new Map(usage.keys.map((u) => [u.id, u]));
  byId('operator-signin').hidden = true;
  byId('operator-body').hidden = false;
  const report = rec.body as {
    keys: number;
    entries: number;
    openHolds: number;
    problems: Array<{ keyId: string; problem: string }>;
  };
  replace(
    byId('reconcile'),
    report.problems.length === 0
      ? h(
          'p',
          { class: 'status ok' },
          `Reconciled: ${report.keys} keys, ${report.entries} ledger entries, ${report.openHolds} open holds, no difference.`,
        )
      : h(
          'div',
          { class: 'status error' },
          h('p', {}, `${report.problems.length} problems:`),
          h('ul', {}, ...report.problems.map((p) => h('li', {}, `${p.keyId}: ${p.problem}`))),
        ),
  );
  replace(
    byId('keys'),
    ...keys.map((k) => {
      const u = spent.get(String(k.id));
      return h(
        'tr',
        { 'data-key': String(k.id) },
        h('td', {}, String(k.name)),
        h('td', {}, h('code', {}, String(k.id))),
        h('td', { class: 'num' }, credits(k.credits as number)),
        h('td', { class: 'num' }, `${credits(u?.credits ?? 0)} / ${u?.calls ?? 0}`),
        h('td', {}, k.revoked_at ? 'revoked' : 'active'),
        h(
          'td',
          {},
          k.revoked_at
            ? ''
            : h(
                'button',
                { type: 'button', class: 'small', 'data-revoke': String(k.id), onclick: revoke },
                `Revoke ${k.name}`,
              ),
        ),
      );
    }),
  );
  replace(
    byId('grant-key'),
    ...keys
      .filter((k) => !k.revoked_at)
      .map((k) => h('option', { value: String(k.id) }, `${k.name} (${k.id})`)),
  );
}

async function adminPost(url: string, body?: Json) {
  const r = await call(url, { method: 'POST', admin: true, ...(body ? { body: JSON.stringify(body) } : {}) });
  const b = r.body as Json & { error?: { message?: string } };
  if (r.status >= 400) throw new HttpError(r.status, b?.error?.message ?? `HTTP ${r.status}`);
  return b;
}

async function createKey(e: Event) {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  if (!form.reportValidity()) return;
  try {
    const k = await adminPost('/admin/v1/keys', {
      name: byId<HTMLInputElement>('new-name').value.trim(),
      credits: Number(byId<HTMLInputElement>('new-credits').value),
    });
    replace(
      byId('new-key'),
      h(
        'p',
        {},
        `Key ${k.name} created with ${credits(k.credits as number)} credits. It is shown this once: copy it now.`,
      ),
      h('code', { id: 'new-key-value', class: 'secret' }, String(k.key)),
    );
    byId('new-key').hidden = false;
    form.reset();
    await loadOperator();
    say('operator-status', `Created ${k.name}.`, 'ok');
  } catch (err) {
    say('operator-status', (err as Error).message, 'error');
  }
}

async function grant(e: Event) {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  if (!form.reportValidity()) return;
  const id = byId<HTMLSelectElement>('grant-key').value;
  const note = byId<HTMLInputElement>('grant-note').value.trim();
  try {
    const k = await adminPost(`/admin/v1/keys/${encodeURIComponent(id)}/credits`, {
      credits: Number(byId<HTMLInputElement>('grant-credits').value),
      ...(note ? { note } : {}),
    });
    form.reset();
    await loadOperator();
    say('operator-status', `${k.name} now has ${credits(k.credits as number)} credits.`, 'ok');
    if (sessionStorage.getItem(KEY)) await refresh();
  } catch (err) {
    say('operator-status', (err as Error).message, 'error');
  }
}

async function revoke(e: Event) {
  const id = (e.currentTarget as HTMLElement).dataset.revoke!;
  if (!confirm(`Revoke ${id}? Calls with it are refused from now on.`)) return;
  try {
    await adminPost(`/admin/v1/keys/${encodeURIComponent(id)}/revoke`);
    await loadOperator();
    say('operator-status', `Revoked ${id}.`, 'ok');
  } catch (err) {
    say('operator-status', (err as Error).message, 'error');
  }
}

// ---- start ----

async function start() {
  [catalog, openapi] = await Promise.all([
    fetch(root.dataset.catalog!).then((r) => r.json()),
    fetch(root.dataset.openapi!).then((r) => r.json()),
  ]);
  replace(
    byId('pg-endpoint'),
    ...catalog.endpoints.map((e) => h('option', { value: e.id }, `${e.id} — ${e.summary}`)),
  );
  byId('signin-form').addEventListener('submit', signIn);
  byId('signout').addEventListener('click', signOut);
  for (const tab of Array.from(document.querySelectorAll<HTMLButtonElement>('nav button[data-view]')))
    tab.addEventListener('click', () => show(tab.dataset.view as 'overview'));
  byId('calls-older').addEventListener('click', () => {
    cursors.push(byId('calls-older').dataset.cursor || null);
    void loadCalls();
  });
  byId('calls-newer').addEventListener('click', () => {
    if (cursors.length > 1) cursors.pop();
    void loadCalls();
  });
  byId('pg-endpoint').addEventListener('change', buildForm);
  byId('pg-form').addEventListener('input', update);
  byId('pg-form').addEventListener('change', update);
  byId('pg-form').addEventListener('submit', send);
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-copy]')))
    b.addEventListener('click', copy);
  byId('operator-form').addEventListener('submit', operatorSignIn);
  byId('create-form').addEventListener('submit', createKey);
  byId('grant-form').addEventListener('submit', grant);
  byId('operator-refresh').addEventListener(
    'click',
    () => void loadOperator().catch((err) => say('operator-status', (err as Error).message, 'error')),
  );
  buildForm();
  if (sessionStorage.getItem(KEY)) {
    try {
      await refresh();
      show('overview');
    } catch {
      sessionStorage.removeItem(KEY);
      show('signin');
    }
  } else show('signin');
  if (sessionStorage.getItem(ADMIN)) await loadOperator().catch(() => sessionStorage.removeItem(ADMIN));
  root.dataset.ready = 'true';
}

void start();
