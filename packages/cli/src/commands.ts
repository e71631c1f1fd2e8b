// Every subcommand of `gleaner`: its endpoint, flags that mirror the endpoint's parameters, how
// the flags become a request body, and its help with examples.
import { readFileSync } from 'node:fs';
import type { EndpointId } from '@gleaner/client';
import { UsageError } from './config.js';
import { ENDPOINTS, ENRICHMENT_TYPES, LLM_PROVIDERS } from './contract.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** placeholder shown in help */
  arg?: string;
  help: string;
}

export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;
export type Body = Record<string, unknown>;

export interface CommandDef {
  path: string[];
  endpoint: EndpointId;
  summary: string;
  cost: string;
  options: Record<string, OptionSpec>;
  /** 'cursor': follows cursor/has_more with --all; 'targets': one request per batch of targets */
  paging: 'cursor' | 'targets';
  /** the list field split into batches of batchSize (the API's per-request maximum) */
  targetField?: string;
  batchSize?: number;
  build(v: Values, stdin: () => string): Body;
  examples: string[];
}

// ---- flag helpers ----

const str = (v: Values, k: string): string | undefined => {
  const x = v[k];
  return typeof x === 'string' ? x : undefined;
};
const strs = (v: Values, k: string): string[] => {
  const x = v[k];
  return Array.isArray(x) ? (x as string[]) : typeof x === 'string' ? [x] : [];
};
const bool = (v: Values, k: string): boolean => v[k] === true;

export function int(v: Values, k: string, min: number, max: number): number | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s.trim()) || Number(s) < min || Number(s) > max)
    throw new UsageError(`--${k} must be a whole number from ${min} to ${max} (got ${JSON.stringify(s)})`);
  return Number(s);
}

/** the contract's bounds of a numeric body field */
export function boundsOf(id: EndpointId, field: string): { min: number; max: number; default?: number } {
  const f = ENDPOINTS[id].fields[field];
  if (f?.maximum === undefined) throw new Error(`${id}: ${field} is not a bounded number`);
  return { min: f.minimum ?? 0, max: f.maximum, default: f.default as number | undefined };
}

/** the values the contract allows for a string field */
const choicesOf = (id: EndpointId, field: string): readonly string[] =>
  (ENDPOINTS[id].fields[field]?.enum ?? []) as readonly string[];

/** `today (default), week, month, all` */
const choicesHelp = (id: EndpointId, field: string): string => {
  const dflt = ENDPOINTS[id].fields[field]?.default;
  return choicesOf(id, field)
    .map((c) => (c === dflt ? `${c} (default)` : c))
    .join(', ');
};

/** a flag that sets a numeric body field, within the contract's bounds */
const fieldInt = (v: Values, flag: string, id: EndpointId, field: string): number | undefined => {
  const b = boundsOf(id, field);
  return int(v, flag, b.min, b.max);
};

/** the help of such a flag: `what, 1-100 (default 10)` */
const fieldHelp = (id: EndpointId, field: string, what: string): string => {
  const b = boundsOf(id, field);
  return `${what}, ${b.min}-${b.max}${b.default === undefined ? '' : ` (default ${b.default})`}`;
};

function oneOf<T extends string>(v: Values, k: string, allowed: readonly T[]): T | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(s))
    throw new UsageError(`--${k} must be one of ${allowed.join(', ')} (got ${JSON.stringify(s)})`);
  return s as T;
}

/** comma-separated and repeated values: --enrich sentiment,topics --enrich intent */
function commaList(v: Values, k: string): string[] {
  return strs(v, k)
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** lines of a file ('-' for standard input): trimmed, without blanks and # comments */
function fileLines(path: string, stdin: () => string, comments = true): string[] {
  let text: string;
  try {
    text = path === '-' ? stdin() : readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !(comments && l.startsWith('#')));
}

/** `{ [key]: x }`, or nothing when x is undefined */
const set = (key: string, x: unknown): Body => (x === undefined ? {} : { [key]: x });

/** A list of targets given by a repeatable flag and a file flag. */
interface TargetInput {
  flag: string;
  fileFlag: string;
  arg: string;
  help: string;
  fileHelp: string;
  /** one target, as named in the error for an empty list */
  what: string;
  /** whether # lines of the file are comments (default true) */
  comments?: boolean;
}

function targets(v: Values, stdin: () => string, t: TargetInput): string[] {
  const list = [...strs(v, t.flag)];
  const file = str(v, t.fileFlag);
  if (file !== undefined) list.push(...fileLines(file, stdin, t.comments ?? true));
  if (list.length === 0)
    throw new UsageError(`give at least one ${t.what} with --${t.flag} or --${t.fileFlag}`);
  return list;
}

const targetOptions = (t: TargetInput): Record<string, OptionSpec> => ({
  [t.flag]: { type: 'string', multiple: true, arg: t.arg, help: t.help },
  [t.fileFlag]: { type: 'string', arg: 'FILE', help: t.fileHelp },
});

function enrichBody(v: Values, required = false): Body {
  const enrich = commaList(v, 'enrich');
  for (const t of enrich)
    if (!(ENRICHMENT_TYPES as readonly string[]).includes(t))
      throw new UsageError(`--enrich: unknown type ${JSON.stringify(t)}; use ${ENRICHMENT_TYPES.join(', ')}`);
  if (required && enrich.length === 0)
    throw new UsageError(`--enrich is required: one or more of ${ENRICHMENT_TYPES.join(', ')}`);
  const topics = commaList(v, 'topics');
  const provider = oneOf(v, 'llm-provider', LLM_PROVIDERS);
  return {
    ...(enrich.length ? { enrich: [...new Set(enrich)] } : {}),
    ...(topics.length ? { categories: { topic: topics } } : {}),
    ...(provider ? { llm_provider: provider } : {}),
  };
}

const ENRICH_OPTIONS: Record<string, OptionSpec> = {
  enrich: {
    type: 'string',
    multiple: true,
    arg: 'TYPES',
    help: 'add enrichment: sentiment,topics,intent,keywords (comma-separated)',
  },
  topics: {
    type: 'string',
    multiple: true,
    arg: 'LABELS',
    help: 'custom topic labels for the topics enrichment (comma-separated)',
  },
  'llm-provider': { type: 'string', arg: 'NAME', help: 'model-2.0-flash (default) or model-1.5-pro' },
};

/** The CLI words of an endpoint: clipnet.bulk_posts is `clipnet bulk-posts`, ml.analyze `analyze`. */
function pathOf(id: EndpointId): string[] {
  const [group, name] = id.split('.') as [string, string];
  const words = [group, name.replace(/_/g, '-')];
  return group === 'ml' ? words.slice(1) : words;
}

type Described = Pick<CommandDef, 'endpoint' | 'summary' | 'cost' | 'examples'>;

/** what every command's table entry says about itself, with its words from the endpoint id */
const described = ({ endpoint: id, summary, cost, examples }: Described) => ({
  path: pathOf(id),
  endpoint: id,
  summary,
  cost,
  examples,
});

/**
 * A cursor-paged command: one user's posts. With --all and no --limit, pages are as large as the
 * endpoint allows, since every page pays a base charge.
 */
function postsCommand(d: Described & { idHelp: string }): CommandDef {
  const limit = boundsOf(d.endpoint, 'limit');
  return {
    ...described(d),
    options: {
      username: { type: 'string', arg: 'NAME', help: d.idHelp },
      limit: {
        type: 'string',
        arg: 'N',
        help: `${fieldHelp(d.endpoint, 'limit', 'posts per page')}; ${limit.max} with --all`,
      },
      cursor: { type: 'string', arg: 'CURSOR', help: 'start from this cursor (from an earlier page)' },
      all: { type: 'boolean', help: `follow the cursor to the last page, ${limit.max} posts a page` },
      'max-items': { type: 'string', arg: 'N', help: 'stop after N posts in all' },
      ...ENRICH_OPTIONS,
    },
    paging: 'cursor',
    build: (v) => {
      const username = str(v, 'username');
      if (!username) throw new UsageError('--username is required');
      const cursor = str(v, 'cursor');
      return {
        username,
        limit: fieldInt(v, 'limit', d.endpoint, 'limit') ?? (bool(v, 'all') ? limit.max : limit.default),
        ...(cursor ? { cursor } : {}),
        ...enrichBody(v),
      };
    },
  };
}

/**
 * A command over a list of targets, sent in batches of the most one request takes (the
 * contract's maxItems of `field`). The body is the list, then `params` (read from the flags
 * first, so that their errors come first), then the enrichment.
 */
function targetsCommand(
  d: Described & {
    input: TargetInput;
    field: string;
    options?: Record<string, OptionSpec>;
    params?: (v: Values) => Body;
    enrichRequired?: boolean;
  },
): CommandDef {
  const maxItems = ENDPOINTS[d.endpoint].fields[d.field]?.maxItems;
  if (maxItems === undefined) throw new Error(`${d.endpoint}: ${d.field} is not a bounded list`);
  return {
    ...described(d),
    options: {
      ...targetOptions(d.input),
      ...d.options,
      ...ENRICH_OPTIONS,
      ...(d.enrichRequired
        ? { enrich: { ...ENRICH_OPTIONS.enrich!, help: `${ENRICH_OPTIONS.enrich!.help} (required)` } }
        : {}),
    },
    paging: 'targets',
    targetField: d.field,
    batchSize: maxItems,
    build: (v, stdin) => {
      const params = d.params?.(v) ?? {};
      const list = targets(v, stdin, d.input);
      return { [d.field]: list, ...params, ...enrichBody(v, d.enrichRequired) };
    },
  };
}

const urlInput = (what: string): TargetInput => ({
  flag: 'url',
  fileFlag: 'urls-file',
  arg: 'URL',
  help: `a ${what} (repeatable)`,
  fileHelp: `file with one ${what} a line ('-' for stdin)`,
  what,
});

/** Comments of posts or videos given by URL. */
const commentsCommand = (d: Described & { what: string }): CommandDef =>
  targetsCommand({
    ...d,
    input: urlInput(d.what),
    field: 'post_urls',
    options: {
      'limit-per-post': {
        type: 'string',
        arg: 'N',
        help: fieldHelp(d.endpoint, 'limit_per_post', 'comments per post'),
      },
    },
    params: (v) => set('limit_per_post', fieldInt(v, 'limit-per-post', d.endpoint, 'limit_per_post')),
  });

const HASHTAGS: TargetInput = {
  flag: 'hashtag',
  fileFlag: 'hashtags-file',
  arg: 'TAG',
  help: 'a hashtag, with or without # (repeatable)',
  fileHelp: 'file with one hashtag a line',
  what: 'hashtag',
};

const CHANNELS: TargetInput = {
  flag: 'channel',
  fileFlag: 'channels-file',
  arg: 'ID',
  help: 'a channel browse id, UC… (repeatable)',
  fileHelp: 'file with one browse id a line',
  what: 'channel id',
};

/** Posts carrying hashtags, over a look-back period. */
const hashtagPostsCommand = (d: Described): CommandDef =>
  targetsCommand({
    ...d,
    input: HASHTAGS,
    field: 'hashtags',
    options: {
      days: { type: 'string', arg: 'N', help: fieldHelp(d.endpoint, 'days', 'look-back period in days') },
      'max-per-hashtag': {
        type: 'string',
        arg: 'N',
        help: fieldHelp(d.endpoint, 'max_posts_per_hashtag', 'posts per hashtag'),
      },
    },
    params: (v) => {
      const days = fieldInt(v, 'days', d.endpoint, 'days');
      const max = fieldInt(v, 'max-per-hashtag', d.endpoint, 'max_posts_per_hashtag');
      return { ...set('days', days), ...set('max_posts_per_hashtag', max) };
    },
  });

const depthOption = (id: EndpointId): OptionSpec => ({
  type: 'string',
  arg: 'N',
  help: `${fieldHelp(id, 'depth', 'result pages per target')}; about 20 videos a page`,
});

/** --depth and an --all that means the deepest depth */
const deepOptions = (id: EndpointId): Record<string, OptionSpec> => ({
  depth: depthOption(id),
  all: { type: 'boolean', help: `read as deep as the API goes (--depth ${boundsOf(id, 'depth').max})` },
});
/** --depth, or with --all the deepest the endpoint allows */
const depthOf = (v: Values, id: EndpointId): number | undefined =>
  fieldInt(v, 'depth', id, 'depth') ?? (bool(v, 'all') ? boundsOf(id, 'depth').max : undefined);

export const COMMANDS: readonly CommandDef[] = [
  postsCommand({
    endpoint: 'clipnet.posts',
    summary: 'posts of a clipnet user, newest first',
    cost: '1 + 1 per post (+ enrichment) per page',
    idHelp: 'the username, without @ (required)',
    examples: [
      'gleaner clipnet posts --username rafatech',
      'gleaner clipnet posts --username rafatech --limit 50 --all --enrich sentiment,topics --format csv --out posts.csv',
      'gleaner clipnet posts --username rafatech --all --max-credits 200 --format jsonl > posts.jsonl',
    ],
  }),
  commentsCommand({
    endpoint: 'clipnet.comments',
    summary: 'comments of clipnet posts',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 posts',
    what: 'post URL',
    examples: [
      'gleaner clipnet comments --url https://www.clipnet.com/@rafatech/video/7501921969951202327',
      'gleaner clipnet comments --urls-file posts.txt --limit-per-post 100 --enrich sentiment --format csv --out comments.csv',
    ],
  }),
  targetsCommand({
    endpoint: 'clipnet.bulk_posts',
    summary: 'posts of several clipnet users (each row carries its username)',
    cost: '2 + 1 per post (+ enrichment) per 100 users',
    input: {
      flag: 'username',
      fileFlag: 'usernames-file',
      arg: 'NAME',
      help: 'a username (repeatable)',
      fileHelp: 'file with one username a line',
      what: 'username',
    },
    field: 'usernames',
    options: {
      'limit-per-user': {
        type: 'string',
        arg: 'N',
        help: fieldHelp('clipnet.bulk_posts', 'limit_per_user', 'posts per user'),
      },
    },
    params: (v) =>
      set('limit_per_user', fieldInt(v, 'limit-per-user', 'clipnet.bulk_posts', 'limit_per_user')),
    examples: [
      'gleaner clipnet bulk-posts --username rafatech --username zanedrums --limit-per-user 5',
      'gleaner clipnet bulk-posts --usernames-file creators.txt --format csv --out posts.csv',
    ],
  }),
  hashtagPostsCommand({
    endpoint: 'clipnet.hashtag_posts',
    summary: 'clipnet posts carrying hashtags',
    cost: '2 + 1 per post (+ enrichment) per 10 hashtags',
    examples: [
      'gleaner clipnet hashtag-posts --hashtag fitness --days 7 --max-per-hashtag 50',
      'gleaner clipnet hashtag-posts --hashtag fyp --hashtag viral --enrich sentiment,topics --format csv',
    ],
  }),
  postsCommand({
    endpoint: 'picnet.posts',
    summary: 'posts of a picnet user, newest first',
    cost: '1 + 1 per post (+ enrichment) per page',
    idHelp: 'the username or numeric user id (required)',
    examples: [
      'gleaner picnet posts --username critterswithliam --limit 25 --all --format jsonl --out posts.jsonl',
      'gleaner picnet posts --username 69365011 --enrich intent',
    ],
  }),
  commentsCommand({
    endpoint: 'picnet.comments',
    summary: 'comments of picnet posts (URLs, URLs without scheme, or shortcodes)',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 posts',
    what: 'post URL or shortcode',
    examples: [
      'gleaner picnet comments --url https://www.picnet.com/p/CxD9PthspC3/ --url D0YhD-vOg2k',
      'gleaner picnet comments --urls-file posts.txt --enrich sentiment,intent --format csv --out comments.csv',
    ],
  }),
  hashtagPostsCommand({
    endpoint: 'picnet.hashtag_posts',
    summary: 'picnet posts carrying hashtags',
    cost: '2 + 1 per post (+ enrichment) per 10 hashtags',
    examples: ['gleaner picnet hashtag-posts --hashtag ootd --days 3 --max-per-hashtag 20 --format csv'],
  }),
  targetsCommand({
    endpoint: 'vidnet.search',
    summary: 'vidnet videos by keyword',
    cost: '2 + 1 per video (+ enrichment) per 10 keywords',
    input: {
      flag: 'keyword',
      fileFlag: 'keywords-file',
      arg: 'TEXT',
      help: 'a search keyword (repeatable)',
      fileHelp: 'file with one keyword a line',
      what: 'keyword',
    },
    field: 'keywords',
    options: {
      'max-per-keyword': {
        type: 'string',
        arg: 'N',
        help: fieldHelp('vidnet.search', 'max_posts_per_keyword', 'videos per keyword'),
      },
      depth: depthOption('vidnet.search'),
      all: {
        type: 'boolean',
        help: `read as deep as the API goes: --depth ${boundsOf('vidnet.search', 'depth').max} --max-per-keyword ${boundsOf('vidnet.search', 'max_posts_per_keyword').max}`,
      },
      period: { type: 'string', arg: 'P', help: choicesHelp('vidnet.search', 'period') },
      sorting: { type: 'string', arg: 'S', help: choicesHelp('vidnet.search', 'sorting') },
    },
    params: (v) => {
      const max =
        fieldInt(v, 'max-per-keyword', 'vidnet.search', 'max_posts_per_keyword') ??
        (bool(v, 'all') ? boundsOf('vidnet.search', 'max_posts_per_keyword').max : undefined);
      const depth = depthOf(v, 'vidnet.search');
      const period = oneOf(v, 'period', choicesOf('vidnet.search', 'period'));
      const sorting = oneOf(v, 'sorting', choicesOf('vidnet.search', 'sorting'));
      return {
        ...set('max_posts_per_keyword', max),
        ...set('depth', depth),
        ...set('period', period),
        ...set('sorting', sorting),
      };
    },
    examples: [
      'gleaner vidnet search --keyword "budget travel" --period week --sorting viewCount',
      'gleaner vidnet search --keyword speedrun --keyword "gaming setup" --max-per-keyword 200 --depth 10 --enrich topics --format csv --out videos.csv',
    ],
  }),
  targetsCommand({
    endpoint: 'vidnet.hashtag_search',
    summary: 'vidnet videos by hashtag',
    cost: '2 + 1 per video (+ enrichment) per 10 hashtags',
    input: HASHTAGS,
    field: 'hashtags',
    options: {
      ...deepOptions('vidnet.hashtag_search'),
      'only-shorts': { type: 'boolean', help: 'only Shorts' },
    },
    params: (v) => ({
      ...set('depth', depthOf(v, 'vidnet.hashtag_search')),
      ...set('only_shorts', bool(v, 'only-shorts') || undefined),
    }),
    examples: ['gleaner vidnet hashtag-search --hashtag gaming --depth 2 --only-shorts --format jsonl'],
  }),
  commentsCommand({
    endpoint: 'vidnet.comments',
    summary: 'comments of vidnet videos (watch URLs, short links, /shorts/ URLs or ids)',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 videos',
    what: 'video URL or id',
    examples: [
      'gleaner vidnet comments --url https://www.vidnet.com/shorts/mBPIf85s2S0 --url 5O6KwFczlHE --limit-per-post 100',
      'gleaner vidnet comments --urls-file videos.txt --enrich sentiment --format csv --out comments.csv',
    ],
  }),
  targetsCommand({
    endpoint: 'vidnet.channel_videos',
    summary: 'videos of vidnet channels',
    cost: '2 + 1 per video (+ enrichment) per 10 channels',
    input: CHANNELS,
    field: 'browse_ids',
    options: deepOptions('vidnet.channel_videos'),
    params: (v) => set('depth', depthOf(v, 'vidnet.channel_videos')),
    examples: ['gleaner vidnet channel-videos --channel UCFTj_UgjSmO3GpS1X1fSzqw --depth 1 --format csv'],
  }),
  targetsCommand({
    endpoint: 'vidnet.channel_shorts',
    summary: 'Shorts of vidnet channels',
    cost: '2 + 1 per Short (+ enrichment) per 10 channels',
    input: CHANNELS,
    field: 'browse_ids',
    examples: ['gleaner vidnet channel-shorts --channel UCFTj_UgjSmO3GpS1X1fSzqw --enrich sentiment'],
  }),
  postsCommand({
    endpoint: 'blipnet.posts',
    summary: 'posts, replies and reposts of a blipnet user, newest first',
    cost: '1 + 1 per post (+ enrichment) per page',
    idHelp: 'the handle (a leading @ is stripped) or account id, did:… (required)',
    examples: [
      'gleaner blipnet posts --username marareads.blipnet.social --limit 20',
      'gleaner blipnet posts --username nico.dev --all --max-credits 100 --format csv --out posts.csv',
    ],
  }),
  commentsCommand({
    endpoint: 'blipnet.comments',
    summary: 'replies to blipnet posts, threads flattened (each reply names its parent_id and depth)',
    cost: '1 + 0.5 per reply (+ enrichment) per 100 posts',
    what: 'post URL (…/profile/<handle>/post/<key>) or at:// URI',
    examples: [
      'gleaner blipnet comments --url https://blipnet.app/profile/marareads.blipnet.social/post/3l754t3z5mssm',
      'gleaner blipnet comments --urls-file posts.txt --limit-per-post 200 --enrich sentiment --format csv',
    ],
  }),
  targetsCommand({
    endpoint: 'blipnet.search',
    summary: 'blipnet posts by keyword, newest or most engaging first',
    cost: '2 + 1 per post (+ enrichment) per 10 keywords',
    input: {
      flag: 'keyword',
      fileFlag: 'keywords-file',
      arg: 'TEXT',
      help: 'a search keyword (repeatable)',
      fileHelp: 'file with one keyword a line',
      what: 'keyword',
    },
    field: 'keywords',
    options: {
      'max-per-keyword': {
        type: 'string',
        arg: 'N',
        help: fieldHelp('blipnet.search', 'max_posts_per_keyword', 'posts per keyword'),
      },
      depth: {
        type: 'string',
        arg: 'N',
        help: `${fieldHelp('blipnet.search', 'depth', 'result pages per keyword')}; 25 posts a page`,
      },
      period: { type: 'string', arg: 'P', help: choicesHelp('blipnet.search', 'period') },
      sorting: { type: 'string', arg: 'S', help: choicesHelp('blipnet.search', 'sorting') },
      cursor: {
        type: 'string',
        arg: 'CURSOR',
        help: 'continue the search of a single keyword from this cursor (from an earlier answer)',
      },
    },
    params: (v) => ({
      ...set(
        'max_posts_per_keyword',
        fieldInt(v, 'max-per-keyword', 'blipnet.search', 'max_posts_per_keyword'),
      ),
      ...set('depth', fieldInt(v, 'depth', 'blipnet.search', 'depth')),
      ...set('period', oneOf(v, 'period', choicesOf('blipnet.search', 'period'))),
      ...set('sorting', oneOf(v, 'sorting', choicesOf('blipnet.search', 'sorting'))),
      ...set('cursor', str(v, 'cursor')),
    }),
    examples: [
      'gleaner blipnet search --keyword coffee --period week --sorting top --max-per-keyword 50',
      'gleaner blipnet search --keyword "open source" --keyword books --period month --enrich sentiment,topics --format csv --out posts.csv',
    ],
  }),
  hashtagPostsCommand({
    endpoint: 'blipnet.hashtag_posts',
    summary: 'blipnet posts carrying hashtags',
    cost: '2 + 1 per post (+ enrichment) per 10 hashtags',
    examples: [
      'gleaner blipnet hashtag-posts --hashtag coffee --hashtag books --days 3 --max-per-hashtag 20',
    ],
  }),
  targetsCommand({
    endpoint: 'ml.analyze',
    summary: 'run enrichment on your own texts',
    cost: 'per text: sentiment 0.5, topics 1, intent 1, keywords 0.5 (the same with model-1.5-pro)',
    input: {
      flag: 'text',
      fileFlag: 'file',
      arg: 'TEXT',
      help: 'a text to analyze (repeatable)',
      fileHelp: "file with one text a line ('-' for stdin)",
      what: 'text',
      comments: false,
    },
    field: 'texts',
    enrichRequired: true,
    examples: [
      'gleaner analyze --text "I love this phone, but the battery is awful" --enrich sentiment,intent',
      'gleaner analyze --file reviews.txt --enrich sentiment,topics,keywords --topics battery,screen,price --format csv --out analysis.csv',
    ],
  }),
];

/** Options every subcommand takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  format: { type: 'string', arg: 'F', help: 'json (default), jsonl or csv; also inferred from --out' },
  out: { type: 'string', arg: 'FILE', help: 'write to FILE instead of stdout' },
  'max-credits': {
    type: 'string',
    arg: 'N',
    help: 'never spend more than N credits: lowers page sizes to fit, stops before a request that could exceed',
  },
  'dry-run': { type: 'boolean', help: 'print the first request and its worst-case cost; send nothing' },
  'base-url': {
    type: 'string',
    arg: 'URL',
    help: 'server (default $GLEANER_BASE_URL, config, http://127.0.0.1:8080)',
  },
  config: { type: 'string', arg: 'FILE', help: 'config file (default ~/.config/gleaner/config.json)' },
  retries: { type: 'string', arg: 'N', help: 'retries on 429/502/503 and network errors (default 3)' },
  timeout: { type: 'string', arg: 'SECONDS', help: 'per-request timeout (default 120)' },
  quiet: { type: 'boolean', short: 'q', help: 'no progress, notices or summary on stderr' },
  verbose: { type: 'boolean', short: 'v', help: 'one line per request on stderr (never the key)' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

export function findCommand(words: string[]): CommandDef | undefined {
  return COMMANDS.find((c) => c.path.length <= words.length && c.path.every((p, i) => words[i] === p));
}
