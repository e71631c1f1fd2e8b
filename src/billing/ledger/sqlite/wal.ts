// Makes the SQLite ledger's commits durable off the event loop. SQLite commits into its WAL with
// synchronous=NORMAL (no fsync in the commit itself); this fsyncs the WAL file on the libuv thread
// pool, and a commit counts as durable once an fsync that started after it has completed, so one
// fsync covers every commit made before it started.
// Checkpoints stay safe: with synchronous=NORMAL SQLite fsyncs the WAL before copying it into the
// database and the database after, and it rewrites the WAL only after a complete checkpoint.
import { closeSync, fdatasync, openSync } from 'node:fs';

/** fsyncs of the WAL running at once (the libuv thread pool has 4 threads by default) */
const MAX_SYNCS = 3;

export class WalSync {
  private fd: number | null = null;
  /** who waits for an fsync that has not started yet */
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private syncs = 0;

  constructor(private readonly path: string) {}

  /** Resolves once an fsync of the WAL that started after this call has completed. */
  durable(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.start();
    });
  }

  /** Starts an fsync for those waiting, unless MAX_SYNCS are running already (the next one to
   *  start then covers them all). */
  private start(): void {
    while (this.syncs < MAX_SYNCS && this.waiting.length > 0) {
      const waiting = this.waiting;
      this.waiting = [];
      let fd: number;
      try {
        // fsync acts on the file, whichever descriptor names it
        this.fd ??= openSync(this.path, 'r+');
        fd = this.fd;
      } catch (error) {
        for (const w of waiting) w.reject(error);
        continue;
      }
      this.syncs++;
      fdatasync(fd, (error) => {
        this.syncs--;
        for (const w of waiting) {
          if (error) w.reject(error);
          else w.resolve();
        }
        this.start();
      });
    }
  }

  /** after every durable() has settled */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
