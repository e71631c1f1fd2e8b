// Requests that name several targets (URLs, users, hashtags, keywords, channels) never fail as a
// whole because one target is missing or fails upstream: the others are returned and each
// target that produced nothing is listed in metadata.warnings. Only when every target failed
// for a reason other than "not found", or the one target named does not exist, does the call
// fail (and then it costs nothing).
import type { Warning } from '../contract/common.js';
import { EnrichmentError } from '../enrichment/interface.js';
import { AppError, toHttpError } from '../errors.js';
import { SourceError } from '../sources/interface.js';

export interface Collected<R> {
  results: Array<{ target: string; value: R }>;
  warnings: Warning[];
}

export async function collectTargets<R>(
  targets: readonly string[],
  run: (target: string, index: number) => Promise<R>,
): Promise<Collected<R>> {
  const settled = await Promise.allSettled(targets.map((t, i) => run(t, i)));
  const results: Collected<R>['results'] = [];
  const warnings: Warning[] = [];
  let firstHardError: unknown;
  settled.forEach((s, i) => {
    const target = targets[i]!;
    if (s.status === 'fulfilled') {
      results.push({ target, value: s.value });
      return;
    }
    const e = s.reason;
    if (!(e instanceof SourceError || e instanceof EnrichmentError || e instanceof AppError)) throw e;
    if (e instanceof SourceError && e.kind === 'bad_cursor') throw e;
    const mapped = toHttpError(e, '');
    if (mapped.code !== 'NOT_FOUND') firstHardError ??= e;
    warnings.push({ target, code: mapped.code, message: mapped.message });
  });
  if (results.length === 0 && firstHardError !== undefined) throw firstHardError;
  // a request naming one target that does not exist is a 404 (decisions.md), and costs nothing
  if (results.length === 0 && targets.length === 1 && settled[0]?.status === 'rejected')
    throw settled[0].reason;
  return { results, warnings };
}
