// The world generator: accounts, channels, posts, videos and comments, all drawn from seeded
// streams. Times are offsets in seconds from the start of "today" (UTC): day d before today
// spans [-d*86400, -(d-1)*86400). The reader turns them into absolute times on each call.
//
// Each platform is drawn in two passes. The first draws every account's or channel's own
// schedule. The second fills the gaps the first left in what featured.ts promises: a post for
// a promised hashtag (a video for a promised keyword) wherever the first second of today, a
// three-hour block of today or one of the six days before it has none, from a creator of the
// niche the tag or keyword belongs to.
import {
  DAILY_HASHTAGS,
  DAILY_KEYWORDS,
  PINNED_ACCOUNTS,
  PINNED_CHANNELS,
  PINNED_POSTS,
  PINNED_VIDEOS,
  type SocialPlatform,
  TODAY_BLOCK_HOURS,
  TODAY_HASHTAGS,
  TODAY_KEYWORDS,
} from './featured.js';
import { NICHES, type Niche, nicheTags } from './niches.js';
import { Rng } from './rng.js';
import { COMMENTER_WORDS, FIRST_NAMES, HANDLE_WORDS, LAST_NAMES } from './templates.js';
import {
  clipCaption,
  commentText,
  type FillContext,
  hashtagsOf,
  picCaption,
  videoDescription,
  videoTitle,
} from './text.js';

export const DAY = 86_400;
const HOUR = 3_600;
/** today plus the 89 days before it */
export const WORLD_DAYS = 90;
/** the days before today in which DAILY_* targets have items: a `days: 7` window's */
const DAILY_SPAN = 6;

export const SIZES = {
  clipnetAccounts: 352,
  picnetAccounts: 320,
  vidnetChannels: 240,
  commentersPerPlatform: 6000,
};

export interface AccountRow {
  pk: number;
  platform: SocialPlatform;
  handle: string;
  userId: string;
  displayName: string;
  niche: string;
  followers: number;
}

export interface PostRow {
  pk: number;
  platform: SocialPlatform;
  id: string;
  accountPk: number;
  ts: number;
  caption: string;
  /** clipnet: short-link code; picnet: shortcode */
  code: string;
  mediaType: string | null;
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

export interface CommentRow {
  id: string;
  postPk: number;
  ts: number;
  user: string;
  text: string;
  likes: number;
}

export interface ChannelRow {
  pk: number;
  browseId: string;
  title: string;
  handle: string;
  niche: string;
  subscribers: number;
}

export interface VideoRow {
  pk: number;
  id: string;
  channelPk: number;
  ts: number;
  title: string;
  description: string;
  tags: string;
  duration: number;
  isShort: number;
  views: number;
  likes: number;
  comments: number;
}

export interface WorldSink {
  account(a: AccountRow): void;
  post(p: PostRow, tags: string[]): void;
  comment(platform: SocialPlatform, c: CommentRow): void;
  channel(c: ChannelRow): void;
  video(v: VideoRow, tags: string[]): void;
  videoComment(c: CommentRow): void;
}

const DIGITS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = `${ALNUM}-_`;

class Unique {
  private seen = new Set<string>();
  constructor(private make: () => string) {}
  next(): string {
    for (;;) {
      const v = this.make();
      if (!this.seen.has(v)) {
        this.seen.add(v);
        return v;
      }
    }
  }
  claim(v: string): boolean {
    if (this.seen.has(v)) return false;
    this.seen.add(v);
    return true;
  }
}

// Posting hours (UTC) weighted toward the evenings of the Americas and Europe.
const HOUR_WEIGHTS: ReadonlyArray<readonly [number, number]> = Array.from({ length: 24 }, (_, h) => [
  h,
  [3, 2, 2, 1, 1, 1, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 6, 6, 6, 6, 5, 5, 4, 4][h] as number,
]);

function postTime(rng: Rng, day: number): number {
  const sec = rng.weighted(HOUR_WEIGHTS) * HOUR + rng.int(0, HOUR - 1);
  return -day * DAY + sec;
}

/** fresh items have not gathered their audience yet */
function ageFactor(ts: number): number {
  const ageDays = Math.max(0, -ts / DAY) + 0.25;
  return ageDays >= 3 ? 1 : Math.max(0.15, Math.sqrt(ageDays / 3));
}

function cap(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** how many of a post's comments the world stores: all of a few, a growing sample of many */
function storedComments(count: number): number {
  return Math.min(count, Math.floor(2 + 1.3 * Math.sqrt(count)), 460);
}

function commenterPool(rng: Rng, platform: string, n: number): string[] {
  const u = new Unique(() => {
    const first = rng.pick(FIRST_NAMES);
    const style = rng.int(0, 7);
    switch (style) {
      case 0:
        return `${first}${rng.pick(LAST_NAMES)}${rng.int(1, 99)}`;
      case 1:
        return `${rng.pick(COMMENTER_WORDS)}.${first}`;
      case 2:
        return platform === 'clipnet' ? `user${rng.chars(DIGITS, 9)}` : `${first}_${rng.int(1990, 2009)}`;
      case 3:
        return `${first}_${rng.pick(COMMENTER_WORDS)}${rng.int(1, 999)}`;
      case 4:
        return `${rng.pick(COMMENTER_WORDS)}${rng.pick(COMMENTER_WORDS)}${rng.int(1, 99)}`;
      case 5:
        return `its${first}${rng.chars('xyz', 1)}`;
      case 6:
        return `${first}.${rng.pick(LAST_NAMES)}`;
      default:
        return `${first}${rng.chars(DIGITS, 4)}`;
    }
  });
  return Array.from({ length: n }, () => u.next());
}

function creatorHandle(rng: Rng, niche: Niche, first: string, last: string): string {
  const w = rng.pick(niche.handleWords);
  switch (rng.int(0, 7)) {
    case 0:
      return `${first}${w}`;
    case 1:
      return `${first}.${w}`;
    case 2:
      return `${first}_${last}`;
    case 3:
      return `the${w}${first}`;
    case 4:
      return `${first}${last}${rng.int(1, 99)}`;
    case 5:
      return `${w}with${first}`;
    case 6:
      return `${first}${rng.pick(HANDLE_WORDS)}`;
    default:
      return `${first}.${last}.${w}`;
  }
}

function cap1(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function displayName(rng: Rng, niche: Niche, first: string, last: string): string {
  switch (rng.int(0, 4)) {
    case 0:
      return `${cap1(first)} ${cap1(last)}`;
    case 1:
      return `${cap1(first)} | ${cap1(niche.key)}`;
    case 2:
      return `${cap1(first)} ${rng.pick(['✨', '🌿', '💫', '🔥', '🌸', '⚡'])}`;
    case 3:
      return `${cap1(first)} ${cap1(rng.pick(niche.handleWords))}`;
    default:
      return cap1(first);
  }
}

/** a stable captions registry: no two items of a platform share a caption */
class CaptionSet {
  private seen = new Set<string>();
  /** claims a text if no other item has it */
  claim(c: string): boolean {
    if (this.seen.has(c)) return false;
    this.seen.add(c);
    return true;
  }
  make(gen: () => string, rng: Rng): string {
    for (let i = 0; i < 12; i++) {
      const c = gen();
      if (this.claim(c)) return c;
    }
    for (let k = 2; ; k++) {
      const c = `${gen()} (pt ${k + rng.int(0, 9)})`;
      if (this.claim(c)) return c;
    }
  }
}

interface Scheduled {
  /** a fixed offset (a gap fill), or undefined to draw one on day `day` */
  ts?: number;
  day: number;
  /** a hashtag the caption must carry */
  tag?: string;
  /** a pinned post's or video's ids and kind (PINNED_POSTS, PINNED_VIDEOS) */
  pin?: { id?: string; code?: string; mediaType?: string };
}

/** an account's or channel's own posts: random days, at least one of them before today so that
 *  the account never looks empty just after midnight */
function schedule(rng: Rng, ratePerDay: number): Scheduled[] {
  const count = Math.max(3, Math.min(160, Math.round(ratePerDay * WORLD_DAYS * (0.7 + 0.6 * rng.next()))));
  const out: Scheduled[] = [];
  for (let i = 0; i < count; i++) out.push({ day: rng.int(0, WORLD_DAYS - 1) });
  if (!out.some((s) => s.day > 0)) (out[0] as Scheduled).day = rng.int(1, WORLD_DAYS - 1);
  return out;
}

function commentTime(rng: Rng, postTs: number): number {
  const room = DAY - 1 - postTs;
  let delay = Math.floor(rng.logNormal(4 * HOUR, 1.6));
  if (delay > 25 * DAY) delay = rng.int(60, 25 * DAY);
  if (delay > room) delay = room <= 60 ? rng.int(0, Math.max(0, room)) : rng.int(60, room);
  return postTs + Math.max(1, Math.min(delay, room));
}

function commentLikes(rng: Rng, postLikes: number): number {
  const base = Math.max(0.4, postLikes * 0.0004);
  return Math.floor(rng.logNormal(base, 1.7) * (rng.chance(0.4) ? 0 : 1));
}

const BLOCK = TODAY_BLOCK_HOURS * HOUR;

/** which promised targets have an item in which slot: second 0 of today, each block of today,
 *  each of the DAILY_SPAN days before today */
class Coverage {
  private seen = new Set<string>();
  add(target: string, ts: number): void {
    if (ts >= 0) {
      if (ts === 0) this.seen.add(`${target}@0`);
      this.seen.add(`${target}@b${Math.floor(ts / BLOCK)}`);
    } else if (ts >= -DAILY_SPAN * DAY) this.seen.add(`${target}@d${Math.ceil(-ts / DAY)}`);
  }
  /** the offsets still to fill for a target, drawn lazily: each is checked when asked for, so
   *  that a fill for one target counts for the others it happens to match */
  *gaps(target: string, today: boolean, rng: Rng): Generator<number> {
    if (today) {
      if (!this.seen.has(`${target}@0`)) yield 0;
      for (let b = 1; b < DAY / BLOCK; b++)
        if (!this.seen.has(`${target}@b${b}`)) yield b * BLOCK + rng.int(0, BLOCK - 1);
    }
    for (let d = 1; d <= DAILY_SPAN; d++) if (!this.seen.has(`${target}@d${d}`)) yield postTime(rng, d);
  }
}

/** the terms of a keyword as the full-text index splits them */
function terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function unionTargets(today: readonly string[], daily: readonly string[]): Array<[string, boolean]> {
  const t = new Set(today);
  return [...new Set([...today, ...daily])].map((x) => [x, t.has(x)]);
}

export interface WorldCounts {
  clipnetAccounts: number;
  clipnetPosts: number;
  clipnetComments: number;
  picnetAccounts: number;
  picnetPosts: number;
  picnetComments: number;
  vidnetChannels: number;
  vidnetVideos: number;
  vidnetShorts: number;
  vidnetComments: number;
}

/** for each pinned entry, the first free index whose niche (nicheAt(i)) is the pinned one */
function pinIndexes<T extends { niche: string }>(
  pinned: readonly T[],
  n: number,
  nicheAt: (i: number) => Niche,
): Map<number, T> {
  const at = new Map<number, T>();
  for (const p of pinned) {
    let i = 0;
    while (i < n && (at.has(i) || nicheAt(i).key !== p.niche)) i++;
    if (i === n) throw new Error(`no slot for pinned ${p.niche} item`);
    at.set(i, p);
  }
  return at;
}

interface Creator {
  account: AccountRow;
  niche: Niche;
}

export function generateWorld(sink: WorldSink): WorldCounts {
  const counts: WorldCounts = {
    clipnetAccounts: 0,
    clipnetPosts: 0,
    clipnetComments: 0,
    picnetAccounts: 0,
    picnetPosts: 0,
    picnetComments: 0,
    vidnetChannels: 0,
    vidnetVideos: 0,
    vidnetShorts: 0,
    vidnetComments: 0,
  };
  let accountPk = 0;
  let postPk = 0;

  for (const platform of ['clipnet', 'picnet'] as const) {
    const rng = new Rng(`world:${platform}`);
    const commenters = commenterPool(rng.fork('commenters'), platform, SIZES.commentersPerPlatform);
    const postIds = new Unique(() =>
      platform === 'clipnet' ? `7${rng.chars(DIGITS, 18)}` : `3${rng.chars(DIGITS, 18)}`,
    );
    const codes = new Unique(() =>
      platform === 'clipnet'
        ? `Z${rng.pick(['M', 'S', 'T'])}${rng.chars(ALNUM, 7)}`
        : `${rng.pick(['C', 'D'])}${rng.chars(B64URL, 10)}`,
    );
    const userIds = new Unique(() =>
      platform === 'clipnet'
        ? `6${rng.chars(DIGITS, 18)}`
        : `${rng.int(1, 9)}${rng.chars(DIGITS, rng.int(7, 10))}`,
    );
    const handles = new Unique(() => '');
    const pinnedAccounts = PINNED_ACCOUNTS.filter((p) => p.platform === platform);
    for (const p of pinnedAccounts) {
      handles.claim(p.handle);
      if (p.userId) userIds.claim(p.userId);
    }
    const pinnedPosts = PINNED_POSTS.filter((p) => p.platform === platform);
    for (const p of pinnedPosts) {
      if (p.id) postIds.claim(p.id);
      codes.claim(p.code);
    }
    // a running counter in the low digits keeps comment ids unique without a lookup set
    let commentSeq = 0;
    const commentId = () => {
      const seq = String(++commentSeq).padStart(8, '0');
      return platform === 'clipnet' ? `7${rng.chars(DIGITS, 10)}${seq}` : `18${rng.chars(DIGITS, 7)}${seq}`;
    };
    const captions = new CaptionSet();
    const coverage = new Coverage();

    const emitPost = (c: Creator, s: Scheduled, prng: Rng): void => {
      const { account, niche } = c;
      const ts = s.ts ?? postTime(prng, s.day);
      const ctx: FillContext = { rng: prng, niche, platform, friends: commenters };
      const drawnType =
        platform === 'picnet'
          ? prng.weighted([
              ['image', 55],
              ['carousel', 30],
              ['video', 15],
            ] as const)
          : null;
      const mediaType = s.pin?.mediaType ?? drawnType;
      const caption = captions.make(
        () =>
          platform === 'clipnet' ? clipCaption(ctx, s.tag) : picCaption(ctx, mediaType as string, s.tag),
        prng,
      );
      const viral = s.pin ? prng.logNormal(15, 0.3) : prng.chance(0.025) ? prng.logNormal(12, 0.8) : 1;
      const reach = account.followers * ageFactor(ts) * viral;
      let views: number;
      let likes: number;
      let shares: number;
      if (platform === 'clipnet') {
        views = Math.max(40, Math.round(reach * prng.logNormal(0.45, 1.1)));
        likes = Math.round(views * cap(prng.logNormal(0.075, 0.45), 0.004, 0.4));
        shares = Math.round(likes * cap(prng.logNormal(0.04, 0.8), 0, 0.6));
      } else {
        views = 0;
        likes = Math.max(3, Math.round(reach * prng.logNormal(0.035, 0.9)));
        shares = 0;
      }
      const comments = Math.round(
        likes * cap(prng.logNormal(platform === 'clipnet' ? 0.012 : 0.02, 0.6), 0, 0.3),
      );
      const post: PostRow = {
        pk: ++postPk,
        platform,
        id: s.pin?.id ?? postIds.next(),
        accountPk: account.pk,
        ts,
        caption,
        code: s.pin?.code ?? codes.next(),
        mediaType,
        views,
        likes,
        comments,
        shares,
      };
      const tags = hashtagsOf(caption);
      sink.post(post, tags);
      if (ts >= -DAILY_SPAN * DAY) for (const t of tags) coverage.add(t, ts);
      counts[`${platform}Posts`]++;

      const n = storedComments(comments);
      const crng = prng.fork(`comments:${post.id}`);
      const cctx: FillContext = { rng: crng, niche, platform, friends: commenters };
      for (let k = 0; k < n; k++) {
        sink.comment(platform, {
          id: commentId(),
          postPk: post.pk,
          ts: commentTime(crng, ts),
          user: crng.chance(0.15) ? crng.pickZipf(commenters) : crng.pick(commenters),
          text: commentText(cctx),
          likes: commentLikes(crng, likes),
        });
      }
      counts[`${platform}Comments`] += n;
    };

    // pass 1: every account and its own posts
    const nAccounts = platform === 'clipnet' ? SIZES.clipnetAccounts : SIZES.picnetAccounts;
    const nicheAt = (i: number) => NICHES[i % NICHES.length] as Niche;
    const pinAt = pinIndexes(pinnedAccounts, nAccounts, nicheAt);
    const creators: Creator[] = [];
    for (let i = 0; i < nAccounts; i++) {
      const niche = nicheAt(i);
      const pin = pinAt.get(i);
      const arng = rng.fork(`account:${i}`);
      const first = arng.pick(FIRST_NAMES);
      const last = arng.pick(LAST_NAMES);
      let handle = pin?.handle ?? creatorHandle(arng, niche, first, last);
      if (!pin) while (!handles.claim(handle)) handle = `${handle}${arng.int(0, 9)}`;
      const drawn = Math.round(
        cap(
          platform === 'clipnet' ? arng.logNormal(40_000, 1.9) : arng.logNormal(25_000, 1.8),
          150,
          60_000_000,
        ),
      );
      const account: AccountRow = {
        pk: ++accountPk,
        platform,
        handle,
        userId: pin?.userId ?? userIds.next(),
        displayName: displayName(arng, niche, first, last),
        niche: niche.key,
        followers: pin?.followers ?? drawn,
      };
      sink.account(account);
      counts[`${platform}Accounts`]++;
      const creator = { account, niche };
      creators.push(creator);

      const rate = arng.logNormal(platform === 'clipnet' ? 0.3 : 0.22, 0.7);
      const plan = schedule(arng, rate);
      // pinned posts are older ones of the account's own
      pinnedPosts
        .filter((p) => p.handle === handle)
        .forEach((p, k) => {
          const older = plan.filter((s) => s.day > 0);
          const s = older[k] ?? (plan[plan.push({ day: arng.int(1, WORLD_DAYS - 1) }) - 1] as Scheduled);
          s.pin = { id: p.id, code: p.code, mediaType: p.mediaType };
        });
      for (const s of plan) emitPost(creator, s, arng);
    }

    // pass 2: the promised hashtags, wherever a slot is still empty
    const frng = rng.fork('fills');
    let fills = 0;
    for (const [tag, today] of unionTargets(TODAY_HASHTAGS[platform], DAILY_HASHTAGS[platform])) {
      const owners = creators.filter((c) => nicheTags(c.niche, platform).includes(tag));
      const from = owners.length > 0 ? owners : creators;
      for (const ts of coverage.gaps(tag, today, frng)) {
        const prng = frng.fork(`fill:${++fills}`);
        emitPost(prng.pick(from), { ts, day: 0, tag }, prng);
      }
    }
  }

  // vidnet
  const rng = new Rng('world:vidnet');
  const commenters = commenterPool(rng.fork('commenters'), 'vidnet', SIZES.commentersPerPlatform);
  const videoIds = new Unique(() => rng.chars(B64URL, 10) + rng.pick('AEIMQUYcgkosw048'.split('')));
  for (const p of PINNED_VIDEOS) videoIds.claim(p.id);
  const browseIds = new Unique(() => `UC${rng.chars(B64URL, 21)}${rng.pick(['A', 'Q', 'g', 'w'])}`);
  for (const p of PINNED_CHANNELS) browseIds.claim(p.browseId);
  let commentSeq = 0;
  const commentId = () => {
    let seq = ++commentSeq;
    let tail = '';
    for (let i = 0; i < 5; i++) {
      tail = B64URL[seq % 64] + tail;
      seq = Math.floor(seq / 64);
    }
    return `Ug${rng.pick(['w', 'x', 'y', 'z'])}${rng.chars(B64URL, 16)}${tail}4AaABAg`;
  };
  const titles = new CaptionSet();
  const channelNames = new Unique(() => '');
  for (const p of PINNED_CHANNELS) channelNames.claim(p.title.toLowerCase());
  const coverage = new Coverage();
  const keywordTargets = unionTargets(TODAY_KEYWORDS, DAILY_KEYWORDS).map(([k]) => [k, terms(k)] as const);
  let videoPk = 0;

  interface Channel {
    channel: ChannelRow;
    niche: Niche;
  }
  interface VideoText {
    title: string;
    description: string;
    duration: number;
  }
  const draftVideo = (ctx: FillContext, isShort: boolean, tag?: string): VideoText => {
    const { rng: vrng } = ctx;
    const duration = isShort ? vrng.int(7, 60) : Math.round(cap(vrng.logNormal(11 * 60, 0.6), 120, 3 * HOUR));
    const title = videoTitle(ctx, isShort);
    return { title, description: videoDescription(ctx, isShort, duration, tag), duration };
  };
  /** a draft whose title no other video has (after a few tries, a numbered part) */
  const uniqueDraft = (ctx: FillContext, isShort: boolean, tag?: string): VideoText => {
    for (let i = 0; i < 12; i++) {
      const text = draftVideo(ctx, isShort, tag);
      if (titles.claim(text.title)) return text;
    }
    const text = draftVideo(ctx, isShort, tag);
    return { ...text, title: titles.make(() => text.title, ctx.rng) };
  };
  const emitVideo = (
    c: Channel,
    ts: number,
    isShort: boolean,
    text: VideoText,
    vrng: Rng,
    pinnedId?: string,
  ): void => {
    const { channel, niche } = c;
    const tags = hashtagsOf(`${text.title}\n${text.description}`);
    const viral = pinnedId ? vrng.logNormal(15, 0.3) : vrng.chance(0.02) ? vrng.logNormal(15, 0.8) : 1;
    const reach = channel.subscribers * ageFactor(ts) * viral;
    const views = Math.max(12, Math.round(reach * vrng.logNormal(isShort ? 0.5 : 0.16, isShort ? 1.4 : 1.1)));
    const likes = Math.round(views * cap(vrng.logNormal(isShort ? 0.045 : 0.035, 0.45), 0.002, 0.3));
    const comments = Math.round(likes * cap(vrng.logNormal(isShort ? 0.02 : 0.045, 0.6), 0, 0.4));
    const video: VideoRow = {
      pk: ++videoPk,
      id: pinnedId ?? videoIds.next(),
      channelPk: channel.pk,
      ts,
      title: text.title,
      description: text.description,
      tags: tags.join(' '),
      duration: text.duration,
      isShort: isShort ? 1 : 0,
      views,
      likes,
      comments,
    };
    sink.video(video, tags);
    if (ts >= -DAILY_SPAN * DAY) {
      for (const t of tags) coverage.add(`#${t}`, ts);
      const words = new Set(terms(`${text.title}\n${text.description}`));
      for (const [k, ks] of keywordTargets) if (ks.every((t) => words.has(t))) coverage.add(k, ts);
    }
    counts.vidnetVideos++;
    if (isShort) counts.vidnetShorts++;
    const n = storedComments(comments);
    const mrng = vrng.fork(`comments:${video.id}`);
    const mctx: FillContext = { rng: mrng, niche, platform: 'vidnet', friends: commenters };
    for (let k = 0; k < n; k++) {
      sink.videoComment({
        id: commentId(),
        postPk: video.pk,
        ts: commentTime(mrng, ts),
        user: mrng.chance(0.15) ? mrng.pickZipf(commenters) : mrng.pick(commenters),
        text: commentText(mctx),
        likes: commentLikes(mrng, likes),
      });
    }
    counts.vidnetComments += n;
  };

  // pass 1: every channel and its own uploads
  const nicheAt = (i: number) => NICHES[(i * 7) % NICHES.length] as Niche;
  const pinAt = pinIndexes(PINNED_CHANNELS, SIZES.vidnetChannels, nicheAt);
  const channels: Channel[] = [];
  for (let i = 0; i < SIZES.vidnetChannels; i++) {
    const niche = nicheAt(i);
    const pin = pinAt.get(i);
    const crng = rng.fork(`channel:${i}`);
    const first = crng.pick(FIRST_NAMES);
    const last = crng.pick(LAST_NAMES);
    let title = pin?.title ?? '';
    for (let tries = 0; !pin; tries++) {
      const word = crng.pick(niche.channelWords);
      const opts = [
        `${cap1(first)} ${cap1(last)}`,
        `${cap1(first)} ${word}`,
        `${cap1(first)}${word.replace(/\s/g, '')}`,
        `The ${cap1(crng.pick(['daily', 'honest', 'budget', 'weekend', 'lazy', 'curious', 'modern', 'everyday']))} ${word}`,
        `${word} with ${cap1(first)}`,
      ];
      title = crng.pick(opts);
      if (tries > 4) title = `${title} ${crng.int(2, 99)}`;
      if (channelNames.claim(title.toLowerCase())) break;
    }
    const channel: ChannelRow = {
      pk: i + 1,
      browseId: pin?.browseId ?? browseIds.next(),
      title,
      handle: title.toLowerCase().replace(/[^a-z0-9]+/g, ''),
      niche: niche.key,
      subscribers: pin?.subscribers ?? Math.round(cap(crng.logNormal(30_000, 1.9), 80, 80_000_000)),
    };
    sink.channel(channel);
    counts.vidnetChannels++;
    const c = { channel, niche };
    channels.push(c);

    const ctx: FillContext = { rng: crng, niche, platform: 'vidnet', friends: commenters };
    const longRate = crng.logNormal(0.11, 0.6);
    const shortRate = crng.chance(0.3) && !pin ? 0 : crng.logNormal(0.22, 0.8);
    const plan = [
      ...schedule(crng, longRate).map((s) => ({ ...s, isShort: false })),
      ...(shortRate > 0 ? schedule(crng, shortRate).map((s) => ({ ...s, isShort: true })) : []),
    ];
    // pinned videos are older ones of the channel's own
    PINNED_VIDEOS.filter((p) => p.browseId === channel.browseId).forEach((p, k) => {
      const older = plan.filter((s) => s.day > 0 && s.isShort === p.isShort);
      const s =
        older[k] ??
        (plan[plan.push({ day: crng.int(1, WORLD_DAYS - 1), isShort: p.isShort }) - 1] as Scheduled & {
          isShort: boolean;
        });
      s.pin = { id: p.id };
    });
    for (const s of plan) {
      const ts = postTime(crng, s.day);
      emitVideo(c, ts, s.isShort, uniqueDraft(ctx, s.isShort), crng, s.pin?.id);
    }
  }

  // pass 2: the promised hashtags and keywords, wherever a slot is still empty
  const frng = rng.fork('fills');
  let fills = 0;
  for (const [tag, today] of unionTargets([], DAILY_HASHTAGS.vidnet)) {
    const owners = channels.filter((c) => nicheTags(c.niche, 'vidnet').includes(tag));
    const from = owners.length > 0 ? owners : channels;
    for (const ts of coverage.gaps(`#${tag}`, today, frng)) {
      const vrng = frng.fork(`fill:${++fills}`);
      const c = vrng.pick(from);
      const isShort = tag === 'shorts' || vrng.chance(0.5);
      const ctx: FillContext = { rng: vrng, niche: c.niche, platform: 'vidnet', friends: commenters };
      emitVideo(c, ts, isShort, uniqueDraft(ctx, isShort, tag), vrng);
    }
  }
  for (const [keyword, today] of unionTargets(TODAY_KEYWORDS, DAILY_KEYWORDS)) {
    const want = terms(keyword);
    const owners = channels.filter(
      (c) => c.niche.keywords.includes(keyword) || nicheTags(c.niche, 'vidnet').includes(keyword),
    );
    const from = owners.length > 0 ? owners : channels;
    for (const ts of coverage.gaps(keyword, today, frng)) {
      const vrng = frng.fork(`fill:${++fills}`);
      // draw videos of the keyword's niche until one matches it; a one-word keyword may be
      // carried as a hashtag instead, as descriptions do
      let placed = false;
      for (let tries = 0; tries < 300 && !placed; tries++) {
        const c = vrng.pick(from);
        const isShort = vrng.chance(0.5);
        const ctx: FillContext = { rng: vrng, niche: c.niche, platform: 'vidnet', friends: commenters };
        const tag = tries >= 150 && want.length === 1 ? want[0] : undefined;
        const text = draftVideo(ctx, isShort, tag);
        const words = new Set(terms(`${text.title}\n${text.description}`));
        if (want.every((t) => words.has(t)) && titles.claim(text.title)) {
          emitVideo(c, ts, isShort, text, vrng);
          placed = true;
        }
      }
      if (!placed) throw new Error(`the world's vocabulary never matches the keyword "${keyword}"`);
    }
  }
  return counts;
}
