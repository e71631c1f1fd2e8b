// Formatting and target checks of `npm run eval`'s rows.
import { meanSd } from '../train/splits.js';
import type { EvalRow, Figure } from './types.js';

export function formatFigure(f: Figure): string {
  const parts: string[] = [];
  if (f.cv && f.cv.length === 1) parts.push(f.cv[0]!.toFixed(3));
  else if (f.cv && f.cv.length > 0) {
    const { mean, sd } = meanSd(f.cv);
    parts.push(`${mean.toFixed(3)} ± ${sd.toFixed(3)}`);
  }
  if (f.final !== undefined) parts.push(`final ${f.final.toFixed(3)}`);
  if (f.note) parts.push(`(${f.note})`);
  return parts.join(' ') || '-';
}

const cvMean = (f: Figure | undefined) => (f?.cv && f.cv.length > 0 ? meanSd(f.cv).mean : undefined);

/** what a row misses, in words (empty when every check passes) */
export function checkRow(r: EvalRow): string[] {
  const out: string[] = [];
  const figures = (f: Figure) =>
    [
      ['CV', cvMean(f)],
      ['final', f.final],
    ] as [string, number | undefined][];
  for (const [name, f] of [
    ['flash', r.flash],
    ['pro', r.pro],
  ] as [string, Figure][]) {
    for (const [split, v] of figures(f)) {
      if (v === undefined) continue;
      if (r.target !== undefined && v < r.target - 1e-9)
        out.push(`${name} ${split} ${v.toFixed(3)} < ${r.target.toFixed(3)}`);
      if (r.atLeast) {
        const ref = r.refs?.[r.atLeast];
        const rv = split === 'CV' ? cvMean(ref) : ref?.final;
        if (rv !== undefined && v < rv - 1e-9)
          out.push(`${name} ${split} ${v.toFixed(3)} < ${r.atLeast} ${rv.toFixed(3)}`);
      }
    }
  }
  if (r.proMargin !== undefined) {
    for (const [split, v] of figures(r.pro)) {
      const fl = split === 'CV' ? cvMean(r.flash) : r.flash.final;
      if (v !== undefined && fl !== undefined && v < fl + r.proMargin - 1e-9)
        out.push(`pro ${split} ${v.toFixed(3)} < flash ${fl.toFixed(3)} + ${r.proMargin.toFixed(2)}`);
    }
  }
  if (r.missed) out.push('see the note');
  return out;
}
