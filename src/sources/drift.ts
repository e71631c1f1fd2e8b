// The drift policy of every live backend: one upstream item whose layout we cannot read must not
// fail a call. It is left out, reported through the call context (the service lists it in
// metadata.warnings, the metrics decorator counts it), and the rest of the page is returned.
// A page that had items but of which none could be read fails as an upstream error (502): an
// empty success would claim the upstream had nothing.
import { type SourceCallContext, SourceError } from './interface.js';

export interface ReadItemsOptions {
  backend: string;
  /** what one item is, in the singular ('video', 'comment', 'post') */
  what: string;
  ctx?: SourceCallContext | undefined;
}

/**
 * Reads each raw item with `read`. An item for which `read` throws an upstream SourceError (schema
 * drift) is skipped and reported; `read` may also return undefined for an item that is
 * legitimately not one of ours (an ad, a shelf header), which is dropped silently. Any other
 * error propagates.
 */
export function readItems<R, T>(
  raw: readonly R[],
  read: (r: R, index: number) => T | undefined,
  opts: ReadItemsOptions,
): T[] {
  const out: T[] = [];
  let firstError: SourceError | undefined;
  let skipped = 0;
  raw.forEach((r, i) => {
    let item: T | undefined;
    try {
      item = read(r, i);
    } catch (e) {
      if (!(e instanceof SourceError) || e.kind !== 'upstream') throw e;
      firstError ??= e;
      skipped++;
      opts.ctx?.onSkip?.({ backend: opts.backend, what: opts.what, reason: e.message });
      return;
    }
    if (item !== undefined) out.push(item);
  });
  if (out.length === 0 && firstError !== undefined) {
    throw new SourceError(
      'upstream',
      `${opts.backend} sent ${skipped} ${opts.what} item(s) of which none could be read: ${firstError.message}`,
      { backend: opts.backend, cause: firstError },
    );
  }
  return out;
}
