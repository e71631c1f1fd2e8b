// Fills templates with slot values and assembles captions, titles, descriptions and comments.
import type { Niche } from './niches.js';
import type { Rng } from './rng.js';
import {
  CHAPTER_NAMES,
  COMMENT_PREFIXES,
  COMMENT_SUFFIXES,
  COMMENTS,
  type CommentKind,
  DESC_CLOSERS,
  DESC_MIDDLES,
  DESC_OPENERS,
  GENERIC_TAGS,
  GENERIC_TITLES,
  LONG_CAPTIONS,
  SHARED_SLOTS,
  SHORT_CAPTIONS,
  SHORT_TITLES,
} from './templates.js';

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

function titleCase(s: string): string {
  return s
    .split(' ')
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

export interface FillContext {
  rng: Rng;
  niche: Niche;
  /** handles to mention as {friend} */
  friends: readonly string[];
  titleCase?: boolean;
}

export function fill(template: string, ctx: FillContext): string {
  return template.replace(/\{([^{}]+)\}/g, (_m, name: string) => {
    if (name.includes('|')) return ctx.rng.pick(name.split('|'));
    let value: string;
    switch (name) {
      case 'n':
        value = String(ctx.rng.int(2, 9));
        break;
      case 'num':
        value = String(Math.floor(ctx.rng.logNormal(120, 1)) + 10);
        break;
      case 'price':
        value = `$${ctx.rng.int(2, 9)}0`;
        break;
      case 'dollars':
        value = `$${Math.floor(ctx.rng.logNormal(120, 1)) + 10}`;
        break;
      case 'days':
        value = ctx.rng.pick(['7', '14', '21', '30', '60', '100']);
        break;
      case 'friend':
        value = `@${ctx.rng.pick(ctx.friends)}`;
        break;
      default: {
        const list = ctx.niche.slots[name] ?? SHARED_SLOTS[name];
        if (!list) throw new Error(`template slot {${name}} has no values (niche ${ctx.niche.key})`);
        value = ctx.rng.pick(list);
      }
    }
    return ctx.titleCase && !/^\d+$/.test(value) ? titleCase(value) : value;
  });
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** hashtags: mostly the niche's popular ones, sometimes a generic one */
export function pickTags(ctx: FillContext, min: number, max: number, genericChance: number): string[] {
  const { rng, niche } = ctx;
  const count = rng.int(min, max);
  const tags = new Set<string>();
  for (let i = 0; i < count * 3 && tags.size < count; i++) tags.add(rng.pickZipf(niche.tags));
  if (rng.chance(genericChance)) tags.add(rng.pickZipf(GENERIC_TAGS));
  return [...tags];
}

const TAILS = [
  'lmk what you think',
  'more tomorrow',
  'follow for part 2',
  'full version on my profile',
  'sound on 🔊',
  'wait till the end',
  'thoughts?',
  'be nice in the comments pls',
  'this took way too long',
  'save for later',
  'not sponsored',
  'comment if you want the list',
];

export function shortCaption(ctx: FillContext, forceTag?: string): string {
  const { rng, niche } = ctx;
  const tpl = rng.chance(0.45) ? rng.pick(niche.captions) : rng.pick(SHORT_CAPTIONS);
  let body = fill(tpl, ctx);
  if (rng.chance(0.25))
    body += rng.chance(0.5) ? ` ${rng.pick(SHARED_SLOTS.emoji!)}` : `. ${rng.pick(TAILS)}`;
  if (rng.chance(0.15)) body = capitalize(body);
  const tags = pickTags(ctx, 1, 5, 0.55);
  if (forceTag && !tags.includes(forceTag)) tags.push(forceTag);
  return `${body} ${tags.map((t) => `#${t}`).join(' ')}`;
}

export function longCaption(ctx: FillContext, forceTag?: string): string {
  const { rng, niche } = ctx;
  const roll = rng.next();
  const tpl =
    roll < 0.6 ? rng.pick(LONG_CAPTIONS) : roll < 0.85 ? rng.pick(niche.captions) : rng.pick(SHORT_CAPTIONS);
  let body = capitalize(fill(tpl, ctx));
  if (rng.chance(0.2))
    body += `\n\n${capitalize(fill(rng.pick(TAILS), ctx))} ${rng.pick(SHARED_SLOTS.emoji!)}`;
  if (rng.chance(0.2)) body += `\n📸 ${fill('{friend}', ctx)}`;
  const tags = pickTags(ctx, 2, 12, 0.35);
  if (forceTag && !tags.includes(forceTag)) tags.push(forceTag);
  const sep = rng.chance(0.3) ? '\n.\n.\n.\n' : '\n\n';
  return `${body}${sep}${tags.map((t) => `#${t}`).join(' ')}`;
}

export function videoTitle(ctx: FillContext, isShort: boolean): string {
  const { rng, niche } = ctx;
  if (isShort) {
    const tpl = rng.chance(0.5) ? rng.pick(SHORT_TITLES) : rng.pick(niche.captions);
    const tags = pickTags(ctx, 0, 2, 0);
    return [fill(tpl, ctx), '#shorts', ...tags.map((t) => `#${t}`)].join(' ');
  }
  const tpl = rng.chance(0.6) ? rng.pick(niche.titles) : rng.pick(GENERIC_TITLES);
  let title = fill(tpl, { ...ctx, titleCase: true });
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

export function videoDescription(ctx: FillContext, isShort: boolean, durationSeconds: number): string {
  const { rng } = ctx;
  const parts: string[] = [];
  if (isShort) {
    parts.push(fill(rng.pick([...DESC_OPENERS, ...SHORT_CAPTIONS]), ctx));
  } else {
    parts.push(fill(rng.pick(DESC_OPENERS), ctx));
    const middles = rng.sample(DESC_MIDDLES, rng.int(0, 2));
    for (const m of middles) parts.push(fill(m, ctx));
    if (durationSeconds >= 360 && rng.chance(0.5)) {
      const names = rng.sample(CHAPTER_NAMES.slice(1), rng.int(3, 5));
      const step = Math.floor(durationSeconds / (names.length + 1));
      const lines = [`0:00 ${CHAPTER_NAMES[0]}`];
      names.forEach((name, i) => {
        lines.push(`${clock(step * (i + 1) + rng.int(0, 30))} ${name}`);
      });
      parts.push(lines.join('\n'));
    }
    parts.push(rng.pick(DESC_CLOSERS));
  }
  const tags = pickTags(ctx, isShort ? 1 : 2, 5, 0.1);
  if (isShort) tags.push('shorts');
  parts.push(tags.map((t) => `#${t}`).join(' '));
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

function oneComment(ctx: FillContext): string {
  const { rng, niche } = ctx;
  const tpl = rng.chance(0.25) ? rng.pick(niche.comments) : rng.pick(COMMENTS[rng.weighted(KIND_WEIGHTS)]);
  let text = fill(tpl, ctx);
  if (rng.chance(0.22)) text = rng.pick(COMMENT_PREFIXES) + text;
  if (rng.chance(0.28)) text += rng.pick(COMMENT_SUFFIXES);
  return text;
}

export function commentText(ctx: FillContext, long: boolean): string {
  const { rng } = ctx;
  let text = oneComment(ctx);
  if (rng.chance(long ? 0.35 : 0.12)) {
    const second = oneComment(ctx);
    text = `${text}${/[.!?]$/.test(text) ? '' : '.'} ${capitalize(second)}`;
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
