import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EnrichmentType, LlmProvider } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { FeatureCache, WORD_NGRAMS } from '../../src/enrichment/engine/features.js';
import { TOKEN_MEMO_SIZE } from '../../src/enrichment/engine/fused.js';
import { gbdtAddBinnedScores, gbdtScores } from '../../src/enrichment/engine/gbdt.js';
import {
  hoistBoundaries,
  INTENT_DENSE_INPUTS,
  INTENT_MODEL_FILE,
  type IntentModelFile,
  intentModelFrom,
  topLevelAlternatives,
  treeBins,
  treeInputs,
} from '../../src/enrichment/engine/intent.js';
import { lexiconFeatures, squashValence } from '../../src/enrichment/engine/lexicon.js';
import { predictSentiment, sentimentAnalyzer } from '../../src/enrichment/engine/sentiment.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';
import { MODELS_DIR, ROOT } from '../../src/paths.js';

const ALL: EnrichmentType[] = ['sentiment', 'topics', 'intent', 'keywords'];
const PROVIDERS: LlmProvider[] = ['model-2.0-flash', 'model-1.5-pro'];
const one = (text: string, provider: LlmProvider = 'model-2.0-flash', types = ALL) =>
  analyze({ texts: [text], types, provider })[0]!;
/** the texts of `texts` whose sentiment reads `sentiment` (in their order) */
const readAs = (sentiment: string, texts: readonly string[], provider: LlmProvider) =>
  texts.filter((t) => one(t, provider).sentiment === sentiment);
/** every text reads as `intent` with both providers */
const expectIntent = (intent: string, texts: readonly string[]) => {
  for (const t of texts) for (const provider of PROVIDERS) expect(one(t, provider).intent, t).toBe(intent);
};

describe('tokenizer', () => {
  it('normalizes social tokens', () => {
    expect(tokenize('Soooo GOOD!!! #blessed @bob http://x.co/a 123 :-( <3 😂')).toEqual([
      '<elong>',
      'soo',
      '<caps>',
      'good',
      '!!',
      '#blessed',
      'blessed',
      '<user>',
      '<url>',
      '<num>',
      ':-(',
      '<3',
      '😂',
    ]);
  });
  it('marks a negation scope up to punctuation', () => {
    expect(tokenize("I don't like it. Fine")).toEqual(['i', "don't", 'NEG_like', 'NEG_it', 'fine']);
    expect(tokenize('never ever good, ok')).toEqual(['never', 'NEG_ever', 'NEG_good', 'ok']);
  });
  it('reads an idiom whose negator negates nothing as one token of its own, with no scope', () => {
    const cases: Array<[string, string[]]> = [
      ["I can't believe how good this is", ['i', '<cant_believe>', 'how', 'good', 'this', 'is']],
      ['I can not believe it', ['i', 'can', '<cant_believe>', 'it']],
      ["I couldn't stop watching this", ['i', '<cant_stop>', 'watching', 'this']],
      ["CAN'T GET ENOUGH of it", ['<caps>', '<cant_get_enough>', 'of', 'it']],
      ['No doubt he is the best', ['<no_doubt>', 'he', 'is', 'the', 'best']],
      ['not only cheap', ['<not_only>', 'cheap']],
      ["Not gonna lie, it's good", ['<not_gonna_lie>', "it's", 'good']],
      ["I'm not going to lie this is good", ["i'm", '<not_gonna_lie>', 'this', 'is', 'good']],
      ["I won't lie", ['i', '<not_gonna_lie>']],
      ['This never gets old', ['this', '<never_gets_old>']],
    ];
    for (const [text, tokens] of cases) expect(tokenize(text), text).toEqual(tokens);
    // a comparative after "can't / couldn't be / get (any)" or "never been / felt / looked"
    expect(tokenize("I couldn't be happier")).toEqual(['i', "couldn't", 'be', 'happier']);
    expect(tokenize("it can't get any worse")).toEqual(['it', "can't", 'get', 'any', 'worse']);
    expect(tokenize('never felt BETTER')).toEqual(['never', 'felt', '<caps>', 'better']);
  });
  it('keeps the scope of negations that look like those idioms', () => {
    expect(tokenize("it isn't any better")).toEqual(['it', "isn't", 'NEG_any', 'NEG_better']);
    expect(tokenize('it will never get better')).toEqual(['it', 'will', 'never', 'NEG_get', 'NEG_better']);
    expect(tokenize("I don't feel better")).toEqual(['i', "don't", 'NEG_feel', 'NEG_better']);
    expect(tokenize("I can't be there")).toEqual(['i', "can't", 'NEG_be', 'NEG_there']);
    expect(tokenize("I don't believe you")).toEqual(['i', "don't", 'NEG_believe', 'NEG_you']);
    expect(tokenize("don't stop")).toEqual(["don't", 'NEG_stop']);
    expect(tokenize("can't stopping")).toEqual(["can't", 'NEG_stopping']);
    expect(tokenize('not gonna go')).toEqual(['not', 'NEG_gonna', 'NEG_go']);
    expect(tokenize('it never gets older')).toEqual(['it', 'never', 'NEG_gets', 'NEG_older']);
    expect(tokenize('not good')).toEqual(['not', 'NEG_good']);
    expect(tokenize("no worries, don't worry")).toEqual(['no', 'NEG_worries', "don't", 'NEG_worry']);
  });
  it('reads a negator with a word of bad judgement right after it as litotes', () => {
    expect(tokenize('not bad')).toEqual(['<litotes>']);
    expect(tokenize('Not bad at all for the price')).toEqual([
      '<litotes>',
      'at',
      'all',
      'for',
      'the',
      'price',
    ]);
    // up to two link words between, read plain
    expect(tokenize("It's not a bad idea")).toEqual(["it's", '<litotes>', 'a', 'idea']);
    expect(tokenize('not too bad')).toEqual(['<litotes>', 'too']);
    expect(tokenize("I don't hate it")).toEqual(['i', '<litotes>', 'it']);
    // further on in the scope a bad word is no litotes: "stupid" here is meant
    expect(tokenize("I don't like this stupid phone")).toEqual([
      'i',
      "don't",
      'NEG_like',
      'NEG_this',
      'NEG_stupid',
      'NEG_phone',
    ]);
    expect(tokenize('not very very very bad')).toEqual([
      'not',
      'NEG_very',
      'NEG_very',
      'NEG_very',
      'NEG_bad',
    ]);
  });
  it('reads complaints, failures and regrets negated, and hedged litotes, as litotes', () => {
    expect(tokenize('No complaints here')).toEqual(['<litotes>', 'here']);
    expect(tokenize("Can't complain")).toEqual(['<litotes>']);
    expect(tokenize('He never disappoints')).toEqual(['he', '<litotes>']);
    expect(tokenize('It never fails to make me smile')).toEqual([
      'it',
      '<litotes>',
      'to',
      'make',
      'me',
      'smile',
    ]);
    expect(tokenize('No regrets')).toEqual(['<litotes>']);
    // a verb of opinion right after the negator may lead up to three link words
    expect(tokenize("I don't think it's bad")).toEqual(['i', '<litotes>', 'think', "it's"]);
    expect(tokenize("I don't think that's a problem")).toEqual(['i', '<litotes>', 'think', "that's", 'a']);
    // only after such a verb: "No it's terrible" says it is
    expect(tokenize("No it's terrible")).toEqual(['no', "NEG_it's", 'NEG_terrible']);
    expect(tokenize("I don't think it's good")).toEqual(['i', "don't", 'NEG_think', "NEG_it's", 'NEG_good']);
  });
  it('handles empty input', () => {
    expect(tokenize('')).toEqual([]);
  });
});

describe('analyze', () => {
  it.each(PROVIDERS)('reads clear sentiment (%s)', (provider) => {
    expect(one('I love this, it is absolutely wonderful!', provider).sentiment).toBe('positive');
    expect(one('This is awful, worst service ever.', provider).sentiment).toBe('negative');
  });

  it.each(PROVIDERS)('negation flips a clear positive (%s)', (provider) => {
    const pos = one('This movie is good.', provider);
    const neg = one('This movie is not good.', provider);
    expect(pos.sentiment).toBe('positive');
    expect(neg.sentiment).not.toBe('positive');
    expect(neg.sentiment_score!).toBeLessThan(pos.sentiment_score!);
  });

  it.each(PROVIDERS)('reads idioms whose negator negates nothing by what they say (%s)', (provider) => {
    for (const text of [
      "I can't believe how good this is",
      "I couldn't be happier with this phone",
      'No doubt he is the best player in the league',
      "I've never felt better",
    ])
      expect(one(text, provider).sentiment, text).toBe('positive');
    expect(one("It can't get any worse", provider).sentiment).toBe('negative');
    expect(one("It isn't any better", provider).sentiment).not.toBe('positive');
    // the idiom's words read nothing negative of themselves: the rest of the text decides
    const idioms = [
      "I can't stop watching this",
      "I couldn't stop smiling",
      'Not gonna lie this is good',
      "I can't get enough of this",
      'This never gets old',
    ];
    expect(readAs('negative', idioms, provider)).toEqual([]);
    expect(one('Not gonna lie this is good', provider).sentiment).toBe('positive');
    const meant = [
      "I can't believe they cancelled it",
      "I can't stop crying, this is so sad",
      "I won't lie, it was bad",
    ];
    expect(readAs('negative', meant, provider)).toEqual(meant);
  });

  it.each(PROVIDERS)('reads litotes as no complaint about the thing (%s)', (provider) => {
    const litotes = [
      'not bad',
      'The food was not bad',
      'not terrible',
      "I don't hate it",
      'Not bad at all for the price',
      "It's not a bad idea",
      'not the worst',
      'No problem at all',
      // negated complaints, failures and regrets, and litotes behind "I don't think"
      'No complaints here',
      "Can't complain",
      'He never disappoints',
      'It never fails to make me smile',
      'No regrets',
      "I don't think it's bad",
      "I don't think that's a problem",
    ];
    expect(readAs('negative', litotes, provider)).toEqual([]);
    expect(one("No it's terrible", provider).sentiment).toBe('negative');
    expect(one("I don't think it's good", provider).sentiment).toBe('negative');
    // a bad word further on in the scope is meant
    expect(one("I don't like this stupid phone", provider).sentiment).toBe('negative');
    expect(one('not good', provider).sentiment).toBe('negative');
    expect(one('The food was bad', provider).sentiment).toBe('negative');
  });

  it.each(PROVIDERS)('reads literal JSON escapes as the characters they stand for (%s)', (provider) => {
    // Tweets exported through JSON twice arrive as 'can\\u2019t'; the reading must be that of "can’t".
    const escaped = 'I can\\u2019t believe it\\u002c the update isn\\u2019t good at all';
    const plain = 'I can’t believe it, the update isn’t good at all';
    expect(one(escaped, provider)).toEqual(one(plain, provider));
    expect(one(escaped, provider).sentiment).toBe('negative');
  });

  it('reads emoji-only and emoticon-only texts', () => {
    expect(one('😍😍😍').sentiment).toBe('positive');
    // the coloured hearts read as the red one does (they read neutral before)
    for (const provider of PROVIDERS) {
      expect(one('💙💙💙', provider).sentiment).toBe('positive');
      expect(one('Game day 💙', provider).sentiment).toBe(one('Game day ❤', provider).sentiment);
    }
    expect(one('😡😡').sentiment).toBe('negative');
    expect(one(':)').sentiment).toBe('positive');
    expect(one(':(').sentiment).toBe('negative');
  });

  it('gives the documented answer for empty text', () => {
    for (const provider of PROVIDERS)
      expect(one('', provider)).toEqual({
        sentiment: 'neutral',
        sentiment_score: 0,
        topics: [],
        intent: 'engagement',
        keywords: [],
      });
  });

  it('returns a valid result for a 100,000-character text', () => {
    const text = 'The delivery was late again and nobody answered my emails. '.repeat(1700).slice(0, 100_000);
    const r = one(text);
    expect(['positive', 'negative', 'neutral']).toContain(r.sentiment);
    expect(r.sentiment_score).toBeGreaterThanOrEqual(-1);
    expect(r.sentiment_score).toBeLessThanOrEqual(1);
    expect(r.intent).toBeDefined();
  });

  it('holds only the requested keys, in the documented order', () => {
    expect(Object.keys(one('great phone', 'model-2.0-flash', ['intent']))).toEqual(['intent']);
    expect(Object.keys(one('great phone', 'model-2.0-flash', ['keywords', 'sentiment']))).toEqual([
      'sentiment',
      'sentiment_score',
      'keywords',
    ]);
    expect(Object.keys(one('great phone'))).toEqual([
      'sentiment',
      'sentiment_score',
      'topics',
      'intent',
      'keywords',
    ]);
  });

  it('keeps the score in [-1, 1] with at most 4 decimals', () => {
    for (const t of [
      'LOVE LOVE LOVE ❤️❤️❤️ best day ever!!!',
      'hate hate hate 😡 worst',
      'ok',
      '?',
      '#',
      '@a',
    ]) {
      const s = one(t).sentiment_score!;
      expect(Math.abs(s)).toBeLessThanOrEqual(1);
      expect(Math.round(s * 1e4) / 1e4).toBe(s);
    }
  });

  it('detects the intents with clear phrasings', () => {
    expect(one('Where can I buy these shoes?').intent).toBe('purchase_intent');
    expect(one('Just ordered the new phone, take my money').intent).toBe('purchase_intent');
    expect(one('You should add a dark mode to the app').intent).toBe('suggestion');
    expect(one('@airline my flight was cancelled and still no refund after 3 weeks, terrible').intent).toBe(
      'complaint',
    );
    expect(one('What time does the show start tomorrow?').intent).toBe('question');
    expect(one('Amazing performance tonight, you are the best! 😍').intent).toBe('praise');
    expect(one('Heading to the beach with friends this weekend').intent).toBe('engagement');
  });

  it('reads buying, advice and thanks phrased less directly', () => {
    expect(one('is the blue one in stock in medium?').intent).toBe('purchase_intent');
    expect(one('I want Taylor Swift tickets for Sunday!!').intent).toBe('purchase_intent');
    expect(one('Please bring back the old menu').intent).toBe('suggestion');
    expect(one('Thanks @support for fixing it so fast!').intent).toBe('praise');
    // offering tickets is not buying them
    expect(one('Anyone want to buy my 2 tickets for Friday? DM me').intent).not.toBe('purchase_intent');
  });

  it('reads feature requests worded as forums and issue trackers word them as suggestions', () => {
    expectIntent('suggestion', [
      'Allow users to export their playlists as CSV files.',
      'Add an option to hide the sidebar when the window is narrow.',
      "It'd be useful if the calendar could show week numbers.",
      "I'd like to be able to pin notes to the top of the list.",
      'We need an option to turn off autoplay on the home page.',
    ]);
    for (const t of [
      // a hypothetical is not a request when nothing is asked for, nor is a need of one's own
      'Winning the lottery would be great, but I never buy a ticket',
      'Need a nap after this week',
      "Allow me to introduce myself, I'm the new guy",
      'Merge conflicts again, ugh',
      'This will be useful for my exam tomorrow',
    ])
      expect(one(t).intent, t).not.toBe('suggestion');
  });

  it('reads terse forum requests as suggestions, which tweets never word so', () => {
    // without the request boost the learned model reads these by their tweet-like neighbours
    expectIntent('suggestion', [
      'Enable background audio for third-party podcast apps.',
      'Expose the camera flash as a torch in the API.',
      'Support for reading NFC tags in the background.',
      'Also allow scheduling of background tasks at a fixed time.',
    ]);
    // the same words without the request's form are not asked for
    for (const t of ['Background audio works fine for me now', 'Reading NFC tags in the background, nice'])
      expect(one(t).intent, t).not.toBe('suggestion');
  });

  it('reads buying as shoppers word it outside tweets', () => {
    expectIntent('purchase_intent', [
      "I'm in the market for a used road bike, nothing over $800",
      'Looking to buy a standing desk for my home office',
      'Is the larger model worth buying if I mostly cook for two?',
      'Saving up for a new camera lens',
    ]);
    // shoppers' questions: the buying pattern's boost keeps them from reading as plain questions
    expectIntent('purchase_intent', [
      'Does anyone sell replacement batteries for this model?',
      'Any deals on air fryers this weekend?',
      'How much is the blue one?',
      'Is this still available? I would like to purchase it',
      'Anyone know where I can get a cheap PS5?',
    ]);
    // asking where to find a manual or help is a question, not buying
    expect(one('Where can I find the user manual for the dishwasher?').intent).toBe('question');
    expect(one('Anyone know where I can get it fixed?').intent).not.toBe('purchase_intent');
    // nor are the idioms that share the words
    for (const t of ['Saving up for a rainy day', 'Looking to buy time until the coach gets back'])
      expect(one(t).intent, t).not.toBe('purchase_intent');
  });

  it('gives byte-identical output in a separate process', () => {
    const texts = ['I love it 😍', 'not good at all :(', 'Where can I buy one?', 'meh', ''];
    const req = { texts, types: ALL, provider: 'model-1.5-pro' as const };
    const here =
      JSON.stringify(analyze(req)) + JSON.stringify(analyze({ ...req, provider: 'model-2.0-flash' }));
    const script = join(ROOT, 'test/enrichment/fixtures/analyze-child.ts');
    const there = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(req)], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(there).toBe(here);
  });

  it('gives the same output whatever the analyzer read before', () => {
    // the per-token sums the engine remembers are bounded (two generations of TOKEN_MEMO_SIZE)
    const texts = ['I love it 😍', 'not good at all :(', 'Where can I buy one?', 'never again!!', 'meh'];
    const run = () => PROVIDERS.map((provider) => JSON.stringify(analyze({ texts, types: ALL, provider })));
    let next = 0;
    const readWords = (n: number) => {
      for (const provider of PROVIDERS)
        for (let i = 0; i < n; i += 500) {
          const words = Array.from(
            { length: Math.min(500, n - i) },
            (_, k) => `w${(next + i + k).toString(36)}`,
          );
          analyze({ texts: [words.join(' ')], types: ['sentiment'], provider });
        }
      next += n;
    };
    const before = run();
    readWords(3 * TOKEN_MEMO_SIZE); // forgotten: computed again
    expect(run()).toEqual(before);
    readWords(TOKEN_MEMO_SIZE); // now only in the older generation: copied from there
    expect(run()).toEqual(before);
  });
});

describe('sentiment lexicon features', () => {
  it('count a word of the lexicon by its valence, and a negated one against it', () => {
    const [pos, neg] = lexiconFeatures(tokenize('I love this, what a wonderful day'));
    expect(pos).toBeGreaterThan(0.5);
    expect(neg).toBe(0);
    const [pos2, neg2] = lexiconFeatures(tokenize("I don't love this"));
    expect(pos2).toBe(0);
    expect(neg2).toBeGreaterThan(0);
    expect(lexiconFeatures(tokenize('the bus leaves at noon'))).toEqual([0, 0]);
  });

  it('stay below 1 however many words a text has', () => {
    const [pos] = lexiconFeatures(tokenize('great '.repeat(5000)));
    expect(pos).toBeGreaterThan(0.99);
    expect(pos).toBeLessThan(1);
  });
});

describe('what the fused sums hand over while reading a text', () => {
  const texts = [
    "I don't love this, it's sooooo BAD :(",
    'Great game tonight!!! @user #win https://t.co/x',
    'the bus leaves at noon, not later',
  ];

  it('are the lexicon sums and word hashes the direct computation gives', () => {
    for (const provider of PROVIDERS)
      for (const text of texts) {
        const tokens = tokenize(text);
        const read = new FeatureCache(tokens);
        predictSentiment(sentimentAnalyzer(provider), read);
        expect(read.lexRead).toBe(true);
        expect(squashValence(read.lexPos, read.lexNeg, [0, 0])).toEqual(lexiconFeatures(tokens));
        expect(read.hashes(WORD_NGRAMS)).toEqual(new FeatureCache(tokens).hashes(WORD_NGRAMS));
      }
  });
});

describe('intent pattern alternations', () => {
  it('split at the top level only, and test each boundary once', () => {
    expect(topLevelAlternatives('\\ba(?:b|c)|[|]x|\\|y')).toEqual(['\\ba(?:b|c)', '[|]x', '\\|y']);
    expect(hoistBoundaries(['\\bfoo\\b|^bar', '\\bbaz', 'qux|^quux'])).toBe(
      '\\b(?:foo\\b|baz)|^(?:bar|quux)|qux',
    );
  });

  it('match exactly where the plain alternation does', () => {
    const alts = ['\\bplease (?:add|make)\\b', '^(?:go|try)\\b', '\\b(?:i|we) wish\\b', '\\?!'];
    const plain = new RegExp(alts.join('|'), 'i');
    const hoisted = new RegExp(hoistBoundaries(alts), 'i');
    for (const t of ['Please add it', 'xplease add', 'go now', 'we go', 'I wish', 'iwish', 'what?!', 'ok'])
      expect(hoisted.test(t)).toBe(plain.test(t));
  });
});

describe('intent model file', () => {
  const file = JSON.parse(readFileSync(join(MODELS_DIR, INTENT_MODEL_FILE), 'utf8')) as IntentModelFile;

  it('carries each provider its trees and their weight, and refuses a file that lost them', () => {
    for (const provider of PROVIDERS) {
      const model = intentModelFrom(file, provider);
      expect(model.treeWeight, provider).toBeGreaterThan(0);
      // the dense inputs, then the presence of the commonest words
      expect(model.trees?.words.length, provider).toBeGreaterThan(0);
      expect(model.trees?.gbdt.features, provider).toBe(INTENT_DENSE_INPUTS + model.trees!.words.length);
      expect(() => intentModelFrom({ ...file, trees: {} }, provider)).toThrow(
        /no trees.*npm run train -- intent/,
      );
      const wrong = {
        ...file.trees![provider]!,
        features: 3,
        edges: file.trees![provider]!.edges.slice(0, 3),
      };
      expect(() => intentModelFrom({ ...file, trees: { [provider]: wrong } }, provider)).toThrow(
        /inconsistent|expected/,
      );
      // trees whose words were lost read another number of inputs than they were fitted on
      expect(() => intentModelFrom({ ...file, treeWords: {} }, provider)).toThrow(
        /expected .* words.*npm run train -- intent/,
      );
    }
  });

  it("gives the trees each text's own words, with none left over from the text read before", () => {
    const trees = intentModelFrom(file, 'model-2.0-flash').trees!;
    const wordAt = new Map([...trees.words].map((b, j) => [b, j]));
    const reused = new Float64Array(trees.gbdt.features);
    const D = INTENT_DENSE_INPUTS;
    const dense = Float64Array.from({ length: D }, (_v, k) => k / D);
    let notATreeWord = 0;
    while (wordAt.has(notATreeWord)) notATreeWord++;
    const first = { dense, words: [trees.words[0]!, trees.words[3]!, notATreeWord, trees.words[0]!] };
    const row = treeInputs(wordAt, first as never, reused);
    expect([...row.subarray(0, D)]).toEqual([...dense]);
    const ones = [...row.subarray(D).keys()].filter((j) => row[D + j] === 1);
    expect(ones).toEqual([0, 3]);
    expect(row.subarray(D).every((v) => v === 0 || v === 1)).toBe(true);
    // the same row, reused for the next text, holds only that text's words
    const next = treeInputs(wordAt, { dense, words: [trees.words[5]!] } as never, reused);
    expect([...next.subarray(D).keys()].filter((j) => next[D + j] === 1)).toEqual([5]);
  });

  it('scores each text through its binned inputs as through its row of inputs, with nothing left from the text before', () => {
    for (const provider of PROVIDERS) {
      const trees = intentModelFrom(file, provider).trees!;
      const wordAt = new Map([...trees.words].map((b, j) => [b, j]));
      const D = INTENT_DENSE_INPUTS;
      let seed = 7;
      const rnd = () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
      // texts with and without the trees' words, zeros and values on either side of the bin edges
      for (let n = 0; n < 300; n++) {
        const dense = Float64Array.from({ length: D }, () => (rnd() < 0.4 ? 0 : rnd() * 2 - 0.5));
        const words = Array.from({ length: Math.floor(rnd() * 30) }, () =>
          rnd() < 0.5 ? trees.words[Math.floor(rnd() * trees.words.length)]! : Math.floor(rnd() * 16384),
        );
        const x = { dense, words } as never;
        const z = new Float64Array(trees.gbdt.classes);
        gbdtAddBinnedScores(trees.gbdt, treeBins(trees, x), 1, z);
        const expected = gbdtScores(trees.gbdt, treeInputs(wordAt, x, new Float64Array(trees.gbdt.features)));
        expect([...z]).toEqual([...expected]);
      }
    }
  });
});
