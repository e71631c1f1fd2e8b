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
  {
    version: 3,
    name: 'batched charges',
    // Group commit (ledger.ts, together()): the charges, holds and settles of concurrent calls in
    // one statement and one transaction, in the order given. Each does what the single-call
    // statements (CHARGE, HOLD, CLOSE_HOLD in sql.ts) do: lock the key's row, compute the
    // items it affords from that locked row, and debit or hold only when they reach the minimum
    // (the CHECK constraints stand behind it). Consecutive charges of one key are decided one
    // after the other on the row locked once, with the balance they leave, and written as one
    // update of the row and one insert of their journal entries. One row out per call: n and
    // amount are NULL when the call was refused; balance is the balance after a debit.
    sql: `
CREATE FUNCTION gleaner_batch(
  kinds text[], key_ids text[], bases bigint[], per_items bigint[], wants bigint[], mins bigint[],
  request_ids text[], routes text[], hold_ids text[], ttls bigint[]
) RETURNS TABLE (n bigint, amount bigint, balance bigint) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  i integer;
  avail bigint;
  bal bigint;
  k bigint;
  cost bigint;
  -- the run of charges of one key being decided: the key, what it has left, what it spent
  run_key text := NULL;
  run_spent bigint := 0;
  run_amounts bigint[] := '{}';
  run_requests text[] := '{}';
  run_routes text[] := '{}';
BEGIN
  FOR i IN 1 .. coalesce(array_length(kinds, 1), 0) + 1 LOOP
    -- the end of a run: write it
    IF run_key IS NOT NULL AND (i > coalesce(array_length(kinds, 1), 0) OR kinds[i] <> 'charge'
                                OR key_ids[i] <> run_key) THEN
      IF run_spent > 0 THEN
        UPDATE api_keys SET balance = api_keys.balance - run_spent WHERE id = run_key;
        INSERT INTO ledger (key_id, kind, amount, request_id, route)
        SELECT run_key, 'debit', u.amount, u.request_id, u.route
        FROM unnest(run_amounts, run_requests, run_routes) WITH ORDINALITY AS u (amount, request_id, route, o)
        ORDER BY u.o;
      END IF;
      run_key := NULL;
      run_spent := 0;
      run_amounts := '{}';
      run_requests := '{}';
      run_routes := '{}';
    END IF;
    EXIT WHEN i > coalesce(array_length(kinds, 1), 0);
    n := NULL;
    amount := NULL;
    balance := NULL;
    IF kinds[i] = 'settle' THEN
      WITH h AS (
        UPDATE holds SET state = 'settled', closed_at = clock_timestamp()
        WHERE id = hold_ids[i] AND state = 'open'
        RETURNING key_id, holds.amount
      )
      UPDATE api_keys a SET held = a.held - h.amount FROM h WHERE a.id = h.key_id;
    END IF;
    IF run_key IS NULL THEN
      SELECT a.balance - a.held, a.balance INTO avail, bal
        FROM api_keys a WHERE a.id = key_ids[i] FOR NO KEY UPDATE;
      IF NOT FOUND THEN
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    IF avail >= bases[i] THEN
      k := CASE WHEN per_items[i] = 0 THEN wants[i]
                ELSE LEAST(wants[i], (avail - bases[i]) / per_items[i]) END;
      cost := bases[i] + per_items[i] * k;
      IF k >= mins[i] AND cost <= avail THEN
        IF kinds[i] = 'hold' THEN
          UPDATE api_keys SET held = held + cost WHERE id = key_ids[i];
          INSERT INTO holds (id, key_id, amount, request_id, route, state, expires_at)
          VALUES (hold_ids[i], key_ids[i], cost, request_ids[i], routes[i], 'open',
                  clock_timestamp() + ttls[i] * interval '1 millisecond');
        ELSIF kinds[i] = 'settle' THEN
          UPDATE api_keys SET balance = api_keys.balance - cost WHERE id = key_ids[i];
          IF cost > 0 THEN
            INSERT INTO ledger (key_id, kind, amount, request_id, route)
            VALUES (key_ids[i], 'debit', cost, request_ids[i], routes[i]);
          END IF;
          balance := bal - cost;
        ELSE
          -- a charge: decided now, written with its run
          avail := avail - cost;
          bal := bal - cost;
          run_spent := run_spent + cost;
          IF cost > 0 THEN
            run_amounts := run_amounts || cost;
            run_requests := run_requests || request_ids[i];
            run_routes := run_routes || routes[i];
          END IF;
          balance := bal;
        END IF;
        n := k;
        amount := cost;
      END IF;
    END IF;
    IF kinds[i] = 'charge' THEN
      run_key := key_ids[i];
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
`,
  },
  {
    version: 4,
    name: 'fenced idempotency',
    // One Idempotency-Key and body is debited at most once, however long its first run takes:
    //  - an idempotency record gets an id (kept when a retry takes it over, new when the key is
    //    used again after expiry) and a generation (bumped at each take-over); a run's lease is
    //    (record, generation), its fencing token;
    //  - gleaner_batch_fenced does what gleaner_batch (migration 3, kept for instances of the
    //    previous release during an upgrade) does, and for a call with a lease first locks the
    //    key's row and then its idempotency record (FOR UPDATE, so no take-over can commit
    //    before this transaction does) and refuses the call when the lease no longer owns the
    //    record: no debit, a settled hold released instead, `fenced` true;
    //  - each debit's journal row names the record and generation it was for (reconcile reports
    //    a record with two debits) and the caller's X-Request-Id beside the server's request id.
    // Locks are taken key row first, then its idempotency record, everywhere: no deadlock with
    // another batch, and the idempotency statements outside batches lock only the record.
    sql: `
ALTER TABLE idempotency
  ADD COLUMN record_id text NOT NULL DEFAULT md5(random()::text),
  ADD COLUMN generation bigint NOT NULL DEFAULT 1;

ALTER TABLE ledger
  ADD COLUMN client_request_id text,
  ADD COLUMN idem_record text,
  ADD COLUMN idem_generation bigint;

CREATE FUNCTION gleaner_batch_fenced(
  kinds text[], key_ids text[], bases bigint[], per_items bigint[], wants bigint[], mins bigint[],
  request_ids text[], routes text[], hold_ids text[], ttls bigint[],
  client_ids text[], idem_keys text[], idem_records text[], idem_gens bigint[]
) RETURNS TABLE (n bigint, amount bigint, balance bigint, fenced boolean) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  i integer;
  total integer := coalesce(array_length(kinds, 1), 0);
  avail bigint;
  bal bigint;
  k bigint;
  cost bigint;
  owns boolean;
  -- the run of charges of one key being decided: the key, what it spent, its journal rows
  run_key text := NULL;
  run_spent bigint := 0;
  run_amounts bigint[] := '{}';
  run_requests text[] := '{}';
  run_routes text[] := '{}';
  run_clients text[] := '{}';
  run_records text[] := '{}';
  run_gens bigint[] := '{}';
BEGIN
  FOR i IN 1 .. total + 1 LOOP
    -- the end of a run: write it
    IF run_key IS NOT NULL AND (i > total OR kinds[i] <> 'charge' OR key_ids[i] <> run_key) THEN
      IF run_spent > 0 THEN
        UPDATE api_keys SET balance = api_keys.balance - run_spent WHERE id = run_key;
        INSERT INTO ledger (key_id, kind, amount, request_id, route, client_request_id, idem_record,
                            idem_generation)
        SELECT run_key, 'debit', u.amount, u.request_id, u.route, u.client_id, u.record, u.gen
        FROM unnest(run_amounts, run_requests, run_routes, run_clients, run_records, run_gens)
          WITH ORDINALITY AS u (amount, request_id, route, client_id, record, gen, o)
        ORDER BY u.o;
      END IF;
      run_key := NULL;
      run_spent := 0;
      run_amounts := '{}';
      run_requests := '{}';
      run_routes := '{}';
      run_clients := '{}';
      run_records := '{}';
      run_gens := '{}';
    END IF;
    EXIT WHEN i > total;
    n := NULL;
    amount := NULL;
    balance := NULL;
    fenced := false;
    IF idem_keys[i] IS NOT NULL THEN
      PERFORM 1 FROM api_keys a WHERE a.id = key_ids[i] FOR NO KEY UPDATE;
      SELECT d.state = 'running' AND d.record_id = idem_records[i] AND d.generation = idem_gens[i]
        INTO owns
        FROM idempotency d WHERE d.key_id = key_ids[i] AND d.idem_key = idem_keys[i] FOR UPDATE;
      fenced := owns IS NOT TRUE;
    END IF;
    IF kinds[i] = 'settle' THEN
      -- a fenced call's work is discarded: its hold is released, not settled
      WITH h AS (
        UPDATE holds SET state = CASE WHEN fenced THEN 'released' ELSE 'settled' END,
                         closed_at = clock_timestamp()
        WHERE id = hold_ids[i] AND state = 'open'
        RETURNING key_id, holds.amount
      )
      UPDATE api_keys a SET held = a.held - h.amount FROM h WHERE a.id = h.key_id;
    END IF;
    IF fenced THEN
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF run_key IS NULL THEN
      SELECT a.balance - a.held, a.balance INTO avail, bal
        FROM api_keys a WHERE a.id = key_ids[i] FOR NO KEY UPDATE;
      IF NOT FOUND THEN
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    IF avail >= bases[i] THEN
      k := CASE WHEN per_items[i] = 0 THEN wants[i]
                ELSE LEAST(wants[i], (avail - bases[i]) / per_items[i]) END;
      cost := bases[i] + per_items[i] * k;
      IF k >= mins[i] AND cost <= avail THEN
        IF kinds[i] = 'hold' THEN
          UPDATE api_keys SET held = held + cost WHERE id = key_ids[i];
          INSERT INTO holds (id, key_id, amount, request_id, route, state, expires_at)
          VALUES (hold_ids[i], key_ids[i], cost, request_ids[i], routes[i], 'open',
                  clock_timestamp() + ttls[i] * interval '1 millisecond');
        ELSIF kinds[i] = 'settle' THEN
          UPDATE api_keys SET balance = api_keys.balance - cost WHERE id = key_ids[i];
          IF cost > 0 THEN
            INSERT INTO ledger (key_id, kind, amount, request_id, route, client_request_id,
                                idem_record, idem_generation)
            VALUES (key_ids[i], 'debit', cost, request_ids[i], routes[i], client_ids[i],
                    idem_records[i], idem_gens[i]);
          END IF;
          balance := bal - cost;
        ELSE
          -- a charge: decided now, written with its run
          avail := avail - cost;
          bal := bal - cost;
          run_spent := run_spent + cost;
          IF cost > 0 THEN
            run_amounts := run_amounts || cost;
            run_requests := run_requests || request_ids[i];
            run_routes := run_routes || routes[i];
            run_clients := run_clients || client_ids[i];
            run_records := run_records || idem_records[i];
            run_gens := run_gens || idem_gens[i];
          END IF;
          balance := bal;
        END IF;
        n := k;
        amount := cost;
      END IF;
    END IF;
    IF kinds[i] = 'charge' THEN
      run_key := key_ids[i];
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
`,
  },
  {
    version: 5,
    name: 'usage rollup',
    // The journal summed per key, UTC day, route and kind: the account API's usage and totals
    // read it, and reconcile checks it against the journal. A statement-level trigger keeps it
    // in the transaction of every journal insert (a batch of debits is one upsert). The journal
    // is locked against inserts while the trigger is created and the rollup filled from it, so
    // no row is missed or counted twice.
    sql: `
LOCK TABLE ledger IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE ledger_daily (
  key_id text NOT NULL,
  day integer NOT NULL,
  route text NOT NULL,
  kind text NOT NULL,
  amount bigint NOT NULL,
  entries bigint NOT NULL,
  PRIMARY KEY (key_id, day, route, kind)
);

CREATE FUNCTION ledger_daily_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily AS d (key_id, day, route, kind, amount, entries)
  SELECT key_id, floor(extract(epoch FROM created_at) / 86400)::integer, COALESCE(route, ''), kind,
         SUM(amount), COUNT(*)
  FROM new_rows GROUP BY 1, 2, 3, 4
  ON CONFLICT (key_id, day, route, kind)
  DO UPDATE SET amount = d.amount + EXCLUDED.amount, entries = d.entries + EXCLUDED.entries;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_daily_rows AFTER INSERT ON ledger
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_add();

INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries)
SELECT key_id, floor(extract(epoch FROM created_at) / 86400)::integer, COALESCE(route, ''), kind,
       SUM(amount), COUNT(*)
FROM ledger GROUP BY 1, 2, 3, 4;
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
    // a database a newer release has migrated: this release would write rows its newer schema
    // does not expect (a rollback after an upgrade)
    const newest = Math.max(...MIGRATIONS.map((m) => m.version));
    const ahead = [...done].filter((v) => v > newest);
    if (ahead.length > 0)
      throw new Error(
        `the ledger database has schema version ${Math.max(...ahead)}, newer than this release's ${newest}: run the release that migrated it (or a newer one)`,
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
