// Fills templates with slot values and assembles each platform's captions, titles,
// descriptions and comments in its own idiom.
import type { Platform } from './featured.js';
import { type Niche, nicheTags } from './niches.js';
import type { Rng } from './rng.js';
import {
  CHAPTER_NAMES,
  CLIP_CAPTIONS,
  CLIP_TAILS,
  COMMENT_PREFIXES,
  COMMENT_SUFFIXES,
  COMMENTS,
  type CommentKind,
  DESC_CLOSERS,
  DESC_MIDDLES,
  DESC_OPENERS,
  GENERIC_TAGS,
  GENERIC_TITLES,
  PIC_CAPTIONS,
  PIC_CAROUSEL_CAPTIONS,
  PIC_REEL_CAPTIONS,
  PIC_TAILS,
  SHARED_SLOTS,
  SHORT_DESCRIPTIONS,
  SHORT_TITLES,
} from './templates.js';

export interface FillContext {
  rng: Rng;
  niche: Niche;
  platform: Platform;
  /** handles to mention as {friend} */
  friends: readonly string[];
}

const SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'with',
  'vs',
]);

/** words a title writes in capitals (or in their own way) */
const TITLE_WORDS: Record<string, string> = {
  pc: 'PC',
  ai: 'AI',
  'usb-c': 'USB-C',
  diy: 'DIY',
  asmr: 'ASMR',
  gps: 'GPS',
  'r&b': 'R&B',
  'q&a': 'Q&A',
  pov: 'POV',
  uk: 'UK',
  tbr: 'TBR',
  bf: 'BF',
  gf: 'GF',
  '10k': '10K',
  '4k': '4K',
  mvp: 'MVP',
  pr: 'PR',
  'e-reader': 'E-Reader',
  'sci-fi': 'Sci-Fi',
  'souls-like': 'Souls-Like',
  'carry-on': 'Carry-On',
  'go-to': 'Go-To',
  'try-on': 'Try-On',
};

/** Title Case for a whole title: small words stay lower case except first and after a colon */
function titleCase(s: string): string {
  const words = s.split(' ');
  return words
    .map((w, i) => {
      const lower = w.toLowerCase();
      const afterColon = i > 0 && /[:|]$/.test(words[i - 1] as string);
      if (i > 0 && !afterColon && SMALL_WORDS.has(lower)) return lower;
      const m = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}&]*)$/u.exec(w);
      if (!m) return w;
      const [, pre, core, post] = m as unknown as [string, string, string, string];
      const special = TITLE_WORDS[core.toLowerCase()];
      if (special) return `${pre}${special}${post}`;
      return `${pre}${core.charAt(0).toUpperCase()}${core.slice(1)}${post}`;
    })
    .join(' ');
}

function wantsAn(word: string): boolean {
  const w = word.toLowerCase();
  if (/^(hour|honest|honor|heir)/.test(w)) return true;
  if (/^(one|once|use|usu|usb|uni|euro|eu-|u-)/.test(w)) return false;
  if (/^\d/.test(w)) return /^(8|11|18)(\D|$)/.test(w) || /^8\d/.test(w);
  return /^[aeiou]/.test(w);
}

const ARTICLE = /(?<![\p{L}\p{N}&'’.@#-])(an?|An?|AN?)(?= +([\p{L}\p{N}][\p{L}\p{N}'’-]*))/gu;

function article(found: string, _next: string, word: string): string {
  const an = wantsAn(word);
  if (found === 'AN' || (found === 'A' && word === word.toUpperCase() && /\p{L}/u.test(word)))
    return an ? 'AN' : 'A';
  const first = found.charAt(0);
  return an ? `${first}n` : first;
}

/** "a" before a vowel sound becomes "an", "an" before a consonant sound "a" */
function fixArticles(text: string): string {
  // most texts have no article at all: a plain test first spares them the full pattern
  return /\b[aA][nN]? /.test(text) ? text.replace(ARTICLE, article) : text;
}

/** a {thing} without its leading article or possessive: "my deadlift form" → "deadlift form" */
function bare(phrase: string): string {
  return phrase.replace(/^(a|an|the|my|our|your|this) /, '');
}

function slotValue(name: string, ctx: FillContext): string {
  const { rng, niche } = ctx;
  if (name.includes('|')) return rng.pick(name.split('|'));
  switch (name) {
    case 'n':
      return String(rng.int(2, 9));
    case 'num':
      return String(Math.floor(rng.logNormal(120, 1)) + 10);
    case 'price':
      return `$${rng.int(2, 9)}0`;
    case 'dollars':
      return `$${Math.floor(rng.logNormal(120, 1)) + 10}`;
    case 'days':
      return rng.pick(DAY_COUNTS);
    case 'friend':
      return `@${rng.pick(ctx.friends)}`;
    case 'topic':
      return bare(rng.pick(niche.slots.thing));
    default: {
      const list = niche.slots[name] ?? SHARED_SLOTS[name];
      if (!list) throw new Error(`template slot {${name}} has no values (niche ${niche.key})`);
      return rng.pick(list);
    }
  }
}

const DAY_COUNTS = ['7', '14', '21', '30', '60', '100'];
const SLOT = /\{([^{}]+)\}/g;

export function fill(template: string, ctx: FillContext, opts: { titleCase?: boolean } = {}): string {
  let filled = '';
  let last = 0;
  SLOT.lastIndex = 0;
  for (let m = SLOT.exec(template); m; m = SLOT.exec(template)) {
    filled += template.slice(last, m.index) + slotValue(m[1] as string, ctx);
    last = SLOT.lastIndex;
  }
  filled += template.slice(last);
  if (hasArticleSlot(template)) filled = fixArticles(filled);
  return opts.titleCase ? titleCase(filled) : filled;
}

const articleSlots = new Map<string, boolean>();

/** whether a template puts "a" or "an" before a slot: only there can a fill need "an" for "a"
 *  (slot values are written right). Known per template, since fills are many and templates few. */
function hasArticleSlot(template: string): boolean {
  let has = articleSlots.get(template);
  if (has === undefined) {
    has = /(?<![\p{L}\p{N}])[aA][nN]? \{/u.test(template);
    articleSlots.set(template, has);
  }
  return has;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** a capital letter at the start of every sentence and line, as picnet captions are written */
function sentenceCase(s: string): string {
  return capitalize(s).replace(
    /([.!?] +|\n|📍 )(\p{Ll})/gu,
    (_m, sep: string, c: string) => sep + c.toUpperCase(),
  );
}

/** hashtags: mostly the niche's popular ones on this platform, sometimes a generic one */
export function pickTags(ctx: FillContext, min: number, max: number, genericChance: number): string[] {
  const { rng, niche, platform } = ctx;
  const pool = nicheTags(niche, platform);
  const count = rng.int(min, max);
  const tags = new Set<string>();
  for (let i = 0; i < count * 3 && tags.size < count; i++) tags.add(rng.pickZipf(pool));
  if (rng.chance(genericChance)) tags.add(rng.pickZipf(GENERIC_TAGS[platform]));
  return [...tags];
}

function withTag(tags: string[], forceTag: string | undefined): string[] {
  if (forceTag && !tags.includes(forceTag)) tags.push(forceTag);
  return tags;
}

const hashtags = (tags: readonly string[]) => tags.map((t) => `#${t}`).join(' ');

/** clipnet: one short, mostly lower-case line, then 1-5 hashtags */
export function clipCaption(ctx: FillContext, forceTag?: string): string {
  const { rng, niche } = ctx;
  const tpl = rng.chance(0.45) ? rng.pick(niche.captions) : rng.pick(CLIP_CAPTIONS);
  let body = fill(tpl, ctx);
  if (rng.chance(0.25))
    body += rng.chance(0.5) ? ` ${rng.pick(SHARED_SLOTS.emoji!)}` : `. ${rng.pick(CLIP_TAILS)}`;
  if (rng.chance(0.15)) body = capitalize(body);
  return `${body} ${hashtags(withTag(pickTags(ctx, 1, 5, 0.55), forceTag))}`;
}

/** picnet: sentences, sometimes a second paragraph and a photo credit, then a hashtag block */
export function picCaption(ctx: FillContext, mediaType: string, forceTag?: string): string {
  const { rng, niche } = ctx;
  const roll = rng.next();
  const own =
    mediaType === 'carousel' && rng.chance(0.35)
      ? PIC_CAROUSEL_CAPTIONS
      : mediaType === 'video' && rng.chance(0.35)
        ? PIC_REEL_CAPTIONS
        : PIC_CAPTIONS;
  const tpl = roll < 0.65 ? rng.pick(own) : rng.pick(niche.captions);
  let body = fill(tpl, ctx);
  if (rng.chance(0.2)) body += `\n\n${rng.pick(PIC_TAILS)} ${rng.pick(SHARED_SLOTS.emoji!)}`;
  if (mediaType !== 'video' && rng.chance(0.2)) body += `\n📸 ${fill('{friend}', ctx)}`;
  body = sentenceCase(body);
  const tags = withTag(pickTags(ctx, 3, 14, 0.45), forceTag);
  const sep = rng.chance(0.3) ? '\n.\n.\n.\n' : '\n\n';
  return `${body}${sep}${hashtags(tags)}`;
}

export function videoTitle(ctx: FillContext, isShort: boolean): string {
  const { rng, niche } = ctx;
  if (isShort) {
    const tpl = rng.chance(0.5) ? rng.pick(SHORT_TITLES) : rng.pick(niche.captions);
    const tags = pickTags(ctx, 0, 2, 0);
    return [fill(tpl, ctx), '#shorts', ...tags.map((t) => `#${t}`)].join(' ');
  }
  const tpl = rng.chance(0.6) ? rng.pick(niche.titles) : rng.pick(GENERIC_TITLES);
  let title = fill(tpl, ctx, { titleCase: true });
  if (rng.chance(0.15))
    title += ` ${rng.pick(['(Honest Review)', '(Not Clickbait)', '| Part 2', '(Updated)', '(Beginner Friendly)'])}`;
  if (rng.chance(0.1)) title = title.toUpperCase();
  return title;
}

function clock(totalSeconds: number): string {
  const m = Math.floor(totalSeconds / 60);
  const s = totalSeconds % 60;
  return `${m}:${s < 10 ? '0' : ''}${s}`;
}

export function videoDescription(
  ctx: FillContext,
  isShort: boolean,
  durationSeconds: number,
  forceTag?: string,
): string {
  const { rng } = ctx;
  const parts: string[] = [];
  if (isShort) {
    parts.push(capitalize(fill(rng.pick(SHORT_DESCRIPTIONS), ctx)));
  } else {
    parts.push(capitalize(fill(rng.pick(DESC_OPENERS), ctx)));
    const middles = rng.sample(DESC_MIDDLES, rng.int(0, 2));
    for (const m of middles) parts.push(capitalize(fill(m, ctx)));
    if (durationSeconds >= 360 && rng.chance(0.5)) {
      // chapters come in the order a video tells them: the setup before the results
      const names = rng
        .sample(CHAPTER_NAMES.slice(1), rng.int(3, 5))
        .sort((a, b) => CHAPTER_NAMES.indexOf(a) - CHAPTER_NAMES.indexOf(b));
      const step = Math.floor(durationSeconds / (names.length + 1));
      const lines = [`0:00 ${CHAPTER_NAMES[0]}`];
      names.forEach((name, i) => {
        lines.push(`${clock(step * (i + 1) + rng.int(0, 30))} ${name}`);
      });
      parts.push(lines.join('\n'));
    }
    parts.push(rng.pick(DESC_CLOSERS));
  }
  const tags = withTag(pickTags(ctx, isShort ? 1 : 2, 5, 0.1), forceTag);
  if (isShort && !tags.includes('shorts')) tags.push('shorts');
  parts.push(hashtags(tags));
  return parts.join('\n\n');
}

const KIND_WEIGHTS: ReadonlyArray<readonly [CommentKind, number]> = [
  ['chatter', 28],
  ['praise', 26],
  ['question', 15],
  ['purchase', 8],
  ['complaint', 10],
  ['suggestion', 8],
  ['sarcasm', 5],
];

function oneComment(ctx: FillContext, not?: string): { text: string; tpl: string } {
  const { rng, niche, platform } = ctx;
  let tpl = '';
  do
    tpl = rng.chance(0.25)
      ? rng.pick(niche.comments)
      : rng.pick(COMMENTS[platform][rng.weighted(KIND_WEIGHTS)]);
  while (tpl === not);
  let text = fill(tpl, ctx);
  // a prefix or suffix the comment already has is not said twice ("tbh tbh")
  const lower = text.toLowerCase();
  const prefix = rng.chance(0.22) ? rng.pick(COMMENT_PREFIXES) : '';
  if (prefix && !lower.startsWith(prefix.trim())) text = prefix + text;
  const suffix = rng.chance(0.28) ? rng.pick(COMMENT_SUFFIXES) : '';
  if (suffix && !lower.endsWith(suffix.trim())) text += suffix;
  return { text, tpl };
}

/** a comment in the platform's manner; vidnet's run longer (two thoughts more often) */
export function commentText(ctx: FillContext): string {
  const { rng } = ctx;
  const first = oneComment(ctx);
  let text = first.text;
  if (rng.chance(ctx.platform === 'vidnet' ? 0.35 : 0.12)) {
    // a second thought, never the first one again
    const second = oneComment(ctx, first.tpl).text;
    // "first" is a comment of its own, never a second thought
    if (!/^first\b/.test(second)) text = `${text}${/[.!?]$/.test(text) ? '' : '.'} ${capitalize(second)}`;
  }
  if (rng.chance(0.3)) text = capitalize(text);
  else if (rng.chance(0.04)) text = text.toUpperCase();
  return text;
}

/** hashtags a text carries, lowercased and unique, in order of appearance */
export function hashtagsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/#([\p{L}\p{N}_]+)/gu)) out.add((m[1] as string).toLowerCase());
  return [...out];
}
