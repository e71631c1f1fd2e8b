// Every subcommand of `gleaner`: its endpoint, flags that mirror the endpoint's parameters, how
// the flags become a request body, and its help with examples.
import { readFileSync } from 'node:fs';
import type { EndpointId } from '../../../src/contract/endpoints.js';
import { UsageError } from './config.js';

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

function targets(v: Values, stdin: () => string, flag: string, fileFlag: string, what: string): string[] {
  const list = [...strs(v, flag)];
  const file = str(v, fileFlag);
  if (file !== undefined) list.push(...fileLines(file, stdin));
  if (list.length === 0) throw new UsageError(`give at least one ${what} with --${flag} or --${fileFlag}`);
  return list;
}

const ENRICH_TYPES = ['sentiment', 'topics', 'intent', 'keywords'] as const;
const PROVIDERS = ['model-2.0-flash', 'model-1.5-pro'] as const;

function enrichBody(v: Values, required = false): Body {
  const enrich = commaList(v, 'enrich');
  for (const t of enrich)
    if (!(ENRICH_TYPES as readonly string[]).includes(t))
      throw new UsageError(`--enrich: unknown type ${JSON.stringify(t)}; use ${ENRICH_TYPES.join(', ')}`);
  if (required && enrich.length === 0)
    throw new UsageError(`--enrich is required: one or more of ${ENRICH_TYPES.join(', ')}`);
  const topics = commaList(v, 'topics');
  const provider = oneOf(v, 'llm-provider', PROVIDERS);
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

const urlOptions = (what: string): Record<string, OptionSpec> => ({
  url: { type: 'string', multiple: true, arg: 'URL', help: `a ${what} (repeatable)` },
  'urls-file': { type: 'string', arg: 'FILE', help: `file with one ${what} a line ('-' for stdin)` },
  'limit-per-post': { type: 'string', arg: 'N', help: 'comments per post, 1-500 (default 50)' },
});

function commentsBody(v: Values, stdin: () => string, what: string): Body {
  const limit = int(v, 'limit-per-post', 1, 500);
  return {
    post_urls: targets(v, stdin, 'url', 'urls-file', what),
    ...(limit !== undefined ? { limit_per_post: limit } : {}),
    ...enrichBody(v),
  };
}

const hashtagOptions: Record<string, OptionSpec> = {
  hashtag: { type: 'string', multiple: true, arg: 'TAG', help: 'a hashtag, with or without # (repeatable)' },
  'hashtags-file': { type: 'string', arg: 'FILE', help: 'file with one hashtag a line' },
  days: { type: 'string', arg: 'N', help: 'look-back period in days, 1-30 (default 7)' },
  'max-per-hashtag': { type: 'string', arg: 'N', help: 'posts per hashtag, 1-500 (default 100)' },
};

function hashtagPostsBody(v: Values, stdin: () => string): Body {
  const days = int(v, 'days', 1, 30);
  const max = int(v, 'max-per-hashtag', 1, 500);
  return {
    hashtags: targets(v, stdin, 'hashtag', 'hashtags-file', 'hashtag'),
    ...(days !== undefined ? { days } : {}),
    ...(max !== undefined ? { max_posts_per_hashtag: max } : {}),
    ...enrichBody(v),
  };
}

const postsOptions = (idHelp: string): Record<string, OptionSpec> => ({
  username: { type: 'string', arg: 'NAME', help: idHelp },
  limit: { type: 'string', arg: 'N', help: 'posts per page, 1-100 (default 10)' },
  cursor: { type: 'string', arg: 'CURSOR', help: 'start from this cursor (from an earlier page)' },
  all: { type: 'boolean', help: 'follow the cursor to the last page' },
  'max-items': { type: 'string', arg: 'N', help: 'stop after N posts in all' },
});

function postsBody(v: Values): Body {
  const username = str(v, 'username');
  if (!username) throw new UsageError('--username is required');
  const limit = int(v, 'limit', 1, 100);
  const cursor = str(v, 'cursor');
  return {
    username,
    limit: limit ?? 10,
    ...(cursor ? { cursor } : {}),
    ...enrichBody(v),
  };
}

const depthOption = (dflt: number): OptionSpec => ({
  type: 'string',
  arg: 'N',
  help: `result pages per target, 1-50, about 20 videos each (default ${dflt})`,
});

const channelOptions: Record<string, OptionSpec> = {
  channel: { type: 'string', multiple: true, arg: 'ID', help: 'a channel browse id, UC… (repeatable)' },
  'channels-file': { type: 'string', arg: 'FILE', help: 'file with one browse id a line' },
};

export const COMMANDS: readonly CommandDef[] = [
  {
    path: ['clipnet', 'posts'],
    endpoint: 'clipnet.posts',
    summary: 'posts of a clipnet user, newest first',
    cost: '1 + 1 per post (+ enrichment) per page',
    options: { ...postsOptions('the username, without @ (required)'), ...ENRICH_OPTIONS },
    paging: 'cursor',
    build: (v) => postsBody(v),
    examples: [
      'gleaner clipnet posts --username rafatech',
      'gleaner clipnet posts --username rafatech --limit 50 --all --enrich sentiment,topics --format csv --out posts.csv',
      'gleaner clipnet posts --username rafatech --all --max-credits 200 --format jsonl > posts.jsonl',
    ],
  },
  {
    path: ['clipnet', 'comments'],
    endpoint: 'clipnet.comments',
    summary: 'comments of clipnet posts',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 posts',
    options: { ...urlOptions('post URL'), ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'post_urls',
    batchSize: 100,
    build: (v, stdin) => commentsBody(v, stdin, 'post URL'),
    examples: [
      'gleaner clipnet comments --url https://www.clipnet.com/@rafatech/video/7501921969951202327',
      'gleaner clipnet comments --urls-file posts.txt --limit-per-post 100 --enrich sentiment --format csv --out comments.csv',
    ],
  },
  {
    path: ['clipnet', 'bulk-posts'],
    endpoint: 'clipnet.bulk_posts',
    summary: 'posts of several clipnet users (each row carries its username)',
    cost: '2 + 1 per post (+ enrichment) per 100 users',
    options: {
      username: { type: 'string', multiple: true, arg: 'NAME', help: 'a username (repeatable)' },
      'usernames-file': { type: 'string', arg: 'FILE', help: 'file with one username a line' },
      'limit-per-user': { type: 'string', arg: 'N', help: 'posts per user, 1-100 (default 10)' },
      ...ENRICH_OPTIONS,
    },
    paging: 'targets',
    targetField: 'usernames',
    batchSize: 100,
    build: (v, stdin) => {
      const limit = int(v, 'limit-per-user', 1, 100);
      return {
        usernames: targets(v, stdin, 'username', 'usernames-file', 'username'),
        ...(limit !== undefined ? { limit_per_user: limit } : {}),
        ...enrichBody(v),
      };
    },
    examples: [
      'gleaner clipnet bulk-posts --username rafatech --username zanedrums --limit-per-user 5',
      'gleaner clipnet bulk-posts --usernames-file creators.txt --format csv --out posts.csv',
    ],
  },
  {
    path: ['clipnet', 'hashtag-posts'],
    endpoint: 'clipnet.hashtag_posts',
    summary: 'clipnet posts carrying hashtags',
    cost: '2 + 1 per post (+ enrichment) per 10 hashtags',
    options: { ...hashtagOptions, ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'hashtags',
    batchSize: 10,
    build: hashtagPostsBody,
    examples: [
      'gleaner clipnet hashtag-posts --hashtag fitness --days 7 --max-per-hashtag 50',
      'gleaner clipnet hashtag-posts --hashtag fyp --hashtag viral --enrich sentiment,topics --format csv',
    ],
  },
  {
    path: ['picnet', 'posts'],
    endpoint: 'picnet.posts',
    summary: 'posts of a picnet user, newest first',
    cost: '1 + 1 per post (+ enrichment) per page',
    options: { ...postsOptions('the username or numeric user id (required)'), ...ENRICH_OPTIONS },
    paging: 'cursor',
    build: (v) => postsBody(v),
    examples: [
      'gleaner picnet posts --username critterswithliam --limit 25 --all --format jsonl --out posts.jsonl',
      'gleaner picnet posts --username 69365011 --enrich intent',
    ],
  },
  {
    path: ['picnet', 'comments'],
    endpoint: 'picnet.comments',
    summary: 'comments of picnet posts (URLs, URLs without scheme, or shortcodes)',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 posts',
    options: { ...urlOptions('post URL or shortcode'), ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'post_urls',
    batchSize: 100,
    build: (v, stdin) => commentsBody(v, stdin, 'post URL or shortcode'),
    examples: [
      'gleaner picnet comments --url https://www.picnet.com/p/CxD9PthspC3/ --url D0YhD-vOg2k',
      'gleaner picnet comments --urls-file posts.txt --enrich sentiment,intent --format csv --out comments.csv',
    ],
  },
  {
    path: ['picnet', 'hashtag-posts'],
    endpoint: 'picnet.hashtag_posts',
    summary: 'picnet posts carrying hashtags',
    cost: '2 + 1 per post (+ enrichment) per 10 hashtags',
    options: { ...hashtagOptions, ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'hashtags',
    batchSize: 10,
    build: hashtagPostsBody,
    examples: ['gleaner picnet hashtag-posts --hashtag ootd --days 3 --max-per-hashtag 20 --format csv'],
  },
  {
    path: ['vidnet', 'search'],
    endpoint: 'vidnet.search',
    summary: 'vidnet videos by keyword',
    cost: '2 + 1 per video (+ enrichment) per 10 keywords',
    options: {
      keyword: { type: 'string', multiple: true, arg: 'TEXT', help: 'a search keyword (repeatable)' },
      'keywords-file': { type: 'string', arg: 'FILE', help: 'file with one keyword a line' },
      'max-per-keyword': { type: 'string', arg: 'N', help: 'videos per keyword, 1-500 (default 100)' },
      depth: depthOption(30),
      all: { type: 'boolean', help: 'read as deep as the API goes: --depth 50 --max-per-keyword 500' },
      period: { type: 'string', arg: 'P', help: 'today (default), week, month, all' },
      sorting: { type: 'string', arg: 'S', help: 'relevance (default), date, viewCount, rating' },
      ...ENRICH_OPTIONS,
    },
    paging: 'targets',
    targetField: 'keywords',
    batchSize: 10,
    build: (v, stdin) => {
      const all = bool(v, 'all');
      const max = int(v, 'max-per-keyword', 1, 500) ?? (all ? 500 : undefined);
      const depth = int(v, 'depth', 1, 50) ?? (all ? 50 : undefined);
      const period = oneOf(v, 'period', ['today', 'week', 'month', 'all'] as const);
      const sorting = oneOf(v, 'sorting', ['relevance', 'date', 'viewCount', 'rating'] as const);
      return {
        keywords: targets(v, stdin, 'keyword', 'keywords-file', 'keyword'),
        ...(max !== undefined ? { max_posts_per_keyword: max } : {}),
        ...(depth !== undefined ? { depth } : {}),
        ...(period ? { period } : {}),
        ...(sorting ? { sorting } : {}),
        ...enrichBody(v),
      };
    },
    examples: [
      'gleaner vidnet search --keyword "budget travel" --period week --sorting viewCount',
      'gleaner vidnet search --keyword speedrun --keyword "gaming setup" --max-per-keyword 200 --depth 10 --enrich topics --format csv --out videos.csv',
    ],
  },
  {
    path: ['vidnet', 'hashtag-search'],
    endpoint: 'vidnet.hashtag_search',
    summary: 'vidnet videos by hashtag',
    cost: '2 + 1 per video (+ enrichment) per 10 hashtags',
    options: {
      hashtag: hashtagOptions.hashtag!,
      'hashtags-file': hashtagOptions['hashtags-file']!,
      depth: depthOption(1),
      all: { type: 'boolean', help: 'read as deep as the API goes (--depth 50)' },
      'only-shorts': { type: 'boolean', help: 'only Shorts' },
      ...ENRICH_OPTIONS,
    },
    paging: 'targets',
    targetField: 'hashtags',
    batchSize: 10,
    build: (v, stdin) => {
      const depth = int(v, 'depth', 1, 50) ?? (bool(v, 'all') ? 50 : undefined);
      return {
        hashtags: targets(v, stdin, 'hashtag', 'hashtags-file', 'hashtag'),
        ...(depth !== undefined ? { depth } : {}),
        ...(bool(v, 'only-shorts') ? { only_shorts: true } : {}),
        ...enrichBody(v),
      };
    },
    examples: ['gleaner vidnet hashtag-search --hashtag gaming --depth 2 --only-shorts --format jsonl'],
  },
  {
    path: ['vidnet', 'comments'],
    endpoint: 'vidnet.comments',
    summary: 'comments of vidnet videos (watch URLs, short links, /shorts/ URLs or ids)',
    cost: '1 + 0.5 per comment (+ enrichment) per 100 videos',
    options: { ...urlOptions('video URL or id'), ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'post_urls',
    batchSize: 100,
    build: (v, stdin) => commentsBody(v, stdin, 'video URL or id'),
    examples: [
      'gleaner vidnet comments --url https://www.vidnet.com/shorts/mBPIf85s2S0 --url 5O6KwFczlHE --limit-per-post 100',
      'gleaner vidnet comments --urls-file videos.txt --enrich sentiment --format csv --out comments.csv',
    ],
  },
  {
    path: ['vidnet', 'channel-videos'],
    endpoint: 'vidnet.channel_videos',
    summary: 'videos of vidnet channels',
    cost: '2 + 1 per video (+ enrichment) per 10 channels',
    options: {
      ...channelOptions,
      depth: depthOption(10),
      all: { type: 'boolean', help: 'read as deep as the API goes (--depth 50)' },
      ...ENRICH_OPTIONS,
    },
    paging: 'targets',
    targetField: 'browse_ids',
    batchSize: 10,
    build: (v, stdin) => {
      const depth = int(v, 'depth', 1, 50) ?? (bool(v, 'all') ? 50 : undefined);
      return {
        browse_ids: targets(v, stdin, 'channel', 'channels-file', 'channel id'),
        ...(depth !== undefined ? { depth } : {}),
        ...enrichBody(v),
      };
    },
    examples: ['gleaner vidnet channel-videos --channel UCFTj_UgjSmO3GpS1X1fSzqw --depth 1 --format csv'],
  },
  {
    path: ['vidnet', 'channel-shorts'],
    endpoint: 'vidnet.channel_shorts',
    summary: 'Shorts of vidnet channels',
    cost: '2 + 1 per Short (+ enrichment) per 10 channels',
    options: { ...channelOptions, ...ENRICH_OPTIONS },
    paging: 'targets',
    targetField: 'browse_ids',
    batchSize: 10,
    build: (v, stdin) => ({
      browse_ids: targets(v, stdin, 'channel', 'channels-file', 'channel id'),
      ...enrichBody(v),
    }),
    examples: ['gleaner vidnet channel-shorts --channel UCFTj_UgjSmO3GpS1X1fSzqw --enrich sentiment'],
  },
  {
    path: ['analyze'],
    endpoint: 'ml.analyze',
    summary: 'run enrichment on your own texts',
    cost: 'per text: sentiment 0.5, topics 1, intent 1, keywords 0.5 (doubled with model-1.5-pro)',
    options: {
      text: { type: 'string', multiple: true, arg: 'TEXT', help: 'a text to analyze (repeatable)' },
      file: { type: 'string', arg: 'FILE', help: "file with one text a line ('-' for stdin)" },
      ...ENRICH_OPTIONS,
      enrich: { ...ENRICH_OPTIONS.enrich!, help: `${ENRICH_OPTIONS.enrich!.help} (required)` },
    },
    paging: 'targets',
    targetField: 'texts',
    batchSize: 100,
    build: (v, stdin) => {
      const texts = [...strs(v, 'text')];
      const file = str(v, 'file');
      if (file !== undefined) texts.push(...fileLines(file, stdin, false));
      if (texts.length === 0) throw new UsageError('give at least one text with --text or --file');
      return { texts, ...enrichBody(v, true) };
    },
    examples: [
      'gleaner analyze --text "I love this phone, but the battery is awful" --enrich sentiment,intent',
      'gleaner analyze --file reviews.txt --enrich sentiment,topics,keywords --topics battery,screen,price --format csv --out analysis.csv',
    ],
  },
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
