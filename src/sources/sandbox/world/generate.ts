// The world generator: accounts, channels, posts, videos and comments, all drawn from seeded
// streams. Times are offsets in seconds from the start of "today" (UTC): day d before today
// spans [-d*86400, -(d-1)*86400). The reader turns them into absolute times on each call.
import { NICHES, type Niche } from './niches.js';
import { Rng } from './rng.js';
import { COMMENTER_WORDS, FIRST_NAMES, HANDLE_WORDS, LAST_NAMES } from './templates.js';
import {
  commentText,
  type FillContext,
  hashtagsOf,
  longCaption,
  shortCaption,
  videoDescription,
  videoTitle,
} from './text.js';

export const DAY = 86_400;
/** today plus the 89 days before it */
export const WORLD_DAYS = 90;

export const SIZES = {
  clipnetAccounts: 320,
  picnetAccounts: 300,
  vidnetChannels: 220,
  commentersPerPlatform: 6000,
};

export type SocialPlatform = 'clipnet' | 'picnet';

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
  const sec = rng.weighted(HOUR_WEIGHTS) * 3600 + rng.int(0, 3599);
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
  make(gen: () => string, rng: Rng): string {
    for (let i = 0; i < 12; i++) {
      const c = gen();
      if (!this.seen.has(c)) {
        this.seen.add(c);
        return c;
      }
    }
    for (let k = 2; ; k++) {
      const c = `${gen()} (pt ${k + rng.int(0, 9)})`;
      if (!this.seen.has(c)) {
        this.seen.add(c);
        return c;
      }
    }
  }
}

interface Scheduled {
  day: number;
  /** forced into the first seconds of today, so "today" is never empty */
  midnight: boolean;
}

function schedule(rng: Rng, ratePerDay: number, forceMidnight: boolean): Scheduled[] {
  const count = Math.max(3, Math.min(160, Math.round(ratePerDay * WORLD_DAYS * (0.7 + 0.6 * rng.next()))));
  const out: Scheduled[] = [];
  for (let i = 0; i < count; i++) out.push({ day: rng.int(0, WORLD_DAYS - 1), midnight: false });
  if (forceMidnight) out.push({ day: 0, midnight: true });
  return out;
}

function commentTime(rng: Rng, postTs: number): number {
  const room = DAY - 1 - postTs;
  let delay = Math.floor(rng.logNormal(4 * 3600, 1.6));
  if (delay > 25 * DAY) delay = rng.int(60, 25 * DAY);
  if (delay > room) delay = room <= 60 ? rng.int(0, Math.max(0, room)) : rng.int(60, room);
  return postTs + Math.max(1, Math.min(delay, room));
}

function commentLikes(rng: Rng, postLikes: number): number {
  const base = Math.max(0.4, postLikes * 0.0004);
  return Math.floor(rng.logNormal(base, 1.7) * (rng.chance(0.4) ? 0 : 1));
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
  const handles = new Unique(() => '');

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
    // a running counter in the low digits keeps comment ids unique without a lookup set
    let commentSeq = 0;
    const commentId = () => {
      const seq = String(++commentSeq).padStart(8, '0');
      return platform === 'clipnet' ? `7${rng.chars(DIGITS, 10)}${seq}` : `18${rng.chars(DIGITS, 7)}${seq}`;
    };
    const captions = new CaptionSet();
    const nAccounts = platform === 'clipnet' ? SIZES.clipnetAccounts : SIZES.picnetAccounts;
    const midnightEvery = Math.floor(nAccounts / 8);

    for (let i = 0; i < nAccounts; i++) {
      const niche = NICHES[i % NICHES.length] as Niche;
      const arng = rng.fork(`account:${i}`);
      const first = arng.pick(FIRST_NAMES);
      const last = arng.pick(LAST_NAMES);
      let handle = creatorHandle(arng, niche, first, last);
      while (!handles.claim(`${platform}:${handle}`)) handle = `${handle}${arng.int(0, 9)}`;
      const followers = Math.round(
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
        userId: userIds.next(),
        displayName: displayName(arng, niche, first, last),
        niche: niche.key,
        followers,
      };
      sink.account(account);
      counts[`${platform}Accounts`]++;

      const ctx: FillContext = { rng: arng, niche, friends: commenters };
      const rate = arng.logNormal(platform === 'clipnet' ? 0.3 : 0.22, 0.7);
      const plan = schedule(arng, rate, i % midnightEvery === 0);
      for (const s of plan) {
        const ts = s.midnight ? arng.int(0, 2) : postTime(arng, s.day);
        const caption = captions.make(
          () =>
            platform === 'clipnet'
              ? shortCaption(ctx, s.midnight ? 'fyp' : undefined)
              : longCaption(ctx, s.midnight ? 'explore' : undefined),
          arng,
        );
        const viral = arng.chance(0.025) ? arng.logNormal(12, 0.8) : 1;
        const reach = followers * ageFactor(ts) * viral;
        let views: number;
        let likes: number;
        let shares: number;
        let mediaType: string | null = null;
        if (platform === 'clipnet') {
          views = Math.max(40, Math.round(reach * arng.logNormal(0.45, 1.1)));
          likes = Math.round(views * cap(arng.logNormal(0.075, 0.45), 0.004, 0.4));
          shares = Math.round(likes * cap(arng.logNormal(0.04, 0.8), 0, 0.6));
        } else {
          views = 0;
          likes = Math.max(3, Math.round(reach * arng.logNormal(0.035, 0.9)));
          shares = 0;
          mediaType = arng.weighted([
            ['image', 55],
            ['carousel', 30],
            ['video', 15],
          ] as const);
        }
        const comments = Math.round(
          likes * cap(arng.logNormal(platform === 'clipnet' ? 0.012 : 0.02, 0.6), 0, 0.3),
        );
        const post: PostRow = {
          pk: ++postPk,
          platform,
          id: postIds.next(),
          accountPk: account.pk,
          ts,
          caption,
          code: codes.next(),
          mediaType,
          views,
          likes,
          comments,
          shares,
        };
        sink.post(post, hashtagsOf(caption));
        counts[`${platform}Posts`]++;

        const n = storedComments(comments);
        const crng = arng.fork(`comments:${post.id}`);
        const cctx: FillContext = { rng: crng, niche, friends: commenters };
        for (let k = 0; k < n; k++) {
          sink.comment(platform, {
            id: commentId(),
            postPk: post.pk,
            ts: commentTime(crng, ts),
            user: crng.chance(0.15) ? crng.pickZipf(commenters) : crng.pick(commenters),
            text: commentText(cctx, false),
            likes: commentLikes(crng, likes),
          });
        }
        counts[`${platform}Comments`] += n;
      }
    }
  }

  // vidnet
  const rng = new Rng('world:vidnet');
  const commenters = commenterPool(rng.fork('commenters'), 'vidnet', SIZES.commentersPerPlatform);
  const videoIds = new Unique(() => rng.chars(B64URL, 10) + rng.pick('AEIMQUYcgkosw048'.split('')));
  const browseIds = new Unique(() => `UC${rng.chars(B64URL, 21)}${rng.pick(['A', 'Q', 'g', 'w'])}`);
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
  let videoPk = 0;
  const midnightEvery = Math.floor(SIZES.vidnetChannels / 8);
  for (let i = 0; i < SIZES.vidnetChannels; i++) {
    const niche = NICHES[(i * 7) % NICHES.length] as Niche;
    const crng = rng.fork(`channel:${i}`);
    const first = crng.pick(FIRST_NAMES);
    const last = crng.pick(LAST_NAMES);
    let title = '';
    for (let tries = 0; ; tries++) {
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
    const handle = title.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const subscribers = Math.round(cap(crng.logNormal(30_000, 1.9), 80, 80_000_000));
    const channel: ChannelRow = {
      pk: i + 1,
      browseId: browseIds.next(),
      title,
      handle,
      niche: niche.key,
      subscribers,
    };
    sink.channel(channel);
    counts.vidnetChannels++;

    const ctx: FillContext = { rng: crng, niche, friends: commenters };
    const longRate = crng.logNormal(0.11, 0.6);
    const shortRate = crng.chance(0.3) ? 0 : crng.logNormal(0.22, 0.8);
    const midnight = i % midnightEvery === 0;
    const plan = [
      ...schedule(crng, longRate, midnight).map((s) => ({ ...s, isShort: false })),
      ...(shortRate > 0 ? schedule(crng, shortRate, midnight).map((s) => ({ ...s, isShort: true })) : []),
    ];
    for (const s of plan) {
      const ts = s.midnight ? crng.int(0, 2) : postTime(crng, s.day);
      const duration = s.isShort
        ? crng.int(7, 60)
        : Math.round(cap(crng.logNormal(11 * 60, 0.6), 120, 3 * 3600));
      const vtitle = titles.make(() => videoTitle(ctx, s.isShort), crng);
      const description = videoDescription(ctx, s.isShort, duration);
      const tags = hashtagsOf(`${vtitle}\n${description}`);
      const viral = crng.chance(0.02) ? crng.logNormal(15, 0.8) : 1;
      const reach = subscribers * ageFactor(ts) * viral;
      const views = Math.max(
        12,
        Math.round(reach * crng.logNormal(s.isShort ? 0.5 : 0.16, s.isShort ? 1.4 : 1.1)),
      );
      const likes = Math.round(views * cap(crng.logNormal(s.isShort ? 0.045 : 0.035, 0.45), 0.002, 0.3));
      const comments = Math.round(likes * cap(crng.logNormal(s.isShort ? 0.02 : 0.045, 0.6), 0, 0.4));
      const video: VideoRow = {
        pk: ++videoPk,
        id: videoIds.next(),
        channelPk: channel.pk,
        ts,
        title: vtitle,
        description,
        tags: tags.join(' '),
        duration,
        isShort: s.isShort ? 1 : 0,
        views,
        likes,
        comments,
      };
      sink.video(video, tags);
      counts.vidnetVideos++;
      if (s.isShort) counts.vidnetShorts++;
      const n = storedComments(comments);
      const mrng = crng.fork(`comments:${video.id}`);
      const mctx: FillContext = { rng: mrng, niche, friends: commenters };
      for (let k = 0; k < n; k++) {
        sink.videoComment({
          id: commentId(),
          postPk: video.pk,
          ts: commentTime(mrng, ts),
          user: mrng.chance(0.15) ? mrng.pickZipf(commenters) : mrng.pick(commenters),
          text: commentText(mctx, true),
          likes: commentLikes(mrng, likes),
        });
      }
      counts.vidnetComments += n;
    }
  }
  return counts;
}
