// Schema migrations of the PostgreSQL ledger, in order. A migration is never edited once
// released: a change is a new entry. They run in one transaction under an advisory lock, so
// several instances starting at once apply each migration exactly once (the others wait, then
// find nothing left to do), and a failing migration leaves the schema as it was.
import type { Pool, PoolClient } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger',
    sql: `
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  -- integer millicredits: grants minus debits
  balance bigint NOT NULL CHECK (balance >= 0),
  -- the sum of this key's open holds
  held bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  revoked_at timestamptz,
  CONSTRAINT held_within_balance CHECK (held >= 0 AND held <= balance)
);

CREATE TABLE ledger (
  seq bigserial PRIMARY KEY,
  key_id text NOT NULL REFERENCES api_keys(id),
  kind text NOT NULL CHECK (kind IN ('grant', 'debit')),
  amount bigint NOT NULL CHECK (amount > 0),
  request_id text,
  route text,
  note text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX ledger_key ON ledger (key_id, seq);

-- The journal is append-only, whoever connects: the database itself refuses to change or
-- remove a row (TRUNCATE included).
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER ledger_append_only_rows BEFORE UPDATE OR DELETE ON ledger
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_append_only_truncate BEFORE TRUNCATE ON ledger
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON ledger FROM PUBLIC;

CREATE TABLE holds (
  id text PRIMARY KEY,
  key_id text NOT NULL REFERENCES api_keys(id),
  amount bigint NOT NULL CHECK (amount >= 0),
  request_id text,
  route text,
  state text NOT NULL CHECK (state IN ('open', 'settled', 'released', 'expired')),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX holds_open ON holds (expires_at) WHERE state = 'open';
CREATE INDEX holds_key_open ON holds (key_id) WHERE state = 'open';

CREATE TABLE idempotency (
  key_id text NOT NULL,
  idem_key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  locked_until timestamptz NOT NULL,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_expiry ON idempotency (expires_at);
`,
  },
  {
    version: 2,
    name: 'rate limit counters',
    // the layout rate-limiter-flexible's PostgreSQL store expects (src/ratelimit/postgres.ts)
    sql: `
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
`,
  },
];

/** a fixed number naming "gleaner schema migrations" among advisory locks */
export const MIGRATION_LOCK = 0x676c65616e6572n; // "gleaner"

type Queryable = Pick<Pool, 'connect'>;

/** Applies the migrations not applied yet; returns the versions it applied. */
export async function migrate(pool: Queryable): Promise<number[]> {
  const client: PoolClient = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('BEGIN');
    // held until COMMIT: other instances starting now wait here, then see what this one did
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
