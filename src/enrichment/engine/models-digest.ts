// A digest of the model files the built-in analyzer reads (every file of models/ but its README and
// the CV figures, which are not loaded): the analyzer's result version, part of the enrichment
// cache's key (src/cache/enrichment.ts), so that readings cached before an upgrade of the models
// are not served after it. Computed once, on first use (about 12 MB read and hashed).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';

/** files of models/ that no analyzer reads */
const NOT_READ = new Set(['README.md', 'cv.json']);

/** the digest of the model files in `dir` */
export function modelsDigestOf(dir: string): string {
  const h = createHash('sha256');
  for (const name of readdirSync(dir).sort()) {
    if (NOT_READ.has(name)) continue;
    h.update(`${name}\n`);
    h.update(readFileSync(join(dir, name)));
  }
  return `models:${h.digest('base64url').slice(0, 22)}`;
}

let shipped: string | undefined;

/** the digest of the shipped model files (models/), read once */
export const modelsDigest = (): string => (shipped ??= modelsDigestOf(MODELS_DIR));
