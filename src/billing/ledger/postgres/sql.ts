// The PostgreSQL ledger's statements. Every balance check is inside the statement that writes:
// a debit or a hold is one conditional UPDATE (… WHERE balance - held >= amount) whose item count
// is computed in the same statement from the row it locks, so no instance ever acts on a balance
// it read earlier. Timestamps (hold expiry, idempotency leases) use the database clock, so
// instances with skewed clocks agree. The schema and the batch function are in migrations.ts.
import type { ReconcileQueries } from '../reconcile.js';

export const KEY_COLUMNS = 'id, name, prefix, balance, held, created_at, revoked_at';

export const CREATE_KEY = `
WITH k AS (
  INSERT INTO api_keys (id, name, prefix, key_hash, balance) VALUES ($1, $2, $3, $4, $5)
  RETURNING ${KEY_COLUMNS}
),
g AS (
  INSERT INTO ledger (key_id, kind, amount, note)
  SELECT id, 'grant', balance, 'initial credits' FROM k WHERE balance > 0
)
SELECT * FROM k`;

export const KEY_BY_HASH = `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`;
export const KEY_BY_ID = `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`;
export const LIST_KEYS = `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`;
export const COUNT_KEYS = 'SELECT COUNT(*)::bigint AS n FROM api_keys';
export const REVOKE_KEY =
  'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, clock_timestamp()) WHERE id = $1';

// $1 key, $2 amount, $3 note
export const GRANT = `
WITH k AS (
  UPDATE api_keys SET balance = balance + $2::bigint WHERE id = $1 RETURNING ${KEY_COLUMNS}
),
g AS (INSERT INTO ledger (key_id, kind, amount, note) SELECT id, 'grant', $2::bigint, $3 FROM k)
SELECT * FROM k`;

export const ENTRIES = `
SELECT seq, kind, amount, request_id, client_request_id, route, note, created_at, idem_record IS NOT NULL AS idempotent
FROM ledger WHERE key_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`;

export const USAGE = `
SELECT day, NULLIF(route, '') AS route, kind, amount, entries AS count FROM ledger_daily
WHERE key_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, route, kind`;

export const TOTALS =
  'SELECT kind, SUM(amount)::bigint AS amount, SUM(entries)::bigint AS n FROM ledger_daily WHERE key_id = $1 GROUP BY kind';

export const USAGE_BY_KEY = `
SELECT k.id AS "keyId", COALESCE(SUM(d.amount), 0)::bigint AS spent, COALESCE(SUM(d.entries), 0)::bigint AS calls
FROM api_keys k
LEFT JOIN ledger_daily d ON d.key_id = k.id AND d.kind = 'debit' AND d.day >= $1 AND d.day <= $2
GROUP BY k.id ORDER BY k.created_at, k.id`;

export const AVAILABLE = 'SELECT balance - held AS a FROM api_keys WHERE id = $1';

// How many of `items` the key affords beyond the base charge (NULL: not even the base), read
// from the row locked by this very statement. $1 key, $2 base, $3 per item, $4 items wanted.
const AFFORDABLE = `
  k AS (
    SELECT id, balance - held AS avail FROM api_keys WHERE id = $1 FOR NO KEY UPDATE
  ),
  c AS (
    SELECT id,
      CASE WHEN avail < $2::bigint THEN NULL
           WHEN $3::bigint = 0 THEN $4::bigint
           ELSE LEAST($4::bigint, (avail - $2::bigint) / $3::bigint) END AS n
    FROM k
  )`;

// One-step debit: $5 min items, $6 request id, $7 route, $8 the caller's request id. Calls with
// an Idempotency-Key go through gleaner_batch_fenced instead (it checks their lease).
export const CHARGE = `
WITH ${AFFORDABLE},
  d AS (
    UPDATE api_keys a SET balance = a.balance - ($2::bigint + $3::bigint * c.n)
    FROM c
    WHERE a.id = c.id AND c.n >= $5::bigint AND a.balance - a.held >= $2::bigint + $3::bigint * c.n
    RETURNING a.id, c.n, $2::bigint + $3::bigint * c.n AS amount, a.balance
  ),
  j AS (
    INSERT INTO ledger (key_id, kind, amount, request_id, route, client_request_id)
    SELECT id, 'debit', amount, $6, $7, $8 FROM d WHERE amount > 0
  )
SELECT n, amount, balance FROM d`;

// Reserve: $5 min items, $6 hold id, $7 request id, $8 route, $9 ttl in ms.
export const HOLD = `
WITH ${AFFORDABLE},
  d AS (
    UPDATE api_keys a SET held = a.held + ($2::bigint + $3::bigint * c.n)
    FROM c
    WHERE a.id = c.id AND c.n >= $5::bigint AND a.balance - a.held >= $2::bigint + $3::bigint * c.n
    RETURNING a.id, c.n, $2::bigint + $3::bigint * c.n AS amount
  ),
  h AS (
    INSERT INTO holds (id, key_id, amount, request_id, route, state, expires_at)
    SELECT $6, id, amount, $7, $8, 'open', clock_timestamp() + $9::bigint * interval '1 millisecond' FROM d
  )
SELECT n, amount FROM d`;

// Closes an open hold ($1) and gives its amount back to `available`; a closed hold is untouched,
// so a hold is never closed twice.
export const CLOSE_HOLD = `
WITH h AS (
  UPDATE holds SET state = $2, closed_at = clock_timestamp()
  WHERE id = $1 AND state = 'open'
  RETURNING key_id, amount
)
UPDATE api_keys a SET held = a.held - h.amount FROM h WHERE a.id = h.key_id`;

// Expired holds, at most 1000 a sweep; rows another sweeper holds are skipped, not waited for, so
// every instance can sweep at once without closing a hold twice. Keys are locked in id order so
// that two sweepers never deadlock on each other.
export const EXPIRE = `
WITH h AS (
  UPDATE holds SET state = 'expired', closed_at = COALESCE($1::timestamptz, clock_timestamp())
  WHERE id IN (
    SELECT id FROM holds
    WHERE state = 'open' AND expires_at < COALESCE($1::timestamptz, clock_timestamp())
    ORDER BY expires_at LIMIT 1000
    FOR UPDATE SKIP LOCKED
  ) AND state = 'open'
  RETURNING key_id, amount
),
s AS (SELECT key_id, SUM(amount)::bigint AS amount, COUNT(*)::bigint AS n FROM h GROUP BY key_id),
l AS (SELECT a.id FROM api_keys a JOIN s ON s.key_id = a.id ORDER BY a.id FOR NO KEY UPDATE OF a),
u AS (
  UPDATE api_keys a SET held = a.held - s.amount FROM s, l WHERE a.id = s.key_id AND l.id = a.id
  RETURNING a.id
)
SELECT COALESCE(SUM(n), 0)::bigint AS n FROM s`;

// Starts (or takes over) an idempotency record. Inserted when new, replaced (a new record id)
// when expired, taken over when its lease ran out (the instance running it died, or the run
// takes too long); otherwise left alone and read back. Replacing or taking over bumps the
// generation, which fences the earlier run off. $6 the id of a new record.
export const IDEM_BEGIN = `
INSERT INTO idempotency AS i (key_id, idem_key, fingerprint, state, locked_until, created_at, expires_at,
                              record_id, generation)
VALUES ($1, $2, $3, 'running',
        clock_timestamp() + $4::bigint * interval '1 millisecond',
        clock_timestamp(),
        clock_timestamp() + $5::bigint * interval '1 millisecond',
        $6, 1)
ON CONFLICT (key_id, idem_key) DO UPDATE SET
  fingerprint = EXCLUDED.fingerprint,
  state = 'running',
  locked_until = EXCLUDED.locked_until,
  status = NULL, headers = NULL, body = NULL,
  created_at = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.created_at ELSE i.created_at END,
  expires_at = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.expires_at ELSE i.expires_at END,
  record_id = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.record_id ELSE i.record_id END,
  generation = i.generation + 1
WHERE i.expires_at < clock_timestamp()
   OR (i.state = 'running' AND i.locked_until < clock_timestamp() AND i.fingerprint = EXCLUDED.fingerprint)
RETURNING record_id, generation`;

export const IDEM_GET =
  'SELECT fingerprint, state, status, headers, body FROM idempotency WHERE key_id = $1 AND idem_key = $2';

export const IDEM_ABANDON =
  "DELETE FROM idempotency WHERE key_id = $1 AND idem_key = $2 AND record_id = $3 AND generation = $4 AND state = 'running'";

export const IDEM_PURGE =
  'DELETE FROM idempotency WHERE expires_at < COALESCE($1::timestamptz, clock_timestamp())';

// Charges, holds and settles of one batch, in one call of gleaner_batch_fenced (migration 4): in
// the order given, each deciding on the row it locks exactly as the single-call statements do,
// and each call with an Idempotency-Key only while its lease still owns its record.
export const BATCH = `SELECT n, amount, balance, fenced FROM gleaner_batch_fenced($1::text[], $2::text[],
  $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[],
  $10::bigint[], $11::text[], $12::text[], $13::text[], $14::bigint[])`;

// The Idempotency-Key responses of a batch, stored in its transaction after BATCH. The records
// are locked by gleaner_batch_fenced in this transaction; the lease is checked again.
export const STORE_RESPONSES = `
UPDATE idempotency i SET state = 'done', status = u.status, headers = u.headers::jsonb, body = u.body
FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::text[], $7::text[])
  AS u (key_id, idem_key, record_id, generation, status, headers, body)
WHERE i.key_id = u.key_id AND i.idem_key = u.idem_key AND i.record_id = u.record_id
  AND i.generation = u.generation AND i.state = 'running'`;

// grants and debits per key, of the journal or of its usage rollup
const sumsOf = (table: 'ledger' | 'ledger_daily') => `
SELECT key_id,
  SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END)::bigint AS grants,
  SUM(CASE WHEN kind = 'debit' THEN amount ELSE 0 END)::bigint AS debits
FROM ${table} GROUP BY key_id`;

/** read in one REPEATABLE READ transaction */
export const RECONCILE: ReconcileQueries = {
  keys: 'SELECT id, balance, held FROM api_keys ORDER BY id',
  sums: sumsOf('ledger'),
  held: "SELECT key_id, SUM(amount)::bigint AS held, COUNT(*)::bigint AS n FROM holds WHERE state = 'open' GROUP BY key_id",
  entries: 'SELECT COUNT(*)::bigint AS n FROM ledger',
  orphans: 'SELECT DISTINCT key_id FROM ledger WHERE key_id NOT IN (SELECT id FROM api_keys)',
  doubled: `
SELECT key_id, idem_record, COUNT(*)::bigint AS n FROM ledger
WHERE kind = 'debit' AND idem_record IS NOT NULL
GROUP BY key_id, idem_record HAVING COUNT(*) > 1`,
  rollup: sumsOf('ledger_daily'),
};
