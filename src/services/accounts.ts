// Verbs on API keys and the ledger's accounts: authentication, the operator's key management and
// the ledger's reconciliation. The HTTP layer and the admin CLI call these, never the ledger.
import { LRUCache } from 'lru-cache';
import { hashKey, looksLikeKey, newApiKey, newKeyId } from '../billing/api-keys.js';
import type { KeyBalance, KeyRecord, Ledger, LedgerEntry } from '../billing/ledger/interface.js';
import { fromCredits, toCredits } from '../billing/pricing.js';
import { AppError, badRequest } from '../errors.js';

export interface AccountDeps {
  ledger: Ledger;
}

/** SHA-256 of the keys seen lately: a client sends the same key with every call */
const hashes = new LRUCache<string, Buffer>({ max: 10_000 });

function hashOf(key: string): Buffer {
  let h = hashes.get(key);
  if (h === undefined) {
    h = hashKey(key);
    hashes.set(key, h);
  }
  return h;
}

export async function authenticate(
  { ledger }: AccountDeps,
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

export async function createKey({ ledger }: AccountDeps, name: string, credits: number) {
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

export async function grantCredits({ ledger }: AccountDeps, id: string, credits: number, note?: string) {
  const k = await ledger.grant(id, milli(credits, 'credits'), note);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView(k);
}

export async function revokeKey({ ledger }: AccountDeps, id: string) {
  if (!(await ledger.revokeKey(id))) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView((await ledger.getKey(id))!);
}

export async function getKey({ ledger }: AccountDeps, id: string) {
  const k = await ledger.getKey(id);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  return keyView(k);
}

export async function keyLedger({ ledger }: AccountDeps, id: string, limit = 100, before?: number) {
  const k = await ledger.getKey(id);
  if (!k) throw new AppError('NOT_FOUND', `No key ${id}`);
  const entries = await ledger.entries(id, { limit, beforeSeq: before });
  return { key: keyView(k), entries: entries.map(entryView) };
}

/** On first start with an empty database: a demo key, shown once. */
export async function ensureDemoKey(
  { ledger }: AccountDeps,
  credits: number,
): Promise<{ id: string; key: string } | null> {
  if (credits <= 0 || (await ledger.countKeys()) > 0) return null;
  const k = await createKey({ ledger }, 'demo', credits);
  return { id: k.id, key: k.key };
}

export async function listKeys({ ledger }: AccountDeps) {
  return (await ledger.listKeys()).map(keyView);
}

/** the ledger's self-check: every balance against its journal, and open holds */
export function reconcile({ ledger }: AccountDeps) {
  return ledger.reconcile();
}

/** whether the ledger's database answers (readiness) */
export async function ledgerReady({ ledger }: AccountDeps): Promise<boolean> {
  try {
    await ledger.ping();
    return true;
  } catch {
    return false;
  }
}
