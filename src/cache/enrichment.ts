// Enrichment results cached per text, by a hash of what determines them: the analyzer's result
// version (the models it reads), provider, types (in request order, which fixes the key order of
// the result), topic categories, and the text.
// Analysis is deterministic, so a cached result is byte-identical to a fresh one. Only the texts
// not in the cache go to the analyzer; the call is billed as usual (billing counts texts, not
// analyzer work).
import { hash } from 'node:crypto';
import type { Enrichment } from '../contract/items.js';
import type { EnrichCallOptions, Enricher, EnrichRequest } from '../enrichment/interface.js';
import { knownJson } from '../reusable-json.js';
import type { CacheStore } from './interface.js';
import type { CacheHooks } from './sources.js';

export function cacheEnricher(
  inner: Enricher,
  store: CacheStore,
  ttlSeconds: number,
  hooks: CacheHooks = {},
): Enricher {
  if (ttlSeconds <= 0) return inner;
  return {
    async enrich(req: EnrichRequest, opts?: EnrichCallOptions): Promise<Enrichment[]> {
      if (req.texts.length === 0) return [];
      const version = inner.resultVersion?.(req.provider) ?? '';
      const prefix = `${JSON.stringify([version, req.provider, req.types, req.categories?.topic ?? null])}\n`;
      // one-shot hashing: the same digest as a Hash object fed the prefix and the text, in half the time
      const keys = req.texts.map((t) => `enr:${hash('sha256', prefix + t, 'base64url')}`);
      const cached = await store.getMany(keys);
      const results: Array<Enrichment | undefined> = cached.map((c) =>
        c === undefined ? undefined : (JSON.parse(c) as Enrichment),
      );
      // the texts to analyze, each once
      const missing = new Map<string, { text: string; at: number[] }>();
      results.forEach((r, i) => {
        if (r !== undefined) return;
        const k = keys[i]!;
        const m = missing.get(k);
        if (m) m.at.push(i);
        else missing.set(k, { text: req.texts[i]!, at: [i] });
      });
      const hits = req.texts.length - [...missing.values()].reduce((s, m) => s + m.at.length, 0);
      if (hits > 0) hooks.onHit?.(hits);
      if (missing.size > 0) {
        hooks.onMiss?.(req.texts.length - hits);
        const todo = [...missing.entries()];
        const fresh = await inner.enrich({ ...req, texts: todo.map(([, m]) => m.text) }, opts);
        const entries: Array<[string, string]> = [];
        todo.forEach(([k, m], j) => {
          // serialized once: the cache entry, and the reply's copy of it (knownJson)
          const text = JSON.stringify(fresh[j]!);
          const e = knownJson(fresh[j]!, text);
          for (const i of m.at) results[i] = i === m.at[0] ? e : (JSON.parse(text) as Enrichment);
          entries.push([k, text]);
        });
        await store.setMany(entries, ttlSeconds);
      }
      return results as Enrichment[];
    },
    isLocal: (provider) => inner.isLocal(provider),
    resultVersion: (provider) => inner.resultVersion?.(provider) ?? '',
    close: () => inner.close(),
  };
}
