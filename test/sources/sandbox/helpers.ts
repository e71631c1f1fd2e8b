import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Enrichment } from '../../../src/contract/items.js';
import { type BuildResult, buildWorld } from '../../../src/sources/sandbox/build.js';

/** a mid-afternoon and a morning on two different days */
export const NOW1 = new Date('2025-06-15T13:45:10Z');
export const NOW2 = new Date('2025-09-02T13:45:10Z');
export const DAY = 86_400;

/** the times of day a newcomer may try the sandbox at, from the first second to the last */
export const TIMES_OF_DAY = [
  '00:00:00',
  '00:00:01',
  '00:05:00',
  '03:36:00',
  '12:00:00',
  '23:55:00',
  '23:59:59',
];
/** a few days, far apart */
export const DATES = ['2025-06-15', '2026-01-01', '2028-02-29'];

export function at(date: string, time: string): Date {
  return new Date(`${date}T${time}Z`);
}

export function anchorOf(now: Date): number {
  return Math.floor(now.getTime() / 1000 / DAY) * DAY;
}

export function tempWorld(label: string): {
  dir: string;
  path: string;
  build: () => BuildResult;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), `sandbox-${label}-`));
  const path = join(dir, 'world.db');
  return {
    dir,
    path,
    build: () => {
      const result = buildWorld(path);
      console.log(
        `[sandbox] ${label}: world built in ${(result.milliseconds / 1000).toFixed(2)} s: ${JSON.stringify(result.counts)}`,
      );
      return result;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set(
    'date-time',
    (v) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
      !Number.isNaN(Date.parse(v)),
  );
}

/** asserts that every item validates against the contract schema, with Enrichment resolvable */
export function expectValid(schema: TSchema, items: readonly unknown[]): void {
  for (const item of items) {
    if (!Value.Check(schema, [Enrichment], item)) {
      const errors = [...Value.Errors(schema, [Enrichment], item)].map((e) => `${e.path}: ${e.message}`);
      throw new Error(`item does not match ${schema.$id}: ${errors.join('; ')}\n${JSON.stringify(item)}`);
    }
    if (item && typeof item === 'object' && 'enrichment' in item) throw new Error('sandbox set enrichment');
  }
}

/** the tokens the full-text index sees in a text */
export function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function hasHashtag(text: string, tag: string): boolean {
  const want = tag.toLowerCase();
  return [...text.matchAll(/#([\p{L}\p{N}_]+)/gu)].some((m) => (m[1] as string).toLowerCase() === want);
}
