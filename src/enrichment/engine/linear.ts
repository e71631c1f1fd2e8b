// A quantized multinomial linear model and its file format.
//
// File layout (little endian): 'GLNM' magic, u32 header length, UTF-8 JSON header, then the
// int8 weights, feature-major (index * classes + class) so one feature's weights are adjacent.
// Logits are computed as integer sums of int8 weights (exact, order-independent) and scaled once,
// so the same input gives bit-identical probabilities everywhere.
import { readFileSync } from 'node:fs';
import type { FeatureSpec } from './features.js';
import { decodeFramed, encodeFramed } from './model-file.js';

export interface LinearHeader {
  format: 1;
  /** what produced the file and from which data */
  producer: string;
  classes: string[];
  spec: FeatureSpec;
  /** weight = int8 * scale */
  scale: number;
  bias: number[];
  /** divide the summed weights by sqrt(number of features) */
  sqrtNorm: boolean;
  /** added to the logits after training (class calibration), one per class */
  calibration: number[];
  /** weight blocks per feature (default 1): the weights are laid out [feature][block][class], so
   *  all the weights one feature touches share a cache line (see sentiment.ts) */
  blocks?: number;
  /** scale word n-grams and character n-grams each by 1/sqrt(their own count) (sentiment.ts) */
  groupNorm?: boolean;
}

export interface LinearModel extends LinearHeader {
  weights: Int8Array;
}

const MAGIC = 0x4d4e4c47; // 'GLNM'

export function encodeModel(model: LinearModel): Buffer {
  const { weights, format, producer, classes, spec, scale, bias, sqrtNorm, calibration, blocks } = model;
  const header: LinearHeader = { format, producer, classes, spec, scale, bias, sqrtNorm, calibration };
  if (blocks !== undefined && blocks !== 1) header.blocks = blocks;
  if (model.groupNorm) header.groupNorm = true;
  return encodeFramed(MAGIC, header, weights);
}

export function decodeModel(buf: Buffer): LinearModel {
  const { header, body } = decodeFramed<LinearHeader>(buf, MAGIC, 'linear model');
  const expected = (1 << header.spec.bits) * (header.blocks ?? 1) * header.classes.length;
  if (body.length !== expected)
    throw new Error(`model weights: expected ${expected} bytes, got ${body.length}`);
  const weights = new Int8Array(expected);
  weights.set(new Int8Array(body.buffer, body.byteOffset, body.byteLength));
  return { ...header, weights };
}

export function loadModel(path: string): LinearModel {
  return decodeModel(readFileSync(path));
}

/** keeps the touching pass of logitsOf from being optimized away */
let _sink = 0;

export function logitsOf(model: LinearModel, feats: readonly number[]): number[] {
  const c = model.classes.length;
  const sums = new Array<number>(c).fill(0);
  const w = model.weights;
  // a first pass only touches each feature's weights: its loads are independent, so the CPU
  // overlaps the cache misses that the summing pass would otherwise wait for one by one
  let touch = 0;
  for (let i = 0; i < feats.length; i++) touch ^= w[feats[i]! * c]!;
  _sink ^= touch;
  for (let i = 0; i < feats.length; i++) {
    const base = feats[i]! * c;
    for (let k = 0; k < c; k++) sums[k]! += w[base + k]!;
  }
  const norm = model.sqrtNorm && feats.length > 0 ? model.scale / Math.sqrt(feats.length) : model.scale;
  for (let k = 0; k < c; k++) sums[k] = sums[k]! * norm + model.bias[k]! + model.calibration[k]!;
  return sums;
}

export function softmax(z: readonly number[]): number[] {
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  const e = z.map((v) => Math.exp(v - max));
  let s = 0;
  for (const v of e) s += v;
  return e.map((v) => v / s);
}
