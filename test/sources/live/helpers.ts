// Shared offline test kit: a MockAgent that refuses the network, fixtures, a captured pino
// logger, fast HTTP settings and contract validation.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import pino, { type Logger } from 'pino';
import { Agent, MockAgent } from 'undici';
import { Enrichment } from '../../../src/contract/items.js';
import type { LiveSourcesEnvType } from '../../../src/sources/providers/config.js';

if (!FormatRegistry.Has('date-time')) {
  // ISO 8601 UTC with a Z, the only form the contract's timestamps take
  FormatRegistry.Set(
    'date-time',
    (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)),
  );
}

/** the recorded upstream responses, one folder per backend */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/live');

export function fixture(backend: string, name: string): string {
  return readFileSync(join(FIXTURES, backend, `${name}.json`), 'utf8');
}

export function fixtureJson<T = unknown>(backend: string, name: string): T {
  return JSON.parse(fixture(backend, name)) as T;
}

export function mockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

/** a dispatcher that refuses every connection, as on a machine with no network */
export function refusingAgent(): Agent {
  return new Agent({
    connect: (_opts, cb) => {
      const err = Object.assign(new Error('connect ECONNREFUSED (no network in tests)'), {
        code: 'ECONNREFUSED',
      });
      cb(err, null);
    },
  });
}

/** HTTP settings small enough that failure cases finish in milliseconds */
export const FAST: LiveSourcesEnvType = {
  UPSTREAM_TIMEOUT_MS: '150',
  UPSTREAM_DEADLINE_MS: '3000',
  UPSTREAM_RETRIES: '2',
  UPSTREAM_BACKOFF_BASE_MS: '5',
  UPSTREAM_BACKOFF_MAX_MS: '20',
  UPSTREAM_BREAKER_THRESHOLD: '50',
  UPSTREAM_BREAKER_HALF_OPEN_MS: '60000',
};

export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: 'trace' }, stream), lines };
}

export function assertItems(schema: TSchema, items: unknown[]): void {
  for (const item of items) {
    if (!Value.Check(schema, [Enrichment], item)) {
      const errs = [...Value.Errors(schema, [Enrichment], item)].map((e) => `${e.path}: ${e.message}`);
      throw new Error(
        `item does not match ${String(schema.$id)}: ${errs.join('; ')}\n${JSON.stringify(item)}`,
      );
    }
  }
}

/** runs fn and returns the SourceError it throws (fails the test when it resolves) */
export async function rejection(
  p: Promise<unknown>,
): Promise<import('../../../src/sources/interface.js').SourceError> {
  try {
    await p;
  } catch (e) {
    return e as import('../../../src/sources/interface.js').SourceError;
  }
  throw new Error('expected the call to fail');
}

export const FIXED_NOW = new Date('2024-05-03T12:00:00Z');
