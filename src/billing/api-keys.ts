// API keys: random 192-bit secrets with a recognisable prefix, stored only as SHA-256 hashes.
import { hash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'gl_';
/** characters of a key kept in clear to recognise it in listings (prefix + 6 random chars) */
const SHOWN_CHARS = KEY_PREFIX.length + 6;

export function hashKey(key: string): Buffer {
  // the one-shot form: no Hash object per request
  return hash('sha256', key, 'buffer');
}

export function newApiKey(): { key: string; prefix: string; hash: Buffer } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, SHOWN_CHARS), hash: hashKey(key) };
}

export function newKeyId(): string {
  return `key_${randomBytes(10).toString('hex')}`;
}

/** cheap shape check before hashing: anything else is simply an invalid key */
export function looksLikeKey(s: string): boolean {
  return s.length > 0 && s.length <= 200;
}
