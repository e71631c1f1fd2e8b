// The dashboard playground's catalog, what it needs beside the OpenAPI document: each endpoint's prices and
// item bounds (for the worst-case cost shown before a call is sent, the same figures the CLI's
// --max-credits uses), its SDK method and its `gleaner` command with the flag of each body field.
import { ENRICHMENT_RATES, PROVIDER_MULTIPLIER, RATES } from '../billing/pricing.js';
import { BOUNDS, type Bound } from '../contract/bounds.js';
import { API_PREFIX, ENDPOINTS, type EndpointId } from '../contract/endpoints.js';

/** how a body field is written on the `gleaner` command line */
export interface CliField {
  flag: string;
  /** repeat: one flag per value; comma: one flag, values joined by commas; topics: the custom
   *  topic labels of `categories`, joined by commas */
  list?: 'repeat' | 'comma' | 'topics';
  /** a flag without a value, given when the field is true */
  bool?: true;
}

export interface CatalogEntry {
  id: EndpointId;
  path: string;
  summary: string;
  rates: { base: number; perItem: number };
  bound: Bound;
  sdk: string;
  cli: { command: string; fields: Record<string, CliField> };
}

export interface Catalog {
  prefix: string;
  /** millicredits per text or item, per enrichment type, and the providers' multipliers */
  enrichmentRates: Record<string, number>;
  providerMultiplier: Record<string, number>;
  endpoints: CatalogEntry[];
}

/** the CLI's flag for a body field where it is not the field's name with dashes */
const FLAGS: Record<string, CliField> = {
  usernames: { flag: 'username', list: 'repeat' },
  post_urls: { flag: 'url', list: 'repeat' },
  hashtags: { flag: 'hashtag', list: 'repeat' },
  keywords: { flag: 'keyword', list: 'repeat' },
  browse_ids: { flag: 'channel', list: 'repeat' },
  texts: { flag: 'text', list: 'repeat' },
  enrich: { flag: 'enrich', list: 'comma' },
  analyses: { flag: 'enrich', list: 'comma' },
  categories: { flag: 'topics', list: 'topics' },
  max_posts_per_hashtag: { flag: 'max-per-hashtag' },
  max_posts_per_keyword: { flag: 'max-per-keyword' },
};

function command(id: EndpointId): string {
  const [group, name] = id.split('.') as [string, string];
  return group === 'ml' ? name.replace(/_/g, '-') : `${group} ${name.replace(/_/g, '-')}`;
}

const sdkMethod = (id: EndpointId) =>
  id === 'ml.analyze' ? 'analyze' : id.replace(/[._]([a-z])/g, (_, c: string) => c.toUpperCase());

export function buildCatalog(): Catalog {
  return {
    prefix: API_PREFIX,
    enrichmentRates: { ...ENRICHMENT_RATES },
    providerMultiplier: { ...PROVIDER_MULTIPLIER },
    endpoints: ENDPOINTS.map((e) => {
      const props = Object.entries((e.body as { properties: Record<string, { type?: string }> }).properties);
      const fields: Record<string, CliField> = {};
      for (const [name, schema] of props)
        fields[name] = FLAGS[name] ?? {
          flag: name.replace(/_/g, '-'),
          ...(schema.type === 'boolean' ? { bool: true as const } : {}),
        };
      return {
        id: e.id,
        path: e.path,
        summary: e.summary,
        rates: { ...RATES[e.id] },
        bound: { ...BOUNDS[e.id] },
        sdk: sdkMethod(e.id),
        cli: { command: command(e.id), fields },
      };
    }),
  };
}
