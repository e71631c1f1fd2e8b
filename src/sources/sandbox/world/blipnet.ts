// blipnet, the microblogging platform of the generated world: accounts with handles that are
// domain names and ids that are DIDs, short posts in several languages with links, mentions,
// hashtags, images and quotes, reply threads several levels deep (authors continue their own
// threads, "1/3"), and reposts. Drawn from its own seeded stream, so that adding blipnet left
// the other platforms' content as it was.
//
// Times are offsets in seconds from the start of "today" (UTC), as in generate.ts. Like there,
// a second pass fills what featured.ts promises: a post for each of BLIPNET_TODAY_HASHTAGS at
// 00:00:00, in every three hours of today and on each of the six days before it.
import { BLIPNET_PINNED_ACCOUNTS, BLIPNET_TODAY_HASHTAGS, TODAY_BLOCK_HOURS } from './featured.js';
import { NICHES, type Niche } from './niches.js';
import { Rng } from './rng.js';
import { FIRST_NAMES, LAST_NAMES, SHARED_SLOTS } from './templates.js';
import { commentText, type FillContext, fill, hashtagsOf } from './text.js';

const DAY = 86_400;
const HOUR = 3_600;
const WORLD_DAYS = 90;
const DAILY_SPAN = 6;

export const BLIPNET_SIZES = { accounts: 260 };

export interface BlipAccountRow {
  pk: number;
  did: string;
  handle: string;
  displayName: string | null;
  niche: string;
  followers: number;
}

export interface BlipPostRow {
  pk: number;
  rkey: string;
  accountPk: number;
  ts: number;
  text: string;
  /** the first declared language, or null when the author declared none */
  lang: string | null;
  /** the thread's first post (null for a top-level post) */
  rootPk: number | null;
  parentPk: number | null;
  /** 0 for a top-level post, 1 for a direct reply, … */
  depth: number;
  quotePk: number | null;
  /** JSON arrays */
  links: string;
  media: string;
  /** JSON array of [account id, handle as written] */
  mentions: string;
  replies: number;
  reposts: number;
  likes: number;
  quotes: number;
}

export interface BlipRepostRow {
  accountPk: number;
  rkey: string;
  ts: number;
  postPk: number;
}

export interface BlipnetSink {
  account(a: BlipAccountRow): void;
  post(p: BlipPostRow, tags: string[]): void;
  repost(r: BlipRepostRow): void;
}

export interface BlipnetCounts {
  blipnetAccounts: number;
  blipnetPosts: number;
  blipnetReplies: number;
  blipnetReposts: number;
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** the sortable base32 of record keys (TIDs) */
const S32 = '234567abcdefghijklmnopqrstuvwxyz';

/** a record key in the TID form the platform uses: 13 sortable base32 characters for the time
 *  in microseconds and a clock id, so that keys sort by time as the real ones do */
function tid(ts: number, rng: Rng): string {
  // the world's offsets are anchored at an arbitrary but fixed day: keys stay the same every day
  let micros = BigInt(1_735_689_600 + ts) * 1_000_000n + BigInt(rng.int(0, 999_999));
  let out = '';
  for (let i = 0; i < 11; i++) {
    out = S32[Number(micros & 31n)] + out;
    micros >>= 5n;
  }
  return `3${out.slice(1)}${S32[rng.int(0, 31)]}${S32[rng.int(0, 31)]}`;
}

const HOUR_WEIGHTS: ReadonlyArray<readonly [number, number]> = Array.from({ length: 24 }, (_, h) => [
  h,
  [4, 3, 2, 2, 1, 1, 1, 2, 3, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 5, 5, 5, 5, 4][h] as number,
]);

function postTime(rng: Rng, day: number): number {
  return -day * DAY + rng.weighted(HOUR_WEIGHTS) * HOUR + rng.int(0, HOUR - 1);
}

function ageFactor(ts: number): number {
  const ageDays = Math.max(0, -ts / DAY) + 0.25;
  return ageDays >= 2 ? 1 : Math.max(0.2, Math.sqrt(ageDays / 2));
}

/** languages declared by authors: mostly English, some others, some none at all */
const LANGS: ReadonlyArray<readonly [string | null, number]> = [
  ['en', 78],
  [null, 7],
  ['es', 4],
  ['de', 3],
  ['pt', 3],
  ['ja', 3],
  ['fr', 2],
];

/** posts written in the other languages: a short line and the niche's hashtag */
const FOREIGN: Record<string, readonly string[]> = {
  es: [
    'hoy toca {topic}, ¿alguien más?',
    'no puedo creer lo bien que salió {thing}',
    'pregunta seria: ¿qué opinan de {topic}?',
  ],
  de: [
    'heute wieder {topic}, wer noch?',
    'ehrlich gesagt war {thing} besser als gedacht',
    'kurze Frage: Erfahrungen mit {topic}?',
  ],
  pt: [
    'hoje foi dia de {topic}, alguém mais?',
    'sinceramente {thing} superou as expectativas',
    'dúvida: o que vocês acham de {topic}?',
  ],
  ja: ['今日は{topic}の日でした', '{topic}について質問です、おすすめありますか？', '正直{topic}は最高だった'],
  fr: [
    "aujourd'hui c'était {topic}, qui d'autre ?",
    'honnêtement {thing} était mieux que prévu',
    'petite question : vos avis sur {topic} ?',
  ],
};

/** how a microblog post opens or is framed, beyond the niche's own captions */
const OPENERS = [
  'hot take: ',
  'unpopular opinion: ',
  'ok so ',
  'PSA: ',
  'thread 🧵 ',
  'small win today: ',
  'genuine question: ',
  '',
  '',
  '',
  '',
];

const LINK_SITES = [
  'https://example.com/blog/',
  'https://notes.example.org/',
  'https://www.example.net/articles/',
  'https://medium.example.com/@writer/',
];

const QUOTE_LINES = [
  'this, exactly',
  'strong disagree',
  'adding to this:',
  'everyone should read this',
  'lol yes',
  'ok but',
];

const THREAD_CONTINUATIONS = [
  'the short version: {thing} is worth it, but only if you stick with it',
  'what surprised me most was {topic}',
  'and yes, I tried {doing} first. it did not go well',
  'anyway that is the thread. questions welcome',
  'edit: a few people asked about {topic}, more on that tomorrow',
];

interface Creator {
  account: BlipAccountRow;
  niche: Niche;
}

interface Draft extends Omit<BlipPostRow, 'replies' | 'reposts' | 'quotes'> {
  tags: string[];
}

function slug(rng: Rng): string {
  return `${rng.pick(['how-i', 'notes-on', 'why', 'the-case-for', 'a-guide-to', 'what-i-learned'])}-${rng.chars('abcdefghijklmnopqrstuvwxyz', rng.int(4, 9))}`;
}

/** handles are domain names: lower-case labels of letters, digits and hyphens */
function handleLabel(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

export function generateBlipnet(sink: BlipnetSink): BlipnetCounts {
  const rng = new Rng('world:blipnet');
  const counts: BlipnetCounts = { blipnetAccounts: 0, blipnetPosts: 0, blipnetReplies: 0, blipnetReposts: 0 };
  const dids = new Set<string>();
  const handles = new Set<string>(BLIPNET_PINNED_ACCOUNTS.map((a) => a.handle));
  for (const p of BLIPNET_PINNED_ACCOUNTS) dids.add(p.did);

  // ---- accounts ----
  const creators: Creator[] = [];
  const pinnedByIndex = new Map<number, (typeof BLIPNET_PINNED_ACCOUNTS)[number]>();
  for (const p of BLIPNET_PINNED_ACCOUNTS) {
    let i = 0;
    while (pinnedByIndex.has(i) || (NICHES[i % NICHES.length] as Niche).key !== p.niche) i++;
    pinnedByIndex.set(i, p);
  }
  for (let i = 0; i < BLIPNET_SIZES.accounts; i++) {
    const niche = NICHES[i % NICHES.length] as Niche;
    const arng = rng.fork(`account:${i}`);
    const first = arng.pick(FIRST_NAMES);
    const last = arng.pick(LAST_NAMES);
    const pin = pinnedByIndex.get(i);
    let did = pin?.did ?? '';
    while (!did || (!pin && dids.has(did))) did = `did:plc:${arng.chars(B32, 24)}`;
    dids.add(did);
    let handle = pin?.handle ?? '';
    if (!pin) {
      const word = arng.pick(niche.handleWords);
      const base = handleLabel(
        arng.pick([`${first}${word}`, `${first}-${last}`, `${word}with${first}`, `${first}${last}`, first]),
      );
      const domain = arng.chance(0.12) ? arng.pick(['.dev', '.com', '.net', '.xyz']) : '.blipnet.social';
      handle = `${base}${domain}`;
      for (let k = 2; handles.has(handle); k++) handle = `${base}${k}${domain}`;
      handles.add(handle);
    }
    const cap1 = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const account: BlipAccountRow = {
      pk: i + 1,
      did,
      handle,
      displayName:
        pin?.displayName ??
        (arng.chance(0.08)
          ? null
          : arng.pick([
              `${cap1(first)} ${cap1(last)}`,
              cap1(first),
              `${cap1(first)} 🦋`,
              `${cap1(first)} | ${cap1(niche.key)}`,
            ])),
      niche: niche.key,
      followers: pin?.followers ?? Math.round(Math.min(3_000_000, Math.max(20, arng.logNormal(1_800, 1.8)))),
    };
    sink.account(account);
    counts.blipnetAccounts++;
    creators.push({ account, niche });
  }

  // ---- posts ----
  const drafts: Draft[] = [];
  const rkeys = new Set<string>();
  const newKey = (ts: number, r: Rng) => {
    let k = tid(ts, r);
    while (rkeys.has(k)) k = tid(ts, r);
    rkeys.add(k);
    return k;
  };
  const ctxOf = (c: Creator, r: Rng): FillContext => ({
    rng: r,
    niche: c.niche,
    platform: 'picnet',
    friends: ['friend'],
  });

  /** a top-level post's text and facets; `tag` forces a hashtag in */
  const topText = (c: Creator, r: Rng, tag?: string) => {
    const lang = r.weighted(LANGS);
    const ctx = ctxOf(c, r);
    let text: string;
    if (lang && lang !== 'en') text = fill(r.pick(FOREIGN[lang] as readonly string[]), ctx);
    else {
      text = r.pick(OPENERS) + fill(r.pick(c.niche.captions), ctx);
      if (r.chance(0.2)) text += ` ${r.pick(SHARED_SLOTS.emoji as string[])}`;
    }
    const mentions: Array<[string, string]> = [];
    if (r.chance(0.12)) {
      const other = r.pick(creators);
      if (other !== c) {
        text += ` (via @${other.account.handle})`;
        mentions.push([other.account.did, other.account.handle]);
      }
    }
    const links: string[] = [];
    if (r.chance(0.18)) {
      const link = `${r.pick(LINK_SITES)}${slug(r)}`;
      text += ` ${link}`;
      links.push(link);
    }
    const tags = new Set<string>();
    const n = r.weighted([
      [0, 45],
      [1, 35],
      [2, 20],
    ] as const);
    for (let k = 0; k < n; k++) tags.add(r.pickZipf(c.niche.tags));
    if (tag) tags.add(tag);
    if (tags.size > 0) text += ` ${[...tags].map((t) => `#${t}`).join(' ')}`;
    const media = r.chance(0.25)
      ? Array.from(
          { length: r.int(1, 4) },
          () =>
            `https://cdn.blipnet.app/img/feed_fullsize/plain/${c.account.did}/bafkrei${r.chars(B32, 52)}@jpeg`,
        )
      : [];
    return { text: text.trim(), lang, mentions, links, media, tags: hashtagsOf(text) };
  };

  const draftTop = (c: Creator, ts: number, r: Rng, tag?: string): Draft => {
    const t = topText(c, r, tag);
    const reach = c.account.followers * ageFactor(ts) * (r.chance(0.03) ? r.logNormal(10, 0.8) : 1);
    const d: Draft = {
      pk: 0,
      rkey: newKey(ts, r),
      accountPk: c.account.pk,
      ts,
      text: t.text,
      lang: t.lang,
      rootPk: null,
      parentPk: null,
      depth: 0,
      quotePk: null,
      links: JSON.stringify(t.links),
      media: JSON.stringify(t.media),
      mentions: JSON.stringify(t.mentions),
      likes: Math.max(0, Math.round(reach * r.logNormal(0.02, 1.1))),
      tags: t.tags,
    };
    drafts.push(d);
    return d;
  };

  /** replies under a post: most answer it, some answer an earlier reply; authors continue their
   *  own threads */
  const drawThread = (root: Draft, c: Creator, r: Rng): void => {
    const audience = root.likes;
    const n = Math.min(40, Math.floor(r.logNormal(Math.max(0.3, audience * 0.012), 1.0)));
    const thread: Draft[] = [root];
    if (r.chance(0.08)) {
      // a self-thread: the author continues, numbered
      const parts = r.int(2, 4);
      root.text = `${root.text} 1/${parts}`;
      let parent = root;
      for (let k = 2; k <= parts; k++) {
        const ts = Math.min(DAY - 1, parent.ts + r.int(30, 600));
        const d: Draft = {
          ...parent,
          pk: 0,
          rkey: newKey(ts, r),
          ts,
          text: `${fill(r.pick(THREAD_CONTINUATIONS), ctxOf(c, r))} ${k}/${parts}`,
          rootPk: null,
          parentPk: null,
          depth: parent.depth + 1,
          quotePk: null,
          links: '[]',
          media: '[]',
          mentions: '[]',
          likes: Math.round(parent.likes * r.next() * 0.6),
          tags: [],
        };
        (d as Draft & { parent?: Draft }).parent = parent;
        drafts.push(d);
        thread.push(d);
        parent = d;
      }
    }
    for (let k = 0; k < n; k++) {
      const parent = r.chance(0.7) || thread.length === 1 ? root : r.pick(thread);
      if (parent.depth >= 8) continue;
      const author = r.pick(creators);
      const room = DAY - 1 - parent.ts;
      const delay = Math.min(Math.max(5, Math.floor(r.logNormal(2 * HOUR, 1.5))), Math.max(5, room));
      const ts = parent.ts + delay;
      const ctx = ctxOf(author, r);
      let text = commentText(ctx);
      const mentions: Array<[string, string]> = [];
      const parentAuthor = creators[parent.accountPk - 1] as Creator;
      if (r.chance(0.15) && parentAuthor !== author) {
        text = `@${parentAuthor.account.handle} ${text}`;
        mentions.push([parentAuthor.account.did, parentAuthor.account.handle]);
      }
      const d: Draft = {
        pk: 0,
        rkey: newKey(ts, r),
        accountPk: author.account.pk,
        ts,
        text,
        lang: r.chance(0.9) ? 'en' : null,
        rootPk: null,
        parentPk: null,
        depth: parent.depth + 1,
        quotePk: null,
        links: '[]',
        media: '[]',
        mentions: JSON.stringify(mentions),
        likes: Math.floor(r.logNormal(Math.max(0.3, parent.likes * 0.01), 1.4) * (r.chance(0.4) ? 0 : 1)),
        tags: hashtagsOf(text),
      };
      (d as Draft & { parent?: Draft }).parent = parent;
      drafts.push(d);
      thread.push(d);
    }
    for (const d of thread) if (d !== root) (d as Draft & { root?: Draft }).root = root;
  };

  creators.forEach((c, i) => {
    const prng = rng.fork(`posts:${i}`);
    const rate = prng.logNormal(0.45, 0.8);
    const count = Math.max(3, Math.min(200, Math.round(rate * WORLD_DAYS * (0.7 + 0.6 * prng.next()))));
    const days = Array.from({ length: count }, () => prng.int(0, WORLD_DAYS - 1));
    if (!days.some((d) => d > 0)) days[0] = prng.int(1, WORLD_DAYS - 1);
    for (const day of days) drawThread(draftTop(c, postTime(prng, day), prng), c, prng);
  });

  // pass 2: promised hashtags at 00:00:00, in each block of today and on each recent day
  const frng = rng.fork('fills');
  const BLOCK = TODAY_BLOCK_HOURS * HOUR;
  for (const tag of BLIPNET_TODAY_HASHTAGS) {
    const seen = new Set<string>();
    for (const d of drafts) {
      if (d.depth !== 0 || !d.tags.includes(tag) || d.ts < -DAILY_SPAN * DAY) continue;
      if (d.ts === 0) seen.add('0');
      if (d.ts >= 0) seen.add(`b${Math.floor(d.ts / BLOCK)}`);
      else seen.add(`d${Math.ceil(-d.ts / DAY)}`);
    }
    const owners = creators.filter((c) => c.niche.tags.includes(tag));
    const from = owners.length > 0 ? owners : creators;
    const gaps: number[] = [];
    if (!seen.has('0')) gaps.push(0);
    for (let b = 1; b < DAY / BLOCK; b++)
      if (!seen.has(`b${b}`)) gaps.push(b * BLOCK + frng.int(0, BLOCK - 1));
    for (let d = 1; d <= DAILY_SPAN; d++) if (!seen.has(`d${d}`)) gaps.push(postTime(frng, d));
    for (const ts of gaps) {
      const c = frng.pick(from);
      drawThread(draftTop(c, ts, frng, tag), c, frng);
    }
  }

  // quotes: some top-level posts quote an older post of someone else
  const tops = drafts.filter((d) => d.depth === 0);
  const qrng = rng.fork('quotes');
  const quotedBy = new Map<Draft, number>();
  for (const d of tops) {
    if (!qrng.chance(0.07)) continue;
    const q = qrng.pick(tops);
    if (q === d || q.ts >= d.ts || q.accountPk === d.accountPk) continue;
    (d as Draft & { quote?: Draft }).quote = q;
    d.text = `${qrng.pick(QUOTE_LINES)} ${d.text}`.trim();
    quotedBy.set(q, (quotedBy.get(q) ?? 0) + 1);
  }

  // every post's pk in time order (ties by record key): a parent always precedes its replies
  drafts.sort((a, b) => a.ts - b.ts || (a.rkey < b.rkey ? -1 : a.rkey > b.rkey ? 1 : 0));
  drafts.forEach((d, i) => {
    d.pk = i + 1;
  });
  const children = new Map<Draft, number>();
  for (const d of drafts) {
    const parent = (d as Draft & { parent?: Draft }).parent;
    if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
  }

  // reposts: accounts share posts of others, some time after they were written
  const reposts: BlipRepostRow[] = [];
  const repostCount = new Map<Draft, number>();
  const rrng = rng.fork('reposts');
  // the most liked posts are the most reposted
  const popular = [...tops].sort((a, b) => b.likes - a.likes || a.pk - b.pk);
  creators.forEach((c) => {
    const n = rrng.int(0, 25);
    for (let k = 0; k < n; k++) {
      const d = rrng.pickZipf(popular);
      if (d.accountPk === c.account.pk) continue;
      const ts = Math.min(DAY - 1, d.ts + Math.floor(rrng.logNormal(6 * HOUR, 1.2)));
      reposts.push({ accountPk: c.account.pk, rkey: newKey(ts, rrng), ts, postPk: d.pk });
      repostCount.set(d, (repostCount.get(d) ?? 0) + 1);
    }
  });

  const srng = rng.fork('stats');
  for (const d of drafts) {
    const root = (d as Draft & { root?: Draft }).root;
    const parent = (d as Draft & { parent?: Draft }).parent;
    const quote = (d as Draft & { quote?: Draft }).quote;
    const { tags, ...row } = d;
    const out: BlipPostRow = {
      ...row,
      rootPk: root ? root.pk : null,
      parentPk: parent ? parent.pk : null,
      quotePk: quote ? quote.pk : null,
      replies: children.get(d) ?? 0,
      reposts: (repostCount.get(d) ?? 0) + Math.floor(d.likes * srng.next() * 0.15),
      quotes: quotedBy.get(d) ?? 0,
    };
    sink.post(out, tags);
    if (out.depth === 0) counts.blipnetPosts++;
    else counts.blipnetReplies++;
  }
  reposts.sort((a, b) => a.accountPk - b.accountPk || a.ts - b.ts || (a.rkey < b.rkey ? -1 : 1));
  for (const r of reposts) sink.repost(r);
  counts.blipnetReposts = reposts.length;
  return counts;
}
