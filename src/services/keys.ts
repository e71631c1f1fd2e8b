// Verbs on API keys: authentication and the operator's key management.
import { hashKey, looksLikeKey, newApiKey, newKeyId } from '../billing/keys.js';
import type { KeyBalance, KeyRecord, Ledger, LedgerEntry } from '../billing/ledger/interface.js';
import { fromCredits, toCredits } from '../billing/pricing.js';
import { AppError, badRequest } from '../errors.js';

/** SHA-256 of the keys seen lately: a client sends the same key with every call */
const hashes = new Map<string, Buffer>();
const MAX_HASHES = 10_000;

function hashOf(key: string): Buffer {
  let h = hashes.get(key);
  if (h === undefined) {
    h = hashKey(key);
    if (hashes.size >= MAX_HASHES) hashes.clear();
    hashes.set(key, h);
  }
  return h;
}

export async function authenticate(
  ledger: Ledger,
  header: string | string[] | undefined,
): Promise<KeyRecord> {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') throw new AppError('UNAUTHORIZED', 'API key is required');
  const key = value.trim();
  const record = looksLikeKey(key) ? await ledger.findKeyByHash(hashOf(key)) : null;
  if (!record || record.revokedAt) throw new AppError('UNAUTHORIZED', 'Invalid API key');
  return record;
}

function milli(credits: number, field: string): number {
  const m = fromCredits(credits);
  if (m === null)
    throw badRequest(`${field} must be a multiple of 0.001`, [
      { field, message: 'must be a multiple of 0.001' },
    ]);
  return m;
}

export async function createKey(ledger: Ledger, name: string, credits: number) {
  const { key, prefix, hash } = newApiKey();
  const record = await ledger.createKey({
    id: newKeyId(),
    name,
    prefix,
    hash,
    credits: milli(credits, 'credits'),
  });
  return { id: record.id, key, credits, name: record.name, prefix: record.prefix };
}

export function keyView(k: KeyBalance) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    credits: toCredits(k.balance),
    held: toCredits(k.held),
    available: toCredits(k.balance - k.held),
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

export function entryView(e: LedgerEntry) {
  return {
    seq: e.seq,
    kind: e.kind,
    credits: toCredits(e.amount),
    request_id: e.requestId,
    client_request_id: e.clientRequestId,
    route: e.route,
    note: e.note,
    created_at: e.createdAt.toISOString(),
  };
}

export async function grantCredits(ledger: Ledger, id: string, credits: number, note?: string) {
  const k = await ledger.grant(id, milli(credits, 'credits'), note);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView(k);
}

export async function revokeKey(ledger: Ledger, id: string) {
  if (!(await ledger.revokeKey(id))) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView((await ledger.getKey(id))!);
}

export async function getKey(ledger: Ledger, id: string) {
  const k = await ledger.getKey(id);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView(k);
}

export async function keyLedger(ledger: Ledger, id: string, limit = 100, before?: number) {
  const k = await ledger.getKey(id);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  const entries = await ledger.entries(id, { limit, beforeSeq: before });
  return { key: keyView(k), entries: entries.map(entryView) };
}

/** On first start with an empty database: a demo key, shown once. */
export async function ensureDemoKey(
  ledger: Ledger,
  credits: number,
): Promise<{ id: string; key: string } | null> {
  if (credits <= 0 || (await ledger.countKeys()) > 0) return null;
  const k = await createKey(ledger, 'demo', credits);
  return { id: k.id, key: k.key };
}
