// JSON text of immutable values, computed once. A source whose items do not change for a while
// (the sandbox's posts within a day) marks each item `reusable`: the item is deep-frozen and its
// JSON text kept beside it, and `renderJson` splices that text into a reply instead of
// serializing the item again. For any value, `renderJson(v)` is exactly `JSON.stringify(v)`.

const texts = new WeakMap<object, string>();

function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
}

/** freezes `value` (deeply: later mutation throws) and keeps its JSON text for renderJson */
export function reusable<T extends object>(value: T): T {
  deepFreeze(value);
  texts.set(value, JSON.stringify(value));
  return value;
}

/** `JSON.stringify(value)` that reuses the kept text of reusable values found within the first
 *  `depth` levels (deeper ones are serialized natively: they are never reply items) */
export function renderJson(value: unknown, depth = 4): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const t = typeof v === 'undefined' || typeof v === 'function' || typeof v === 'symbol';
      out += `${i === 0 ? '' : ','}${t ? 'null' : renderJson(v, depth - 1)}`;
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const k of Object.keys(value)) {
    const v: unknown = (value as Record<string, unknown>)[k];
    if (typeof v === 'undefined' || typeof v === 'function' || typeof v === 'symbol') continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${renderJson(v, depth - 1)}`;
    first = false;
  }
  return `${out}}`;
}
