// What the world promises to callers, beyond what its random draws happen to give: the names the
// docs use (pinned, so that they survive a new world version) and the hashtags and keywords that
// always answer. The generator fills gaps after drawing the world: wherever one of these would
// come back empty, it adds an item from a creator of the matching niche.

export type Platform = 'clipnet' | 'picnet' | 'vidnet';
export type SocialPlatform = 'clipnet' | 'picnet';

export interface PinnedAccount {
  platform: SocialPlatform;
  niche: string;
  handle: string;
  followers: number;
  /** picnet's numeric user id; drawn when absent */
  userId?: string;
}

/** accounts named in the README, the CLI's help and the docs */
export const PINNED_ACCOUNTS: readonly PinnedAccount[] = [
  { platform: 'clipnet', niche: 'tech', handle: 'rafatech', followers: 7_044_671 },
  { platform: 'clipnet', niche: 'music', handle: 'zanedrums', followers: 5_665_952 },
  { platform: 'clipnet', niche: 'comedy', handle: 'thechaoschloe', followers: 3_938_550 },
  { platform: 'clipnet', niche: 'travel', handle: 'noraabroad', followers: 2_187_358 },
  { platform: 'clipnet', niche: 'pets', handle: 'oscartalks', followers: 1_812_869 },
  {
    platform: 'picnet',
    niche: 'pets',
    handle: 'critterswithliam',
    followers: 5_614_189,
    userId: '69365011',
  },
];

/** posts named in the docs (the CLI's help): each is one of its account's older, widely seen
 *  posts; an id not given is drawn */
export const PINNED_POSTS: ReadonlyArray<{
  platform: SocialPlatform;
  handle: string;
  id?: string;
  code: string;
  mediaType?: 'image' | 'carousel' | 'video';
}> = [
  { platform: 'clipnet', handle: 'rafatech', id: '7501921969951202327', code: 'ZS25DQOdY' },
  { platform: 'picnet', handle: 'critterswithliam', code: 'CxD9PthspC3', mediaType: 'image' },
  { platform: 'picnet', handle: 'critterswithliam', code: 'D0YhD-vOg2k', mediaType: 'image' },
];

/** vidnet channels named in the docs; each has both videos and Shorts */
export const PINNED_CHANNELS: ReadonlyArray<{
  niche: string;
  browseId: string;
  title: string;
  subscribers: number;
}> = [
  {
    niche: 'finance',
    browseId: 'UCFTj_UgjSmO3GpS1X1fSzqw',
    title: 'The Everyday Budgeting',
    subscribers: 10_320_045,
  },
  { niche: 'gaming', browseId: 'UCjJIW06Pn16B4JQV2JZBzyw', title: 'Nico Arcade', subscribers: 3_538_829 },
];

/** the length of the blocks of today in which TODAY_* targets have at least one item */
export const TODAY_BLOCK_HOURS = 3;

/** videos named in the docs (the CLI's help): older, widely seen uploads of a pinned channel */
export const PINNED_VIDEOS: ReadonlyArray<{ browseId: string; id: string; isShort: boolean }> = [
  { browseId: 'UCFTj_UgjSmO3GpS1X1fSzqw', id: 'mBPIf85s2S0', isShort: true },
  { browseId: 'UCFTj_UgjSmO3GpS1X1fSzqw', id: '5O6KwFczlHE', isShort: true },
];

/** hashtags with a post at 00:00:00 UTC and at least one in every three hours of the day, so
 *  that `days: 1` finds something at any time; the README and `npm run sandbox:sample` name them */
export const TODAY_HASHTAGS: Readonly<Record<SocialPlatform, readonly string[]>> = {
  clipnet: ['fyp', 'fitness', 'ootd', 'gaming', 'food', 'dance'],
  picnet: ['explore', 'fitness', 'ootd', 'gaming', 'food', 'travel'],
};

/** vidnet keywords with a video at 00:00:00 UTC and at least one in every three hours of the
 *  day, so that `period: "today"` finds something at any time */
export const TODAY_KEYWORDS: readonly string[] = [
  'budgeting',
  'speedrun',
  'piano cover',
  'air fryer',
  'home workout',
];

/** the everyday words people try first on each platform, as hashtags and keywords */
export const EVERYDAY = [
  'food',
  'dance',
  'travel',
  'music',
  'fitness',
  'love',
  'art',
  'gaming',
  'ootd',
  'pets',
  'beauty',
  'makeup',
  'funny',
  'sports',
  'nature',
  'photography',
  'cooking',
  'diy',
  'tech',
  'books',
  'coffee',
  'skincare',
  'recipe',
  'workout',
  'cats',
  'dogs',
  'comedy',
  'motivation',
  'fashion',
];

/** hashtags with items on each of the six days before today (so in every `days: 2`+ window and
 *  among a vidnet hashtag search's newest results), whatever the hour */
export const DAILY_HASHTAGS: Readonly<Record<Platform, readonly string[]>> = {
  clipnet: ['fyp', 'foryou', 'viral', 'booktok', 'gymtok', ...EVERYDAY],
  picnet: ['explore', 'instagood', 'photooftheday', 'bookstagram', ...EVERYDAY],
  vidnet: ['shorts', 'vlog', 'tutorial', ...EVERYDAY],
};

/** vidnet keywords with videos on each of the six days before today */
export const DAILY_KEYWORDS: readonly string[] = [
  ...EVERYDAY.filter((w) => w !== 'ootd'),
  'vlog',
  'tutorial',
  'review',
  'unboxing',
  'outfit',
];

/** blipnet accounts named in the README and the docs */
export const BLIPNET_PINNED_ACCOUNTS: ReadonlyArray<{
  niche: string;
  handle: string;
  did: string;
  displayName: string;
  followers: number;
}> = [
  {
    niche: 'books',
    handle: 'marareads.blipnet.social',
    did: 'did:plc:m4r4r34dsq7vkwzj2xh6nc3b',
    displayName: 'Mara Reads 📚',
    followers: 48_210,
  },
  {
    niche: 'tech',
    handle: 'nico.dev',
    did: 'did:plc:n7c4d3vx5pe2yq4hk7ajzt6w',
    displayName: 'Nico',
    followers: 126_904,
  },
];

/** blipnet hashtags (and so search keywords) with a post at 00:00:00 UTC, in every three hours
 *  of the day and on each of the six days before today */
export const BLIPNET_TODAY_HASHTAGS: readonly string[] = [
  'books',
  'tech',
  'gaming',
  'music',
  'art',
  'coffee',
];
