import { describe, expect, it } from 'vitest';
import { fitGbdt, GBDT_DEFAULTS, gbdtScores } from '../../scripts/train/gbdt.js';
import { argmax } from '../../scripts/train/metrics.js';
import { gbdtFromFile, gbdtToFile } from '../../src/enrichment/engine/gbdt.js';

/** points of the unit square, labelled by quadrant parity (a checkerboard: no linear model
 *  separates it), plus a third class in a band at the bottom; a noise feature beside them */
function data(n: number, seed: number) {
  let s = seed;
  const random = () => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return (s >>> 0) / 2 ** 32;
  };
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = random();
    const b = random();
    x.push([a, b, random()]);
    y.push(b < 0.1 ? 2 : a < 0.5 !== b < 0.5 ? 1 : 0);
  }
  return { x, y };
}

const accuracy = (model: ReturnType<typeof fitGbdt>, d: ReturnType<typeof data>) =>
  d.x.filter((r, i) => argmax(gbdtScores(model, r)) === d.y[i]).length / d.x.length;

describe('gradient-boosted trees (scripts/train/gbdt.ts)', () => {
  const train = data(600, 1);
  const test = data(400, 2);
  const opts = { ...GBDT_DEFAULTS, rounds: 60, eta: 0.2, colSample: 1 };
  const model = fitGbdt(
    train.x,
    train.y,
    train.y.map(() => 1),
    3,
    opts,
  );

  it('learns classes that no linear boundary separates, on points it has not seen', () => {
    expect(accuracy(model, test)).toBeGreaterThan(0.9);
  });

  it('gives the same scores when fitted again with the same seed', () => {
    const again = fitGbdt(
      train.x,
      train.y,
      train.y.map(() => 1),
      3,
      opts,
    );
    for (const r of test.x.slice(0, 50)) expect(gbdtScores(again, r)).toEqual(gbdtScores(model, r));
  });

  it('weights rows: where two classes overlap, the one weighted higher is predicted', () => {
    // in the right half of the square both classes are as likely, in the left half only class 0
    const mixed = data(800, 3);
    const y = mixed.x.map((r, i) => (r[0]! > 0.5 && i % 2 === 1 ? 1 : 0));
    const fitWeighted = (w1: number) =>
      fitGbdt(
        mixed.x,
        y,
        y.map((c) => (c === 1 ? w1 : 1)),
        2,
        opts,
      );
    const right = test.x.filter((r) => r[0]! > 0.5);
    const ones = (m: ReturnType<typeof fitGbdt>) =>
      right.filter((r) => argmax(gbdtScores(m, r)) === 1).length;
    expect(ones(fitWeighted(4))).toBeGreaterThan(0.7 * right.length);
    expect(ones(fitWeighted(0.25))).toBeLessThan(0.3 * right.length);
  });

  it('reads the same scores back from its model file, and refuses a file whose sizes disagree', () => {
    const file = JSON.parse(JSON.stringify(gbdtToFile(model)));
    const back = gbdtFromFile(file);
    for (const r of test.x) expect(gbdtScores(back, r)).toEqual(gbdtScores(model, r));
    expect(() => gbdtFromFile({ ...file, leaf: file.leaf.slice(1) })).toThrow(/inconsistent sizes/);
    expect(() => gbdtFromFile({ ...file, feature: file.feature.map(() => 7) })).toThrow(/inconsistent sizes/);
  });
});
