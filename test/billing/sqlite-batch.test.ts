// The SQLite ledger decides the charges of one batch (the writes queued in one event-loop turn)
// on the key's row read once in the batch's transaction and writes them together; anything else
// in the batch sees what the charges before it spent. Same outcomes as one charge at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { hashKey } from '../../src/billing/api-keys.js';
import { SqliteLedger } from '../../src/billing/ledger/sqlite/ledger.js';

let dir: string | undefined;
let ledger: SqliteLedger | undefined;
afterEach(async () => {
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  ledger = undefined;
  dir = undefined;
});

test('charges, a hold and a grant in one batch: each decided on what the ones before it left', async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-batch-'));
  ledger = new SqliteLedger(join(dir, 'ledger.db'));
  const l = ledger;
  await l.createKey({ id: 'key_a', name: 'a', prefix: 'gl_a', hash: hashKey('gl_a'), credits: 10_000 });
  await l.createKey({ id: 'key_b', name: 'b', prefix: 'gl_b', hash: hashKey('gl_b'), credits: 1_000 });
  const price = { base: 1000, perItem: 1000 };
  const charge = (keyId: string, items: number, requestId: string) =>
    l.charge({ keyId, requestId, route: 'clipnet.posts', price, items, minItems: 0 });
  // all queued in the same turn: one transaction
  const results = await Promise.all([
    charge('key_a', 3, 'r1'), // 4000, leaves 6000
    charge('key_b', 5, 'r2'), // only the base fits: 0 items for 1000, leaves 0
    charge('key_a', 3, 'r3'), // 4000, leaves 2000
    charge('key_a', 3, 'r4'), // 1 item for 2000, leaves 0
    charge('key_a', 1, 'r5'), // the base no longer fits
    l.hold({
      keyId: 'key_a',
      requestId: 'h1',
      route: 'clipnet.posts',
      price,
      maxItems: 2,
      minItems: 0,
      ttlMs: 60_000,
    }),
    l.grant('key_a', 5000, 'top-up'),
    charge('key_a', 2, 'r6'), // 3000 of the 5000 granted, leaves 2000
    charge('key_missing', 1, 'r7'),
  ]);
  expect(
    results.map((r) =>
      r && 'ok' in r
        ? r.ok
          ? [r.items, r.amount, 'balance' in r ? r.balance : null]
          : 'refused'
        : 'granted',
    ),
  ).toEqual([
    [3, 4000, 6000],
    [0, 1000, 0],
    [3, 4000, 2000],
    [1, 2000, 0],
    'refused',
    'refused',
    'granted',
    [2, 3000, 2000],
    'refused',
  ]);
  expect((await l.getKey('key_a'))?.balance).toBe(2000);
  expect((await l.getKey('key_b'))?.balance).toBe(0);
  const a = (await l.entries('key_a', { limit: 100 })).reverse();
  expect(a.map((e) => [e.kind, e.amount, e.requestId])).toEqual([
    ['grant', 10_000, null],
    ['debit', 4000, 'r1'],
    ['debit', 4000, 'r3'],
    ['debit', 2000, 'r4'],
    ['grant', 5000, null],
    ['debit', 3000, 'r6'],
  ]);
  expect(await l.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
});

test('150 charges in one batch: every journal row written, each with its own ids, in order', async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-batch-'));
  ledger = new SqliteLedger(join(dir, 'ledger.db'));
  const l = ledger;
  await l.createKey({ id: 'key_a', name: 'a', prefix: 'gl_a', hash: hashKey('gl_a'), credits: 1_000_000 });
  const price = { base: 1000, perItem: 0 };
  // more rows than one INSERT of the batch's journal rows takes
  const n = 150;
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      l.charge({
        keyId: 'key_a',
        requestId: `r${i}`,
        clientRequestId: i % 2 === 0 ? `client-${i}` : undefined,
        route: i % 3 === 0 ? 'picnet.posts' : 'clipnet.posts',
        price,
        items: 0,
        minItems: 0,
      }),
    ),
  );
  expect(results.every((r) => r.ok && r.amount === 1000)).toBe(true);
  expect((await l.getKey('key_a'))?.balance).toBe(1_000_000 - n * 1000);
  const debits = (await l.entries('key_a', { limit: 200 })).reverse().filter((e) => e.kind === 'debit');
  expect(debits.map((e) => [e.requestId, e.clientRequestId, e.route, e.amount, e.idempotent])).toEqual(
    Array.from({ length: n }, (_, i) => [
      `r${i}`,
      i % 2 === 0 ? `client-${i}` : null,
      i % 3 === 0 ? 'picnet.posts' : 'clipnet.posts',
      1000,
      false,
    ]),
  );
  // the daily rollup counts each of them too
  expect(await l.totals('key_a')).toMatchObject({ spent: n * 1000, debits: n });
  // per route, the routes alternating inside the batch
  const day = Math.floor(Date.now() / 86_400_000);
  const usage = await l.usage('key_a', day - 1, day);
  expect(usage.filter((u) => u.kind === 'debit').map((u) => [u.route, u.amount, u.count])).toEqual(
    expect.arrayContaining([
      ['clipnet.posts', 100_000, 100],
      ['picnet.posts', 50_000, 50],
    ]),
  );
  expect(usage.filter((u) => u.kind === 'grant').map((u) => [u.route, u.amount, u.count])).toEqual([
    [null, 1_000_000, 1],
  ]);
  expect(await l.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
});
