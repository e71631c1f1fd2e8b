// The evaluation protocol's splits, all fixed by record id so every run uses the same ones.
//
// For each task one FINAL split is set aside: nothing is trained, tuned or chosen on it, and
// `npm run eval` reads it once per release (`npm run eval -- --cv` leaves it out while
// developing). Everything else (the CV pool: the training and validation files together) is split
// into 5 folds by id; features, hyper-parameters and thresholds are chosen on the folds, and
// figures are reported as mean ± sd over the folds. Tweets also get a time split inside the pool:
// fitted on the older tweets, measured on the newer ones (tweet ids are Twitter snowflakes, which
// order by time).
import { bucket } from './data.js';

export const FOLDS = 5;
/** the CV fold of a record (0-4) */
export const cvFold = (id: string): number => bucket(`${id}#cv`, FOLDS);

/** Final tweets: the newest 10% of tweeteval-train.jsonl by tweet id (4,747 tweets, 9 September
 *  to 29 December 2015), the closest the data gets to "later tweets". */
export const TWEET_FINAL_FROM = 641623746760077312n;
/** Time split inside the pool: dated tweets from this id on (the newest 20% of the pool's dated
 *  tweets, 2-9 September 2015, 8,544 tweets) are "newer" and measured with models fitted on the
 *  older ones (2011 to 2 September 2015). */
export const TWEET_NEWER_FROM = 638936168122449921n;

const snowflake = (id: string): bigint | undefined => (/^\d{15,20}$/.test(id) ? BigInt(id) : undefined);

export function isTweetFinal(id: string): boolean {
  const s = snowflake(id);
  return s !== undefined && s >= TWEET_FINAL_FROM;
}
/** a pool tweet that the time split measures (newer), as opposed to one it fits on */
export function isTweetNewer(id: string): boolean {
  const s = snowflake(id);
  return s !== undefined && s >= TWEET_NEWER_FROM && s < TWEET_FINAL_FROM;
}
/** The newest annotation campaign in the tweets (SemEval 2016: its train, dev, devtest and test
 *  sets: 29,198 of the training file's tweets, 24,451 of them in the pool; every tweet of the final
 *  split and of the time split's newer side is from it). The tweet readout and calibration are
 *  fitted on its tweets only: labels drift between campaigns (what counts as positive rather than
 *  neutral), and what the service reads is later than all of them. */
export const isRecentCampaign = (e: { source?: string }): boolean =>
  e.source?.startsWith('twitter-2016') ?? false;
/** undated tweets (TweetEval val has no ids) are in the pool but in neither side of the time split */
export const isDated = (id: string): boolean => snowflake(id) !== undefined;

/** Final Reddit comments: 10% of GoEmotions train + dev by id. */
export const isRedditFinal = (id: string): boolean => bucket(`${id}#final`, 10) === 0;
/** Final complaints: the fixed 20% by tweet id that training never saw before this protocol. */
export const isComplaintFinal = (id: string): boolean => bucket(id, 5) === 0;
/** Final intent labels, topics and long documents: 20% by id (`file#id` for intent). */
export const isFinal20 = (id: string): boolean => bucket(`${id}#final`, 5) === 0;

/** mean and (sample) standard deviation */
export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, sd: Math.sqrt(v) };
}
