// The field's metrics for single-label classification.

export function confusion(gold: readonly number[], pred: readonly number[], classes: number): number[][] {
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0));
  gold.forEach((g, i) => {
    m[g]![pred[i]!]!++;
  });
  return m;
}

export function macroRecall(gold: readonly number[], pred: readonly number[], classes: number): number {
  const m = confusion(gold, pred, classes);
  let s = 0;
  for (let c = 0; c < classes; c++) {
    const row = m[c]!;
    const total = row.reduce((a, b) => a + b, 0);
    s += total === 0 ? 0 : row[c]! / total;
  }
  return s / classes;
}

export function f1PerClass(gold: readonly number[], pred: readonly number[], classes: number): number[] {
  const m = confusion(gold, pred, classes);
  const out: number[] = [];
  for (let c = 0; c < classes; c++) {
    const tp = m[c]![c]!;
    let fp = 0;
    let fn = 0;
    for (let o = 0; o < classes; o++) {
      if (o === c) continue;
      fp += m[o]![c]!;
      fn += m[c]![o]!;
    }
    out.push(tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn));
  }
  return out;
}

export function macroF1(gold: readonly number[], pred: readonly number[], classes: number): number {
  const f = f1PerClass(gold, pred, classes);
  return f.reduce((a, b) => a + b, 0) / classes;
}

export function argmax(p: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > p[best]!) best = i;
  return best;
}
