// The group commit both ledgers write through (src/billing/ledger/batcher.ts), on a runner that
// records its transactions: which writes share a commit, in what order, who hears of a failure,
// and that nobody hears of a commit before it is durable. The ledgers' own suites (billing,
// fencing, sqlite-batch, postgres) show the same through real databases.
import { expect, test } from 'vitest';
import { Batcher, type BatchRunner } from '../../src/billing/ledger/batcher.js';

interface W {
  key: string;
  id: string;
  /** fails the batch it is in (nothing committed) and, alone, itself */
  bad?: boolean;
}

function recorder(opts: { durable?: () => Promise<void>; unknown?: boolean } = {}) {
  const transactions: string[][] = [];
  const runner: BatchRunner<W> = {
    together: async (ws) => {
      await new Promise((r) => setTimeout(r, 5));
      if (opts.unknown) throw new Error('connection lost');
      if (ws.some((w) => w.bad)) return null;
      transactions.push(ws.map((w) => w.id));
      return ws.map((w) => `done ${w.id}`);
    },
    alone: async (w) => {
      await new Promise((r) => setTimeout(r, 5));
      if (w.bad) throw new Error(`${w.id} refused`);
      transactions.push([w.id]);
      return `done ${w.id}`;
    },
    durable: opts.durable,
  };
  return { runner, transactions };
}

test('busy: what arrives while a write runs commits together in the next batch, in key order', async () => {
  const { runner, transactions } = recorder();
  const b = new Batcher(runner, { gather: 'busy', orderBy: (w) => w.key });
  const results = await Promise.all([
    b.submit({ key: 'k2', id: 'a' }),
    b.submit({ key: 'k2', id: 'b' }),
    b.submit({ key: 'k1', id: 'c' }),
    b.submit({ key: 'k2', id: 'd' }),
  ]);
  // each caller gets its own write's value
  expect(results).toEqual(['done a', 'done b', 'done c', 'done d']);
  // the first ran at once; the rest waited for it and went together, sorted by key (stable)
  expect(transactions).toEqual([['a'], ['c', 'b', 'd']]);
});

test('turn: the writes of one event-loop turn share one transaction', async () => {
  const { runner, transactions } = recorder();
  const b = new Batcher(runner, { gather: 'turn' });
  await Promise.all(['a', 'b', 'c'].map((id) => b.submit({ key: 'k', id })));
  await b.submit({ key: 'k', id: 'd' });
  expect(transactions).toEqual([['a', 'b', 'c'], ['d']]);
});

test('a batch rolled back by one write: the others run alone and succeed, only that write fails', async () => {
  const { runner, transactions } = recorder();
  const b = new Batcher(runner, { gather: 'turn' });
  const results = await Promise.allSettled([
    b.submit({ key: 'k', id: 'a' }),
    b.submit({ key: 'k', id: 'b', bad: true }),
    b.submit({ key: 'k', id: 'c' }),
  ]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
    'done a',
    'b refused',
    'done c',
  ]);
  expect(transactions).toEqual([['a'], ['c']]);
});

test('a batch whose outcome is unknown fails every write of it, and none runs again', async () => {
  const { runner, transactions } = recorder({ unknown: true });
  const b = new Batcher(runner, { gather: 'turn' });
  const results = await Promise.allSettled(['a', 'b'].map((id) => b.submit({ key: 'k', id })));
  expect(results.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual([
    'connection lost',
    'connection lost',
  ]);
  expect(transactions).toEqual([]);
});

test('nobody hears of a commit before it is durable; a failed sync fails the whole batch', async () => {
  let sync!: { resolve: () => void; reject: (e: Error) => void };
  const { runner } = recorder({
    durable: () => new Promise((resolve, reject) => (sync = { resolve, reject })),
  });
  const b = new Batcher(runner, { gather: 'turn' });
  let heard = false;
  const first = b.submit({ key: 'k', id: 'a' }).then((v) => {
    heard = true;
    return v;
  });
  await new Promise((r) => setTimeout(r, 30));
  expect(heard).toBe(false);
  sync.resolve();
  expect(await first).toBe('done a');
  const second = Promise.allSettled([b.submit({ key: 'k', id: 'b' }), b.submit({ key: 'k', id: 'c' })]);
  await new Promise((r) => setTimeout(r, 30));
  sync.reject(new Error('fsync failed'));
  expect((await second).map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual([
    'fsync failed',
    'fsync failed',
  ]);
});

test('close runs what is queued, waits for its answers, then refuses new writes', async () => {
  const { runner, transactions } = recorder();
  const b = new Batcher(runner, { gather: 'turn' });
  const queued = [b.submit({ key: 'k', id: 'a' }), b.submit({ key: 'k', id: 'b' })];
  let answered = 0;
  for (const q of queued) void q.then(() => answered++);
  await b.close();
  expect(answered).toBe(2);
  expect(transactions).toEqual([['a', 'b']]);
  await expect(b.submit({ key: 'k', id: 'c' })).rejects.toThrow(/closed/);
});
