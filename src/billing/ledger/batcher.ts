// Group commit, shared by both ledgers. One fsync'd commit costs far more than the statements it
// commits, so the writes of concurrent requests run together in one transaction and one commit
// (one WAL flush) answers them all. The batcher decides when a batch starts and tells each caller
// its own outcome; the ledger's runner decides what a transaction is. What every ledger relies on:
//  - order: a batch holds its writes in the order they came (stably sorted by `orderBy` when
//    given: PostgreSQL locks key rows in one order, so two batches never deadlock). The runner
//    runs them in that order in one transaction, each deciding on what the ones before it left,
//    and every check a write depends on (the balance, its Idempotency-Key lease: the fencing of a
//    run a retry took over) is made inside the transaction that commits it;
//  - errors per request: when a batch fails with nothing committed, each write runs again in its
//    own transaction, so one failing write neither undoes nor fails the others; when whether it
//    committed is unknown (a broken connection) or it could not start, every write of it fails
//    with that error, and none runs again;
//  - durability: a caller hears of its write only once the runner says its commit is on disk;
//  - close: new writes are refused, what is queued runs at once, and close resolves when every
//    caller has had its answer.

export interface BatchRunner<W> {
  /** The writes in one transaction: one value per write, in their order; null when the
   *  transaction was rolled back with nothing committed (each write then runs alone). Throws
   *  when the batch could not start or its outcome is unknown: every write fails with it. */
  together(writes: W[]): unknown[] | null | Promise<unknown[] | null>;
  /** one write in its own transaction; throws (or rejects with) that write's error */
  alone(write: W): unknown;
  /** Resolves once every commit made before the call is on disk; absent when a commit is
   *  durable when it returns. A rejection fails every write of the batch that waited for it. */
  durable?(): Promise<void>;
}

export interface BatcherOptions<W> {
  /** When a batch starts. `turn`: the writes of one event-loop turn gather first (a runner that
   *  works synchronously would otherwise run each write alone). `busy`: a write starts at once
   *  unless `concurrency` batches are running; what arrives meanwhile forms the next batch. */
  gather: 'turn' | 'busy';
  /** batches running (in their transaction) at once; default 1 */
  concurrency?: number;
  /** a stable sort of each batch's writes */
  orderBy?: (write: W) => string;
}

interface Entry<W> {
  write: W;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class Batcher<W> {
  private queue: Array<Entry<W>> = [];
  private scheduled = false;
  private closed = false;
  /** batches in their transaction, and batches committed whose callers wait for the disk */
  private readonly running = new Set<Promise<void>>();
  private readonly answering = new Set<Promise<void>>();
  private readonly concurrency: number;

  constructor(
    private readonly runner: BatchRunner<W>,
    private readonly opts: BatcherOptions<W>,
  ) {
    this.concurrency = opts.concurrency ?? 1;
  }

  /** Queues a write; resolves with the value the runner gave it, once durable. */
  submit<T>(write: W): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the ledger is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
      if (this.opts.gather === 'busy') this.kick();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.kick();
        });
      }
    });
  }

  /** Refuses new writes, runs the queued ones and waits until every caller has its answer. */
  async close(): Promise<void> {
    this.closed = true;
    for (;;) {
      this.kick();
      if (this.running.size === 0 && this.answering.size === 0 && this.queue.length === 0) return;
      await Promise.allSettled([...this.running, ...this.answering]);
    }
  }

  private kick(): void {
    while (this.running.size < this.concurrency && this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const run = this.run(batch);
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.kick();
      });
    }
  }

  /** Runs one batch; resolves when its transaction is over (its callers may still wait for the
   *  disk, see answer()). Never rejects. */
  private async run(batch: Array<Entry<W>>): Promise<void> {
    const { orderBy } = this.opts;
    const ordered = orderBy ? stableSort(batch, (e) => orderBy(e.write)) : batch;
    let outcomes: Outcome[];
    try {
      // one write: its own transaction, the cheapest form of it
      if (ordered.length === 1) outcomes = [await this.alone(ordered[0]!.write)];
      else {
        const values = await this.runner.together(ordered.map((e) => e.write));
        outcomes =
          values === null
            ? await Promise.all(ordered.map((e) => this.alone(e.write)))
            : values.map((value) => ({ ok: true, value }));
      }
    } catch (error) {
      for (const e of ordered) e.reject(error);
      return;
    }
    this.answer(ordered, outcomes);
  }

  /** runs one write alone; the runner is called before this returns (a synchronous runner's
   *  transactions of one batch thus run one after the other, in order) */
  private async alone(write: W): Promise<Outcome> {
    try {
      return { ok: true, value: await this.runner.alone(write) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** tells each caller its outcome, once the batch's commit is durable */
  private answer(batch: Array<Entry<W>>, outcomes: Outcome[]): void {
    const tell = () =>
      batch.forEach((e, i) => {
        const o = outcomes[i]!;
        if (o.ok) e.resolve(o.value);
        else e.reject(o.error);
      });
    if (!this.runner.durable) {
      tell();
      return;
    }
    const told = this.runner.durable().then(tell, (error: unknown) => {
      // committed, but not known to be on disk: the callers learn the outcome is unknown
      for (const e of batch) e.reject(error);
    });
    this.answering.add(told);
    void told.finally(() => this.answering.delete(told));
  }
}

function stableSort<T>(items: T[], key: (item: T) => string): T[] {
  return items
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
    .map(({ item }) => item);
}
