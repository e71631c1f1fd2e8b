// Pieces shared by the third-party data-provider backends (scrapekit, datadepth) across the
// platforms: the cursor and flag shapes their answers use, the reading of "no next page", the
// look-back window of hashtag feeds, one shape-checked GET, and the common frame of a
// provider-backed source (options, HTTP client, clock). What differs per provider (how the credential travels, how errors read) stays in the
// provider's own module.
import { type TSchema, Type } from '@sinclair/typebox';
import { readItems } from '../drift.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import { expectShape } from '../http/json.js';
import type { SourceCallContext, SourceError } from '../interface.js';

/** a provider's next-page cursor: absent, null, a string or a number */
export const ProviderCursor = Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()]));
/** a provider's "more pages" flag, sent as a boolean or as 0/1 */
export const ProviderFlag = Type.Union([Type.Boolean(), Type.Integer()]);

/** whether a post made at `unixSeconds` falls inside a look-back window of `days` ending `now` */
export function withinDays(unixSeconds: number, days: number, now: Date): boolean {
  return unixSeconds >= Math.floor(now.getTime() / 1000) - days * 86_400;
}

/** a provider cursor as our page cursor; absent, null, empty and 0 all mean "no next page" */
export function cursorOf(v: string | number | null | undefined): string | null {
  if (v === undefined || v === null || v === '' || v === 0 || v === '0') return null;
  return String(v);
}

export interface ProviderGet {
  op: string;
  baseUrl: string;
  path: string;
  query: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  classify?: (res: HttpResponse) => SourceError | undefined;
}

/**
 * One GET against a provider (64-bit integers kept exact), checked against the part of the
 * documented shape the caller relies on.
 */
export async function providerGetShaped<T extends TSchema>(
  http: HttpClient,
  schema: T,
  req: ProviderGet,
  ctx?: SourceCallContext,
): Promise<T['static']> {
  const body = await http.json(
    {
      op: req.op,
      url: `${req.baseUrl.replace(/\/+$/, '')}${req.path}`,
      query: req.query,
      headers: req.headers,
      signal: ctx?.signal,
      classify: req.classify,
    },
    { lossless: true },
  );
  return expectShape(schema, body, http.backend, req.op);
}

/** The frame of a provider-backed source: its options, its HTTP client and its clock. */
export abstract class ProviderSource<O extends { now?: () => Date }> {
  abstract readonly name: string;
  readonly kind = 'live' as const;
  protected readonly now: () => Date;

  constructor(
    protected readonly opts: O,
    protected readonly http: HttpClient,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * Reads each raw item of a page against `schema` and maps it (undefined: not wanted, e.g.
   * older than the look-back window). An item that does not match is left out and reported
   * (drift.ts); a page none of whose items could be read is an upstream error.
   */
  protected items<S extends TSchema, T>(
    raw: readonly unknown[] | null | undefined,
    schema: S,
    what: 'post' | 'comment' | 'video',
    ctx: SourceCallContext | undefined,
    map: (item: S['static']) => T | undefined,
  ): T[] {
    return readItems(raw ?? [], (r) => map(expectShape(schema, r, this.name, `${what} item`)), {
      backend: this.name,
      what,
      ctx,
    });
  }
}
