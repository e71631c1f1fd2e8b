// The per-fold figures `npm run train` wrote to models/cv.json (models are trained per fold there).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../src/paths.js';

let cached: Record<string, Record<string, Record<string, number[]>>> | undefined;

/** per-fold values of `model` on `measure` of `task`, or undefined when not trained yet */
export function cvFigures(task: string, measure: string, model: string): number[] | undefined {
  if (!cached) {
    const file = join(MODELS_DIR, 'cv.json');
    cached = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  }
  return cached![task]?.[measure]?.[model];
}
