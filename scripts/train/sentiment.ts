// Sentiment training: multinomial logistic regression over hashed n-grams with per-domain
// corrections, trained on SemEval/TweetEval tweets and GoEmotions Reddit comments (ambiguous
// GoEmotions records skipped as hard labels; those of mixed sentiment join with soft targets).
// The Reddit readout, the per-domain class calibration that maximizes macro-recall and the gate's
// sharpness are chosen on 5-fold out-of-fold predictions of the CV pool (training and validation
// files without the final splits, see splits.ts); the shipped models are then refitted on the
// whole pool. Per-fold figures (nested: settings chosen on the other folds), a time split of the
// tweets and a plain reference model are written to models/cv.json for `npm run eval`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmProvider } from '../../src/contract/items.js';
import type { FeatureSpec } from '../../src/enrichment/engine/features.js';
import { FeatureCache } from '../../src/enrichment/engine/features.js';
import { lexiconFeatures, SENTIMENT_LEXICON } from '../../src/enrichment/engine/lexicon.js';
import { encodeModel, type LinearModel, softmax } from '../../src/enrichment/engine/linear.js';
import {
  applyReadout,
  DOMAINS,
  gateLogit,
  memberLogProbs,
  SENTIMENT_MANIFEST,
  type SentimentManifest,
} from '../../src/enrichment/engine/sentiment.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';
import { MODELS_DIR, ROOT } from '../../src/paths.js';
import {
  bucket,
  type Example,
  goEmotions,
  goEmotionsMixed,
  SENTIMENTS,
  type Sentiment,
  tweetEval,
} from './data.js';
import { argmax, macroRecall } from './metrics.js';
import { encodeTokens, nbScale, predictEncoded, quantize, type TrainOptions, train } from './sgd.js';
import {
  cvFold,
  FOLDS,
  isDated,
  isRecentCampaign,
  isRedditFinal,
  isTweetFinal,
  isTweetNewer,
} from './splits.js';

interface Member {
  file: string;
  spec: FeatureSpec;
  opts: Omit<TrainOptions, 'spec' | 'classes' | 'balanced' | 'sqrtNorm' | 'blocks' | 'soft' | 'featScale'>;
  /** also train on the GoEmotions records of mixed sentiment, with soft targets (data.ts) */
  mixed?: boolean;
  /** naive-Bayes feature scales of this strength (sgd.ts nbScale); 0 or absent: none */
  nbBeta?: number;
}

/** GoEmotions records of mixed sentiment, with their soft targets and tokens */
interface Mixed {
  examples: (Example & { target: number[] })[];
  tokens: (readonly string[])[];
}

// Chosen on held-out training data (see docs/enrichment.md): every member has three weight blocks
// per feature (shared, tweet, Reddit) in a 2^18 space; char n-grams add 1-2 points of macro-recall,
// averaging the weights of epochs 2-6 steadies the result, and a word-only member adds the
// diversity that makes averaging two members worth about half a point. The mixed-sentiment
// records (soft targets) and naive-Bayes feature scales (beta 0.3) together gained 0.003 of
// Reddit macro-recall under 5-fold cross-validation (flash: 0.7175 → 0.7209 out of fold), and the
// Reddit readout (fitReadout) another 0.003 (0.7185 → 0.7213 when fitted on 4 folds, measured on
// the 5th).
const MEMBERS: Member[] = [
  {
    file: 'sentiment-a.bin',
    spec: { bits: 18, bigrams: true, charMin: 2, charMax: 5 },
    opts: { epochs: 6, averageFrom: 1, lr: 0.1, l2: 1e-6, seed: 1 },
    mixed: true,
    nbBeta: 0.3,
  },
  {
    file: 'sentiment-b.bin',
    spec: { bits: 18, bigrams: true, charMin: 3, charMax: 5 },
    opts: { epochs: 6, averageFrom: 1, lr: 0.1, l2: 1e-6, seed: 2 },
    mixed: true,
    nbBeta: 0.3,
  },
  {
    file: 'sentiment-c.bin',
    spec: { bits: 18, bigrams: true, charMin: 0, charMax: 0 },
    opts: { epochs: 4, averageFrom: 1, lr: 0.1, l2: 1e-6, seed: 3 },
    mixed: true,
    nbBeta: 0.3,
  },
];
const PROVIDERS: Record<LlmProvider, string[]> = {
  'model-2.0-flash': ['sentiment-a.bin', 'sentiment-c.bin'],
  'model-1.5-pro': ['sentiment-a.bin', 'sentiment-b.bin', 'sentiment-c.bin'],
};
// the gate reads the same n-grams as member a, so it fuses into the same table rows
const GATE = {
  file: 'sentiment-domain.bin',
  spec: { bits: 18, bigrams: true, charMin: 2, charMax: 5 },
  opts: { epochs: 4, averageFrom: 1, lr: 0.1, l2: 1e-6, seed: 4 },
};
const SHARPNESS = [1, 1.5, 2, 2.5, 3, 4, 5, 6];
/** the domains whose reading goes through a fitted readout (fitReadout), which also reads the text's
 *  lexicon features (lexicon.ts): under nested 5-fold CV flash went from 0.682 to 0.695 on tweets,
 *  0.723 to 0.728 on Reddit and 0.631 to 0.638 on the time split against the Reddit readout alone
 *  without them; a tweet readout without them moved tweets by 0.001 (docs/enrichment.md) */
const READOUT: readonly string[] = ['tweet', 'reddit'];
/** The tweet readout and calibration are fitted on the out-of-fold readings of the newest
 *  annotation campaign's tweets only (splits.ts isRecentCampaign), not on all the pool's tweets:
 *  on the time split (fitted on older tweets, measured on newer ones) flash read 0.638 → 0.646,
 *  under 5-fold CV 0.695 → 0.692 over all tweets and 0.671 → 0.673 over that campaign's tweets
 *  (docs/enrichment.md). Models trained with that campaign's tweets counted twice gained less on
 *  the time split (0.641-0.642) and lost more under CV (0.687-0.692), and are not used. Every
 *  training run also measures flash with the tweet reading fitted on all the pool's tweets, on the
 *  same out-of-fold readings, and writes it to models/cv.json beside the shipped fit (`npm run
 *  eval` prints both). */
export const ALL_CAMPAIGNS = 'model-2.0-flash, tweet fit on all campaigns';

const domainIndex = (d: Example['domain']) => DOMAINS.indexOf(d);

/** Additive offsets for negative and positive (neutral fixed at 0) that maximize the macro-recall of
 *  `logProbs`: a grid of step 0.05 over [-1.5, 1.5], then a step of 0.01 around the best point. */
export function calibrate(gold: readonly number[], logProbs: readonly (readonly number[])[]): number[] {
  const n = gold.length;
  const l0 = Float64Array.from(logProbs, (l) => l[0]!);
  const l1 = Float64Array.from(logProbs, (l) => l[1]!);
  const l2 = Float64Array.from(logProbs, (l) => l[2]!);
  const total = [0, 0, 0];
  for (const g of gold) total[g]!++;
  const score = (neg: number, pos: number) => {
    const hit = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const a = l0[i]! + neg;
      const b = l1[i]!;
      const c = l2[i]! + pos;
      const p = a >= b ? (a >= c ? 0 : 2) : b >= c ? 1 : 2;
      if (p === gold[i]) hit[p]!++;
    }
    let s = 0;
    for (let k = 0; k < 3; k++) s += total[k]! > 0 ? hit[k]! / total[k]! : 0;
    return s / 3;
  };
  let best = { score: -1, neg: 0, pos: 0 };
  const search = (centerNeg: number, centerPos: number, step: number, radius: number) => {
    for (let i = -radius; i <= radius; i++)
      for (let j = -radius; j <= radius; j++) {
        const neg = Math.round((centerNeg + i * step) * 100) / 100;
        const pos = Math.round((centerPos + j * step) * 100) / 100;
        const s = score(neg, pos);
        if (s > best.score + 1e-9) best = { score: s, neg, pos };
      }
  };
  search(0, 0, 0.05, 30);
  search(best.neg, best.pos, 0.01, 5);
  return [best.neg, 0, best.pos];
}

/** A readout of a domain reading: a class-balanced 3-class logistic regression on the three
 *  log-probabilities, a constant and the text's lexicon features, fitted by full-batch gradient
 *  descent from zero (400 steps of 0.5, deterministic); weights rounded to 4 decimals. Row k gives
 *  the logit of class k (applyReadout). */
export function fitReadout(
  gold: readonly number[],
  logProbs: readonly (readonly number[])[],
  lex: readonly (readonly number[])[],
): number[][] {
  const n = gold.length;
  const d = 4 + (lex[0]?.length ?? 0);
  const W = [0, 1, 2].map(() => new Array<number>(d).fill(0));
  const count = [0, 0, 0];
  for (const y of gold) count[y]!++;
  const cw = count.map((c) => n / (3 * Math.max(1, c)));
  const x = new Array<number>(d).fill(0);
  x[3] = 1;
  const z = [0, 0, 0];
  for (let it = 0; it < 400; it++) {
    const g = [0, 1, 2].map(() => new Array<number>(d).fill(0));
    for (let i = 0; i < n; i++) {
      const l = logProbs[i]!;
      x[0] = l[0]!;
      x[1] = l[1]!;
      x[2] = l[2]!;
      for (let j = 4; j < d; j++) x[j] = lex[i]![j - 4]!;
      for (let k = 0; k < 3; k++) {
        let v = 0;
        for (let j = 0; j < d; j++) v += W[k]![j]! * x[j]!;
        z[k] = v;
      }
      const m = Math.max(z[0]!, z[1]!, z[2]!);
      let s = 0;
      for (let k = 0; k < 3; k++) {
        z[k] = Math.exp(z[k]! - m);
        s += z[k]!;
      }
      const y = gold[i]!;
      for (let k = 0; k < 3; k++) {
        const err = (z[k]! / s - (k === y ? 1 : 0)) * cw[y]!;
        for (let j = 0; j < d; j++) g[k]![j]! += (err * x[j]!) / n;
      }
    }
    for (let k = 0; k < 3; k++) for (let j = 0; j < d; j++) W[k]![j]! -= 0.5 * g[k]![j]!;
  }
  return W.map((w) => w.map((v) => Math.round(v * 1e4) / 1e4));
}

function trainMembers(
  examples: readonly Example[],
  tokens: readonly (readonly string[])[],
  mixed: Mixed,
  log: (s: string) => void,
): { members: Map<string, LinearModel>; gate: LinearModel } {
  const labels = examples.map((e) => SENTIMENTS.indexOf(e.label as Sentiment));
  const domains = examples.map((e) => domainIndex(e.domain));
  const members = new Map<string, LinearModel>();
  for (const m of MEMBERS) {
    const t0 = performance.now();
    // the mixed records follow the hard-labelled ones, with their soft targets
    const extra = m.mixed ? mixed.examples : [];
    const soft = new Map<number, readonly number[]>();
    extra.forEach((e, j) => {
      soft.set(examples.length + j, e.target);
    });
    const enc = encodeTokens(
      m.mixed ? [...tokens, ...mixed.tokens] : tokens,
      m.spec,
      [...domains, ...extra.map((e) => domainIndex(e.domain))],
      3,
    );
    const y = [...labels, ...extra.map((e) => SENTIMENTS.indexOf(e.label as Sentiment))];
    const dim = (1 << m.spec.bits) * 3;
    const fm = train(enc, y, {
      ...m.opts,
      spec: m.spec,
      classes: SENTIMENTS,
      balanced: true,
      sqrtNorm: true,
      blocks: 3,
      soft: m.mixed ? soft : undefined,
      featScale: m.nbBeta ? nbScale(enc, y, 3, dim, m.nbBeta, soft) : undefined,
    });
    members.set(
      m.file,
      quantize(fm, {
        format: 1,
        producer: `scripts/train.ts: sentiment member ${m.file}, from SemEval/TweetEval train and GoEmotions train`,
        classes: [...SENTIMENTS],
        spec: m.spec,
        sqrtNorm: true,
        calibration: [0, 0, 0],
        blocks: 3,
      }),
    );
    log(
      `  ${m.file}: ${examples.length + extra.length} texts, trained in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  // gate: tweet (0) vs Reddit (1)
  const gateFm = train(encodeTokens(tokens, GATE.spec), domains, {
    ...GATE.opts,
    spec: GATE.spec,
    classes: [...DOMAINS],
    balanced: true,
    sqrtNorm: true,
  });
  const gate = quantize(gateFm, {
    format: 1,
    producer: 'scripts/train.ts: tweet-or-Reddit gate, from SemEval/TweetEval train and GoEmotions train',
    classes: [...DOMAINS],
    spec: GATE.spec,
    sqrtNorm: true,
    calibration: [0, 0],
  });
  return { members, gate };
}

/** what a provider's reading needs besides its members: chosen on out-of-fold predictions */
interface Settings {
  readout: (number[][] | null)[];
  calibration: number[][];
  gateSharpness: number;
}

/** out-of-fold readings of the pool: member log-probabilities [member][text][domain][class] and gate logits */
interface Readings {
  gold: number[];
  domain: number[];
  perMember: Map<string, number[][][]>;
  gateLogits: number[];
  /** each text's lexicon features (lexicon.ts), which the readouts read */
  lex: number[][];
  /** whether a text is a tweet of the newest annotation campaign (splits.ts isRecentCampaign) */
  recent: boolean[];
}

const averagedReading = (r: Readings, files: readonly string[], i: number): number[][] =>
  DOMAINS.map((_d, di) =>
    [0, 1, 2].map((k) => files.reduce((s, f) => s + r.perMember.get(f)![i]![di]![k]!, 0) / files.length),
  );

function mixedLabel(r: Readings, files: readonly string[], st: Settings, i: number): number {
  const logs = averagedReading(r, files, i).map((l, di) => applyReadout(st.readout[di], l, r.lex[i]));
  const g = 1 / (1 + Math.exp(st.gateSharpness * r.gateLogits[i]!));
  const probs = [0, 0, 0];
  DOMAINS.forEach((_d, di) => {
    const p = softmax(logs[di]!.map((l, k) => l + st.calibration[di]![k]!));
    for (let k = 0; k < 3; k++) probs[k]! += (di === 0 ? g : 1 - g) * p[k]!;
  });
  return argmax(probs);
}

/** The readout, the per-domain calibration and the gate's sharpness of a provider, chosen on the
 *  readings of the texts `idx` (each domain's readout and calibration on its own texts, the tweets'
 *  on the newest campaign's tweets only unless `recentFit` is false; the sharpness by the mean over
 *  both domains of the macro-recall of the mixed reading, over all the texts). */
function chooseSettings(
  r: Readings,
  files: readonly string[],
  idx: readonly number[],
  recentFit = true,
): Settings {
  const byDomain = DOMAINS.map((_d, di) => idx.filter((i) => r.domain[i] === di));
  // the tweet reading is fitted to the newest campaign's tweets (ALL_CAMPAIGNS)
  const fitOn = DOMAINS.map((d, di) =>
    d === 'tweet' && recentFit ? byDomain[di]!.filter((i) => r.recent[i]) : byDomain[di]!,
  );
  const averaged = new Map<number, number[][]>(idx.map((i) => [i, averagedReading(r, files, i)]));
  const readout = DOMAINS.map((d, di) =>
    READOUT.includes(d)
      ? fitReadout(
          fitOn[di]!.map((i) => r.gold[i]!),
          fitOn[di]!.map((i) => averaged.get(i)![di]!),
          fitOn[di]!.map((i) => r.lex[i]!),
        )
      : null,
  );
  const calibration = DOMAINS.map((_d, di) =>
    calibrate(
      fitOn[di]!.map((i) => r.gold[i]!),
      fitOn[di]!.map((i) => applyReadout(readout[di], averaged.get(i)![di]!, r.lex[i])),
    ),
  );
  let best = { score: -1, sharpness: 1 };
  for (const sharpness of SHARPNESS) {
    const st = { readout, calibration, gateSharpness: sharpness };
    const perDomain = byDomain.map((d) =>
      macroRecall(
        d.map((i) => r.gold[i]!),
        d.map((i) => mixedLabel(r, files, st, i)),
        3,
      ),
    );
    const score = perDomain.reduce((a, b) => a + b, 0) / DOMAINS.length;
    if (score > best.score + 1e-9) best = { score, sharpness };
  }
  return { readout, calibration, gateSharpness: best.sharpness };
}

/** The shipped lexicon's lines ("word\tvalence") from the VADER lexicon file (word, mean valence,
 *  sd, ratings; tab-separated), lowercased, the first entry of a word kept. */
function lexiconLines(vaderLexicon: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of vaderLexicon.split('\n')) {
    const p = line.split('\t');
    if (p.length < 2) continue;
    const w = p[0]!.trim().toLowerCase();
    const v = Number(p[1]);
    // '#' opens the shipped file's header line
    if (!w || w.startsWith('#') || !Number.isFinite(v) || seen.has(w)) continue;
    seen.add(w);
    out.push(`${w}\t${v}`);
  }
  return out;
}

/** Writes models/sentiment-lexicon.tsv from the VADER lexicon (Hutto and Gilbert 2014, MIT licence)
 *  of the vader-sentiment development dependency: word and mean valence. */
function writeLexicon(log: (s: string) => void): void {
  const source = join(ROOT, 'node_modules', 'vader-sentiment', 'vader_lexicon.txt');
  const lines = lexiconLines(readFileSync(source, 'utf8'));
  const header =
    '# scripts/train/sentiment.ts (npm run train -- sentiment): the VADER lexicon (Hutto and Gilbert 2014, MIT licence), from the vader-sentiment package; word, mean valence (-4 to 4)';
  writeFileSync(join(MODELS_DIR, SENTIMENT_LEXICON), [header, ...lines].join('\n') + '\n');
  log(`sentiment: ${lines.length} lexicon words written to models/${SENTIMENT_LEXICON}`);
}

/** The plain reference: one linear model over word 1-2 + char 2-5 hashed n-grams of one domain's
 *  texts, one weight block, no class balancing, no calibration, the trainer's default settings. */
const PLAIN = {
  spec: { bits: 18, bigrams: true, charMin: 2, charMax: 5 },
  opts: { epochs: 4, averageFrom: 3, lr: 0.1, l2: 1e-6, seed: 9 },
};
function fitPlain(tokens: readonly (readonly string[])[], labels: readonly number[]): LinearModel {
  const fm = train(encodeTokens(tokens, PLAIN.spec), labels, {
    ...PLAIN.opts,
    spec: PLAIN.spec,
    classes: SENTIMENTS,
    balanced: false,
    sqrtNorm: true,
  });
  return quantize(fm, {
    format: 1,
    producer: 'plain reference (not shipped)',
    classes: [...SENTIMENTS],
    spec: PLAIN.spec,
    sqrtNorm: true,
    calibration: [0, 0, 0],
  });
}
const plainLabels = (m: LinearModel, tokens: readonly (readonly string[])[]) =>
  predictEncoded(m, encodeTokens(tokens, m.spec)).map(argmax);

/** The CV pool of the sentiment models: the training and validation files without the final splits. */
export function sentimentPool(): { all: Example[]; mixed: (Example & { target: number[] })[] } {
  const all = [
    ...tweetEval('sentiment/tweeteval-train.jsonl').filter((e) => !isTweetFinal(e.id)),
    ...tweetEval('sentiment/tweeteval-val.jsonl'),
    ...goEmotions('sentiment/goemotions-train.jsonl').filter((e) => !isRedditFinal(e.id)),
    ...goEmotions('sentiment/goemotions-dev.jsonl').filter((e) => !isRedditFinal(e.id)),
  ];
  const mixed = [
    ...goEmotionsMixed('sentiment/goemotions-train.jsonl'),
    ...goEmotionsMixed('sentiment/goemotions-dev.jsonl'),
  ].filter((e) => !isRedditFinal(e.id));
  // TRAIN_SAMPLE=<percent> keeps that share of the pool, to try the script quickly (never for shipped files)
  const pct = Number(process.env.TRAIN_SAMPLE ?? 100);
  const keep = (e: Example) => pct >= 100 || bucket(`${e.id}#sample`, 100) < pct;
  return { all: all.filter(keep), mixed: mixed.filter(keep) };
}

/** The final splits (read by `npm run eval` only). */
export function sentimentFinal(): { tweets: Example[]; reddit: Example[] } {
  return {
    tweets: tweetEval('sentiment/tweeteval-train.jsonl').filter((e) => isTweetFinal(e.id)),
    reddit: [
      ...goEmotions('sentiment/goemotions-train.jsonl'),
      ...goEmotions('sentiment/goemotions-dev.jsonl'),
    ].filter((e) => isRedditFinal(e.id)),
  };
}

export const CV_FILE = 'cv.json';
export interface CvFigures {
  producer: string;
  /** per-fold macro-recall, by measure, then by model (model-2.0-flash, model-1.5-pro, plain) */
  sentiment: Record<'tweets' | 'reddit' | 'tweets_time', Record<string, number[]>>;
}

export function trainSentimentModels(log: (s: string) => void): void {
  writeLexicon(log);
  const { all, mixed: mixedAll } = sentimentPool();
  const allTokens = all.map((e) => tokenize(e.text));
  const fold = all.map((e) => cvFold(e.id));
  const gold = all.map((e) => SENTIMENTS.indexOf(e.label as Sentiment));
  const mixedTokens = mixedAll.map((e) => tokenize(e.text));
  const mixedOf = (keep: (e: Example) => boolean): Mixed => {
    const idx = mixedAll.flatMap((e, i) => (keep(e) ? [i] : []));
    return { examples: idx.map((i) => mixedAll[i]!), tokens: idx.map((i) => mixedTokens[i]!) };
  };
  log(
    `sentiment: CV pool of ${all.length} texts (+ ${mixedAll.length} of mixed sentiment), ${FOLDS} folds; final splits left out`,
  );
  const readings: Readings = {
    gold,
    domain: all.map((e) => domainIndex(e.domain)),
    perMember: new Map(MEMBERS.map((m) => [m.file, new Array(all.length)])),
    gateLogits: new Array<number>(all.length),
    lex: allTokens.map((t) => lexiconFeatures(t, [0, 0])),
    recent: all.map(isRecentCampaign),
  };
  const cv: CvFigures['sentiment'] = { tweets: {}, reddit: {}, tweets_time: {} };
  const push = (measure: keyof CvFigures['sentiment'], model: string, v: number) => {
    cv[measure][model] ??= [];
    cv[measure][model].push(Math.round(v * 1e4) / 1e4);
  };
  const byDomainIn = (idx: readonly number[]) =>
    DOMAINS.map((_d, di) => idx.filter((i) => readings.domain[i] === di));

  // 1. out-of-fold readings: every member and the gate are trained on 4 folds and read the 5th;
  // the plain reference of each domain likewise
  for (let f = 0; f < FOLDS; f++) {
    const inner = all.flatMap((_e, i) => (fold[i] === f ? [] : [i]));
    const outer = all.flatMap((_e, i) => (fold[i] === f ? [i] : []));
    log(`  fold ${f + 1}/${FOLDS}: training on ${inner.length} texts`);
    const fit = trainMembers(
      inner.map((i) => all[i]!),
      inner.map((i) => allTokens[i]!),
      mixedOf((e) => cvFold(e.id) !== f),
      log,
    );
    for (const i of outer) {
      const cache = new FeatureCache(allTokens[i]!);
      for (const [file, model] of fit.members)
        readings.perMember.get(file)![i] = memberLogProbs([model], cache);
      readings.gateLogits[i] = gateLogit(fit.gate, cache);
    }
    const innerBy = byDomainIn(inner);
    const outerBy = byDomainIn(outer);
    DOMAINS.forEach((_d, di) => {
      const m = fitPlain(
        innerBy[di]!.map((i) => allTokens[i]!),
        innerBy[di]!.map((i) => gold[i]!),
      );
      const pred = plainLabels(
        m,
        outerBy[di]!.map((i) => allTokens[i]!),
      );
      push(
        di === 0 ? 'tweets' : 'reddit',
        'plain',
        macroRecall(
          outerBy[di]!.map((i) => gold[i]!),
          pred,
          3,
        ),
      );
    });
  }

  // 2. per fold, each provider's settings chosen on the other 4 folds' readings and measured on
  // this one (nested: the figure never sees its own choice); then the shipped settings, chosen on
  // all the readings
  const providers = {} as SentimentManifest['providers'];
  // the shipped providers, then flash with the tweet reading fitted on all the pool's tweets (a
  // reference: measured, not shipped)
  interface Measured {
    name: string;
    files: string[];
    recentFit: boolean;
    shipped?: LlmProvider;
  }
  const measured: Measured[] = [
    ...(Object.entries(PROVIDERS) as [LlmProvider, string[]][]).map(([p, files]) => ({
      name: p,
      files,
      recentFit: true,
      shipped: p,
    })),
    { name: ALL_CAMPAIGNS, files: PROVIDERS['model-2.0-flash'], recentFit: false },
  ];
  for (const { name: provider, files, recentFit, shipped } of measured) {
    for (let f = 0; f < FOLDS; f++) {
      const st = chooseSettings(
        readings,
        files,
        all.flatMap((_e, i) => (fold[i] === f ? [] : [i])),
        recentFit,
      );
      const outerBy = byDomainIn(all.flatMap((_e, i) => (fold[i] === f ? [i] : [])));
      DOMAINS.forEach((_d, di) => {
        push(
          di === 0 ? 'tweets' : 'reddit',
          provider,
          macroRecall(
            outerBy[di]!.map((i) => gold[i]!),
            outerBy[di]!.map((i) => mixedLabel(readings, files, st, i)),
            3,
          ),
        );
      });
    }
    if (shipped === undefined) continue;
    const st = chooseSettings(readings, files, Array.from(all.keys()));
    providers[shipped] = { members: files, ...st };
    log(
      `  ${provider}: members ${files.join(', ')}; ${JSON.stringify(st)}; per-fold tweets ${cv.tweets[provider]!.join(' ')}, Reddit ${cv.reddit[provider]!.join(' ')}`,
    );
  }
  log(`  plain: per-fold tweets ${cv.tweets.plain!.join(' ')}, Reddit ${cv.reddit.plain!.join(' ')}`);

  // 3. time split: fitted on everything but the newer dated tweets, measured on those; settings
  // chosen on the readings of the texts it fits on
  {
    const older = all.flatMap((e, i) => (isTweetNewer(e.id) ? [] : [i]));
    const newer = all.flatMap((e, i) => (isTweetNewer(e.id) ? [i] : []));
    log(`  time split: fitting on ${older.length} texts, measuring on ${newer.length} newer tweets`);
    const fit = trainMembers(
      older.map((i) => all[i]!),
      older.map((i) => allTokens[i]!),
      mixedOf(() => true),
      log,
    );
    const r: Readings = {
      gold,
      domain: readings.domain,
      perMember: new Map(MEMBERS.map((m) => [m.file, new Array(all.length)])),
      gateLogits: [...readings.gateLogits],
      lex: readings.lex,
      recent: readings.recent,
    };
    for (const f of MEMBERS) r.perMember.set(f.file, [...readings.perMember.get(f.file)!]);
    for (const i of newer) {
      const cache = new FeatureCache(allTokens[i]!);
      for (const [file, model] of fit.members) r.perMember.get(file)![i] = memberLogProbs([model], cache);
      r.gateLogits[i] = gateLogit(fit.gate, cache);
    }
    for (const { name: provider, files, recentFit } of measured) {
      const st = chooseSettings(readings, files, older, recentFit);
      push(
        'tweets_time',
        provider,
        macroRecall(
          newer.map((i) => gold[i]!),
          newer.map((i) => mixedLabel(r, files, st, i)),
          3,
        ),
      );
    }
    const olderTweets = older.filter((i) => readings.domain[i] === 0 && isDated(all[i]!.id));
    const plain = fitPlain(
      olderTweets.map((i) => allTokens[i]!),
      olderTweets.map((i) => gold[i]!),
    );
    push(
      'tweets_time',
      'plain',
      macroRecall(
        newer.map((i) => gold[i]!),
        plainLabels(
          plain,
          newer.map((i) => allTokens[i]!),
        ),
        3,
      ),
    );
    log(`  time split, newer tweets: ${JSON.stringify(cv.tweets_time)}`);
    // SENTIMENT_DUMP=<file>: the out-of-fold and time-split readings, for trying readouts offline
    if (process.env.SENTIMENT_DUMP)
      writeFileSync(
        process.env.SENTIMENT_DUMP,
        JSON.stringify({
          ids: all.map((e) => e.id),
          fold,
          gold,
          domain: readings.domain,
          newer,
          oof: Object.fromEntries(readings.perMember),
          gate: readings.gateLogits,
          time: Object.fromEntries(r.perMember),
          timeGate: r.gateLogits,
        }),
      );
  }

  // 4. refit on the whole pool with the same settings; the settings carry over
  log('  final models, on the whole pool');
  const final = trainMembers(
    all,
    allTokens,
    mixedOf(() => true),
    log,
  );
  for (const [file, model] of final.members) writeFileSync(join(MODELS_DIR, file), encodeModel(model));
  writeFileSync(join(MODELS_DIR, GATE.file), encodeModel(final.gate));
  const manifest: SentimentManifest = {
    producer:
      'scripts/train.ts from SemEval 2013-2016 / TweetEval sentiment train + val and GoEmotions train + dev (Demszky et al. 2020), final splits left out',
    gate: GATE.file,
    providers,
  };
  writeFileSync(join(MODELS_DIR, SENTIMENT_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  writeCv({ sentiment: cv });
}

/** merges figures into models/cv.json (the CV figures `npm run eval` prints) */
export function writeCv(part: Partial<Omit<CvFigures, 'producer'>> & Record<string, unknown>): void {
  const file = join(MODELS_DIR, CV_FILE);
  const old = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const out = { ...old, producer: 'scripts/train.ts: per-fold figures of the cross-validation', ...part };
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
}
