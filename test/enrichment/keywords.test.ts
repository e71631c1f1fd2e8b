import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitHashtag } from '../../src/enrichment/keywords/hashtags.js';
import { extractKeywords, stem } from '../../src/enrichment/keywords/index.js';

describe('extractKeywords', () => {
  it('finds noun phrases, names and split hashtags, lowercase and without duplicates', () => {
    const kws = extractKeywords(
      'Huge #BlackFriday deals on the new iPhone at Best Buy! The iPhone deals end Monday.',
    );
    expect(kws).toContain('black friday');
    expect(kws.some((k) => k.includes('iphone'))).toBe(true);
    expect(kws.every((k) => k === k.toLowerCase())).toBe(true);
    expect(new Set(kws.map((k) => k.split(' ').map(stem).join(' '))).size).toBe(kws.length);
  });

  it('ranks the topic of an abstract above filler', () => {
    const text =
      'Neural network controllers for robotic arms. We propose a neural network controller that learns ' +
      'the inverse dynamics of a robotic arm. The neural network controller is compared with a PID controller.';
    const kws = extractKeywords(text, { max: 3 });
    expect(kws[0]).toMatch(/neural network controller/);
    expect(kws).not.toContain('propose');
  });

  it('reads a news-length article as a document: what it repeats outranks what it names once', () => {
    // 352 words, written for this test: bike lanes, loading zones and the city council recur;
    // phrases such as "plan adds" or "street safer" are filler
    const text = readFileSync(join(import.meta.dirname, 'fixtures/news-article.txt'), 'utf8');
    const kws = extractKeywords(text);
    for (const k of ['protected bike lanes', 'harbor street', 'loading zones', 'city council'])
      expect(kws, k).toContain(k);
    expect(kws).not.toContain('plan adds');
    expect(kws).not.toContain('street safer');
  });

  it('cuts phrases of a past-tense news report at its verbs and dates', () => {
    // 277 words, written for this test in the style of a wire report: irregular past verbs ("swept",
    // "struck", "drove", "flew"), a past verb after a plural subject ("airlines cancelled flights")
    // and days after places ("the coast on Monday") must end a phrase, not join it, and a place
    // after "to" is read as a name
    const text = readFileSync(join(import.meta.dirname, 'fixtures/news-report.txt'), 'utf8');
    for (const kws of [extractKeywords(text), extractKeywords(text.split('\n').slice(0, 3).join('\n'))]) {
      expect(kws).toContain('hurricane marta');
      expect(kws).toContain('la ceiba');
      for (const k of kws) expect(k).not.toMatch(/\b(?:swept|struck|drove|flew|cancelled|sunday|monday)\b/);
    }
    // a place after "to" is a name, not a verb ("flights to San Pedro Sula")
    expect(extractKeywords(text)).toContain('san pedro sula');
    // a day that a word names, or that qualifies the noun after it, stays in its phrase
    const sales = extractKeywords('Black Friday sales start early this year. Black Friday deals on laptops.');
    expect(sales.some((k) => k.startsWith('black friday'))).toBe(true);
    expect(extractKeywords('Sunday brunch with the girls at our favourite cafe')).toContain('sunday brunch');
    expect(extractKeywords('Monday night football is back')).toContain('monday night football');
    expect(extractKeywords('The summit in Geneva Sunday ended without a deal')).toContain('geneva');
    // "today", "tonight", "tomorrow" and "yesterday" after a noun date it, as a day of the week does
    expect(extractKeywords('Apple released a new iPhone today')).toEqual(expect.arrayContaining(['iphone']));
    for (const text of [
      'Apple released a new iPhone today',
      'Watching the game tonight with the lads',
      'Going to Chapel Hill tomorrow for Halloween!',
      'Missed the concert yesterday, gutted',
    ])
      for (const k of extractKeywords(text))
        expect(k).not.toMatch(/\b(?:today|tonight|tomorrow|yesterday)\b/);
    expect(extractKeywords('Going to Chapel Hill tomorrow for Halloween!')).toContain('chapel hill');
    // an adjective that opens a name is part of it, in and at the start of a sentence
    expect(extractKeywords('I love New York')).toEqual(['new york']);
    expect(extractKeywords('New York Giants: predictions for the second half')).toContain('new york giants');
    expect(extractKeywords('Great Britain voted to leave')).toContain('great britain');
    expect(extractKeywords('Twilight is still a better love story than The Last Jedi')).toContain(
      'last jedi',
    );
    // not before a word that is no name, nor an ordinal that opens a sentence
    expect(extractKeywords('New entrants are shaking up the industry')).not.toContain('new entrants');
    expect(extractKeywords('First Murray is out for the Dallas Cowboys')).toContain('murray');
    // months likewise
    expect(extractKeywords('My landlord is raising the rent by 18% starting in March.')).not.toContain(
      'march',
    );
    expect(extractKeywords('Dry January is harder than I thought')).toContain('dry january');
    expect(extractKeywords('March Madness brackets are busted already')).toContain('march madness brackets');
  });

  it('ends a phrase at a past verb before a number or a determiner, and never keeps a tally', () => {
    const vote = extractKeywords(
      'The city council voted 7-2 on Monday night to approve the bike lane network. Police arrested two men after the match.',
    );
    expect(vote).toContain('city council');
    expect(vote).toContain('bike lane network');
    for (const k of vote) expect(k).not.toMatch(/\b(?:voted|arrested|7-2)\b/);
    // an -ed word that qualifies the noun after it still joins the phrase
    expect(extractKeywords('Grilled cheese sandwiches are the best lunch')).toContain(
      'grilled cheese sandwiches',
    );
    for (const k of extractKeywords('The 2019-20 season ended early')) expect(k).not.toContain('2019-20');
    const times = extractKeywords('Our store opens Saturday at 10am! Salah scored in the 78th minute');
    for (const k of times) expect(k).not.toMatch(/10am|78th/);
    expect(extractKeywords('Best 90s music playlist')).toContain('90s music playlist');
  });

  it('gives the handle of a real account as a keyword, and a placeholder handle never', () => {
    const k = extractKeywords('@user @USER that justin bieber joke was great, @nba take note');
    expect(k).toContain('justin bieber joke');
    expect(k).toContain('@nba');
    for (const w of k) expect(w).not.toMatch(/^@user/);
  });

  it('cuts phrases at contracted function words', () => {
    for (const text of [
      "They may have a SuperBowl in Dallas, but Dallas ain't winning a SuperBowl",
      "If Cundiff would've made the field goal I could've been eating a sub",
      "Whisper me your steam id but it'll be 1-2 hours",
      "Why's he pointless? It'd be funny if it weren't so pathetic",
    ])
      for (const k of extractKeywords(text)) expect(k, text).not.toMatch(/'/);
  });

  it('reads a bracketed placeholder of anonymized or removed text as no word', () => {
    expect(extractKeywords('[NAME] IS SMILING EVERYONE')).toEqual([]);
    expect(extractKeywords('omg [NAME] and his dad walking out together is so cute')).not.toContain('name');
    expect(extractKeywords("I'm a cradle [RELIGION], so really interesting to hear")).not.toContain(
      'religion',
    );
    expect(extractKeywords('[deleted]')).toEqual([]);
    // the same words unbracketed, and other bracketed words, are words
    expect(extractKeywords('Pick a name for the band')).toContain('name');
    expect(extractKeywords('Watch the new video [VIDEO]')).toContain('video');
  });

  it('reads a verb that is also a noun as the noun after a determiner, and as the verb elsewhere', () => {
    expect(extractKeywords('Just finished my morning run, feeling great')).toContain('morning run');
    expect(extractKeywords('Had a great evening walk')).toContain('evening walk');
    expect(extractKeywords('Waiting at the bus stop for an hour')).toContain('bus stop');
    expect(extractKeywords('Going on a dating show when you have a girlfriend')).toContain('dating show');
    expect(extractKeywords('What a win! The show was amazing')).toEqual(
      expect.arrayContaining(['win', 'show']),
    );
    // a verb stays one: after a plural, before a determiner, a pronoun or an -ing word, after "that"
    const verbs = [
      'The kids run to school',
      'The government cut the budget',
      'Your cousin offers you a ticket',
      'Apps that run on Linux',
      'Tagged as a shitpost stop caring',
    ].flatMap((t) => extractKeywords(t));
    for (const k of verbs) expect(k).not.toMatch(/\b(?:run|cut|offers|stop)\b/);
    expect(verbs).toContain('kids');
    expect(verbs).toContain('budget');
  });

  it('keeps a name apart from the role before it, and a comparative or a verb out of a phrase', () => {
    const match = extractKeywords(
      'The crowd carried us, manager Arne Slot said after Liverpool beat Aston Villa at Anfield.',
    );
    expect(match).toContain('arne slot');
    for (const k of match) expect(k).not.toContain('manager arne');
    // a name after a sentence-opening word is not cut ("Dr. Mei Lin Tan")
    expect(extractKeywords('The fungus grew on the film. Dr. Mei Lin Tan led the study.')).toContain(
      'mei lin tan',
    );
    // an -s word after a subject pronoun is its verb
    const legal = extractKeywords(
      'Is this legal in Ontario? The building is old, if that matters. It crashes daily.',
    );
    expect(legal).toContain('ontario');
    for (const k of legal) expect(k).not.toMatch(/matters|crashes/);
    // a name or a possessive after "that" is not a verb
    const kris = extractKeywords('That Kris Bryant home run was the turning point');
    expect(kris.some((k) => k.startsWith('kris bryant'))).toBe(true);
    const faster = extractKeywords('A soil fungus breaks down plastic waste far faster than expected.');
    expect(faster).toContain('plastic waste');
    for (const k of faster) expect(k).not.toMatch(/\b(?:far|faster)\b/);
  });

  it('drops the fragment a feed cut a post short in, not a word someone trails off after', () => {
    const cut = extractKeywords(
      'A look at the evolution of the iPhone: Apple will unveil the new iPhone on Wednesday. The next iPho... https://t.co/abc',
    );
    expect(cut).toContain('iphone');
    expect(cut).not.toContain('ipho');
    expect(extractKeywords('Packing the tent and the kayak for the weekend...')).toContain('weekend');
  });

  it('respects max and returns nothing for empty or signal-free text', () => {
    const text =
      'Apple unveils the iPhone 15 with a titanium frame, USB-C charging and a faster A17 chip in Cupertino.';
    expect(extractKeywords(text, { max: 2 })).toHaveLength(2);
    expect(extractKeywords('')).toEqual([]);
    expect(extractKeywords('lol ok')).toEqual([]);
    expect(extractKeywords('anything', { max: 0 })).toEqual([]);
  });

  it('handles a 100,000-character text quickly and deterministically', () => {
    const long = 'Solar panels cut energy bills for small farms. '.repeat(2200);
    expect(long.length).toBeGreaterThan(100_000);
    const a = extractKeywords(long);
    expect(a.length).toBeGreaterThan(0);
    expect(extractKeywords(long)).toEqual(a);
    expect(extractKeywords('x'.repeat(100_000))).toEqual([]);
  });

  it('pro returns keywords of the same form', () => {
    const kws = extractKeywords(
      'Customer service at @Delta was slow and my checked luggage was lost in Atlanta',
      { pro: true },
    );
    expect(kws.length).toBeGreaterThan(0);
    expect(kws.every((k) => k === k.toLowerCase())).toBe(true);
  });
});

describe('splitHashtag', () => {
  it('splits camelCase, digits and dictionary compounds', () => {
    expect(splitHashtag('BlackFriday')).toEqual(['black', 'friday']);
    expect(splitHashtag('blackfriday')).toEqual(['black', 'friday']);
    expect(splitHashtag('customerservice')).toEqual(['customer', 'service']);
    expect(splitHashtag('election2020')).toEqual(['election', '2020']);
    expect(splitHashtag('iphone')).toEqual(['iphone']);
  });
});
