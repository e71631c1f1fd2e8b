// Lists without repeats, first occurrence kept: targets a caller named twice, items an upstream
// sent twice.

/** the items whose `key` was not seen before, in order */
export function dedupeBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
