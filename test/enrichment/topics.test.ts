import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TWEETTOPIC_LABELS } from '../../scripts/eval/topics.js';
import { classifyTopics, customLinks, TAXONOMY } from '../../src/enrichment/topics/index.js';
import { TOPICS } from '../../src/enrichment/topics/lexicon.js';
import { ROOT } from '../../src/paths.js';

describe('classifyTopics (built-in taxonomy)', () => {
  it('has about twenty snake_case topics', () => {
    expect(TAXONOMY.length).toBeGreaterThanOrEqual(18);
    for (const t of TAXONOMY) expect(t).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('documents every topic with the number of cues its lexicon holds', () => {
    const doc = readFileSync(join(ROOT, 'docs/topics-and-keywords.md'), 'utf8');
    const words = (s: string | undefined) => (s ?? '').split(/\s+/).filter(Boolean).length;
    for (const [topic, def] of TOPICS) {
      const row = doc.match(new RegExp(`^\\| \`${topic}\` \\|[^|]*\\| (\\d+) \\|`, 'm'));
      expect(row?.[1], topic).toBe(String(words(def.terms) + words(def.strong)));
    }
  });

  it('returns 1-3 labels from the taxonomy, best first', () => {
    expect(classifyTopics('Messi scored twice as Barcelona won the Champions League final')[0]).toBe(
      'sports',
    );
    expect(classifyTopics('New iPhone update drains the battery, the app keeps crashing')[0]).toBe(
      'technology',
    );
    expect(classifyTopics('Best pizza and pasta in town, the chef is a genius 🍕')[0]).toBe('food_drink');
    expect(classifyTopics('Our flight to Bali got delayed but the hotel is gorgeous #travel')[0]).toBe(
      'travel',
    );
    // "interesting" is no "interest" rate (finance)
    expect(classifyTopics('That was interesting')).not.toContain('finance');
    // "finally" is no "final" (sports) or "finale" (film_tv)
    expect(classifyTopics('Just finished my homework finally')).not.toContain('sports');
    expect(classifyTopics('Just finished my homework finally')).not.toContain('film_tv');
    // "died" and "dead" are mostly a flat battery or a laugh, not news
    expect(classifyTopics('My phone died again')).not.toContain('news');
    expect(classifyTopics("I'm dead 😂")).not.toContain('news');
    expect(classifyTopics('Police say two people died in the crash')).toContain('news');
    // gadgets and flights named by everyday words
    expect(classifyTopics('Loving my new headphones, best purchase ever')).toContain('technology');
    expect(classifyTopics('Just landed in Tokyo, so excited!')).toEqual(['travel']);
    const labels = classifyTopics('Watching the NBA finals with my dad, then a movie on Netflix');
    expect(labels.length).toBeGreaterThanOrEqual(1);
    expect(labels.length).toBeLessThanOrEqual(3);
    for (const l of labels) expect(TAXONOMY).toContain(l);
  });

  it('uses hashtags and emoji', () => {
    expect(classifyTopics('#nowplaying')).toContain('music');
    expect(classifyTopics('🐶🐾')).toContain('pets_animals');
  });

  it('returns nothing when there is no topical signal', () => {
    expect(classifyTopics('lol ok')).toEqual([]);
    expect(classifyTopics('')).toEqual([]);
  });

  it('does not read a function word as the stem of a longer cue ("in" is not "inning")', () => {
    expect(classifyTopics('stuck in traffic again', { categories: ['sports'] })).toEqual([]);
    expect(classifyTopics('we were in the kitchen all evening')).not.toContain('sports');
    expect(classifyTopics('three runs in the ninth inning')).toContain('sports');
  });

  it('does not read a short word as a longer cue whose stem it spells ("box" is not "boxing")', () => {
    expect(classifyTopics('open the box already')).not.toContain('sports');
    expect(classifyTopics('out of the box thinking')).not.toContain('sports');
    expect(classifyTopics('see you fri!')).not.toContain('food_drink');
    expect(classifyTopics('wed night plans anyone')).not.toContain('relationships');
    // the longer words still count, and so do their plurals
    expect(classifyTopics('heavyweight boxing title fight tonight')).toContain('sports');
    expect(classifyTopics('these fries are great')).toContain('food_drink');
    expect(classifyTopics('two weddings in one summer')).toContain('relationships');
  });

  it('reads a word of a two-word name alone as the common word it is', () => {
    // "la", "world", "united", "met" and "fed" were sports, celebrity and finance cues on their own
    expect(classifyTopics('Flights to La Ceiba resumed as the United Nations sent water')).not.toContain(
      'sports',
    );
    const bakery = classifyTopics('We met by the lake and I fed the ducks, the world felt calm');
    for (const label of ['sports', 'entertainment', 'finance']) expect(bakery).not.toContain(label);
    // the names themselves still count
    expect(classifyTopics('Who wins the World Cup?')).toContain('sports');
    expect(classifyTopics('Best looks from the Met Gala red carpet')).toContain('entertainment');
    expect(classifyTopics('Man United signed a new striker')).toContain('sports');
    // "gains" (gym slang) shares its stem with every "gain"
    expect(classifyTopics('Stocks gained 3% today after the Fed held rates')).not.toContain('fitness_health');
    // "serie" (Serie A) shares its stem with "series"
    expect(classifyTopics('What is your favorite framework for time series forecasting?')).not.toContain(
      'sports',
    );
  });

  it('reads a word of a two-word seed phrase alone as the common word it is', () => {
    // "climate change", "prime minister", "red carpet", "ice cream" were split into seed words, so
    // "change" was a news cue, "prime" a politics cue and "red" a celebrity cue on their own
    expect(classifyTopics('Things changed a lot since then')).not.toContain('news');
    expect(classifyTopics('Cancelled my Prime membership')).not.toContain('politics');
    expect(classifyTopics('prime rib for dinner')).not.toContain('politics');
    expect(classifyTopics('I painted the door red')).not.toContain('entertainment');
    // the phrases themselves still count
    expect(classifyTopics('Climate change is real and we must act')).toContain('news');
    expect(classifyTopics('The prime minister resigned tonight')).toContain('politics');
    expect(classifyTopics('Walking the red carpet tonight')).toContain('entertainment');
    expect(classifyTopics('Nothing beats ice cream in summer')).toContain('food_drink');
    expect(classifyTopics('Road trip with the boys this weekend')).toContain('travel');
  });

  it('reads sharing, a break and an apple pie as the everyday words they are', () => {
    // "shares" (finance) and "breaking" (news) have the stems of "share" and "break"; "apple" counted
    // double for technology
    expect(classifyTopics('Thanks for sharing')).not.toContain('finance');
    expect(classifyTopics('Please share this post')).not.toContain('finance');
    expect(classifyTopics('I need a break')).not.toContain('news');
    const pie = classifyTopics('The apple pie was delicious');
    expect(pie).not.toContain('technology');
    expect(pie).toContain('food_drink');
    // the topics still come from their other words
    expect(classifyTopics('Stocks fell and shares dropped 5%')).toContain('finance');
    expect(classifyTopics('BREAKING NEWS: fire downtown')).toContain('news');
    expect(classifyTopics('Breaking: earthquake hits Japan')).toContain('news');
    expect(classifyTopics('New iPhone from Apple')).toContain('technology');
  });

  it('keeps apart words whose stems collide with a word of another topic', () => {
    // "anime" and "animation" stem like "animals", "university" like "universe", "tired" like "tires"
    expect(classifyTopics('Anime night with friends')).not.toContain('pets_animals');
    const animation = classifyTopics('Such beautiful animation');
    expect(animation).not.toContain('pets_animals');
    expect(animation).toContain('film_tv');
    expect(classifyTopics('Got into the university of my dreams')).not.toContain('science');
    expect(classifyTopics('So tired after this week')).not.toContain('automotive');
    // each word still reads as its own topic
    expect(classifyTopics('Saw so many animals at the zoo')).toContain('pets_animals');
    expect(classifyTopics('The universe is expanding faster than we thought')).toContain('science');
    expect(classifyTopics('Applying to universities this fall')).toContain('education');
    expect(classifyTopics('Need new tires for the car')).toContain('automotive');
  });

  it('reads a strong name as itself, not as the common word its stem or its singular is', () => {
    expect(classifyTopics('Feeling patriotic this 4th of July')).not.toContain('sports');
    expect(classifyTopics('I bought a cowboy hat')).not.toContain('sports');
    expect(classifyTopics('An act of valor')).not.toContain('gaming');
    expect(classifyTopics('The emir visited Paris')).not.toContain('travel');
    expect(classifyTopics('Open the window please')).not.toContain('technology');
    expect(classifyTopics('Playing Valorant tonight')).toContain('gaming');
    expect(classifyTopics('Flying Emirates to Dubai')).toContain('travel');
    expect(classifyTopics('Patriots win again')).toContain('sports');
    expect(classifyTopics('Go Cowboys')).toContain('sports');
    expect(classifyTopics('Two new iphones on my desk')).toContain('technology');
    expect(classifyTopics('Windows update broke my laptop')).toContain('technology');
  });

  it('reads winning and losing as no sport by themselves', () => {
    expect(classifyTopics('I lost my keys again')).not.toContain('sports');
    expect(classifyTopics('Who will win the election?')).toEqual(['politics']);
    expect(classifyTopics('Hope I win the lottery')).not.toContain('sports');
    expect(classifyTopics('She won an award for her novel')).not.toContain('sports');
    // a sport's own words still read as sports
    expect(classifyTopics('We won the league on the last day of the season')).toContain('sports');
  });

  it('reads an app update as technology, not news', () => {
    const update = classifyTopics('I hate this new update');
    expect(update).toContain('technology');
    expect(update).not.toContain('news');
    expect(classifyTopics('Breaking news update from the capital')).toContain('news');
  });

  it('reads a placeholder handle as no topic, and the handle of a real account as its topic', () => {
    expect(classifyTopics('@user hello there, what do you think?')).not.toContain('technology');
    expect(classifyTopics('@USER @USER see you tomorrow')).not.toContain('technology');
    expect(classifyTopics('@nba what a finish')).toContain('sports');
  });

  it('reads "watching" as viewing, not as wearing a watch', () => {
    expect(classifyTopics('Watching the debate tonight')).not.toContain('fashion');
    expect(classifyTopics('my new rolex watch')).toContain('fashion');
  });

  it('copes with a 100,000-character text', () => {
    const out = classifyTopics('The stadium crowd cheered the goal. '.repeat(3000));
    expect(out[0]).toBe('sports');
  });
});

describe('classifyTopics (custom categories)', () => {
  const cats = ['pricing', 'customer service', 'shipping', 'battery life'];

  it('expands common analyst labels with related terms and stems', () => {
    expect(
      classifyTopics('Way too expensive for what it is, $80 is a rip-off', { categories: cats }),
    ).toEqual(['pricing']);
    expect(
      classifyTopics('Waited 2 hours on hold and the agent hung up on me', { categories: cats })[0],
    ).toBe('customer service');
    expect(
      classifyTopics('My package still has not arrived, tracking says delayed', { categories: cats })[0],
    ).toBe('shipping');
    expect(classifyTopics('The phone dies by noon, battery drains so fast', { categories: cats })[0]).toBe(
      'battery life',
    );
  });

  it('returns labels exactly as given, only from the list, and [] when none fits', () => {
    const given = ['Pricing', 'Sports'];
    expect(
      classifyTopics('Way cheaper now, $20 discount, and the Lakers won!', { categories: given }).sort(),
    ).toEqual(['Pricing', 'Sports'].sort());
    expect(classifyTopics('Lovely sunset at the beach tonight', { categories: cats })).toEqual([]);
    expect(classifyTopics('anything at all', { categories: [] })).toEqual([]);
  });

  it('reads industry names and weather as the subjects they name', () => {
    const industries = ['apparel', 'electronics', 'transport', 'banking', 'weather'];
    expect(
      classifyTopics('These sneakers and the denim jacket fit perfectly', { categories: industries }),
    ).toEqual(['apparel']);
    expect(
      classifyTopics('My new laptop keeps crashing after the software update', { categories: industries })[0],
    ).toBe('electronics');
    expect(
      classifyTopics('Flight delayed again, stuck at the airport for hours', { categories: industries })[0],
    ).toBe('transport');
    expect(
      classifyTopics('The bank charged me an overdraft fee on my savings account', {
        categories: industries,
      })[0],
    ).toBe('banking');
    expect(
      classifyTopics('Heavy snow and freezing rain expected tonight', { categories: industries }),
    ).toEqual(['weather']);
    // before these names were known, none of the first three linked to any topic
    for (const n of ['apparel', 'electronics', 'transport'])
      expect(Object.keys(customLinks(industries)[n]!).length).toBeGreaterThan(0);
  });

  it('links a name through a two-word cue only by its longer words', () => {
    // man_united, la_liga and met_gala are sports and celebrity cues; "man", "la" and "met" alone are not
    expect(customLinks(['Man Cave', 'Met Office', 'LA Weekly'])).toEqual({
      'Man Cave': {},
      'Met Office': expect.not.objectContaining({ entertainment: expect.anything() }),
      'LA Weekly': expect.not.objectContaining({ sports: expect.anything() }),
    });
    expect(customLinks(['Machine Learning'])['Machine Learning']).toHaveProperty('technology');
  });

  it('maps a label that names a built-in topic to its lexicon', () => {
    expect(
      classifyTopics('Kenobi finale was amazing, season 2 please', { categories: ['Movies', 'Food'] }),
    ).toEqual(['Movies']);
    expect(classifyTopics('That ramen was delicious', { categories: ['Movies', 'Food'] })).toEqual(['Food']);
  });
});

describe('classifyTopics (caller categories named like TweetTopic)', () => {
  const LABELS = TWEETTOPIC_LABELS;

  it('matches label names through the taxonomy they relate to', () => {
    const at = (text: string) => classifyTopics(text, { categories: LABELS });
    expect(at('Messi scored twice as Barcelona won the Champions League final')[0]).toBe('sports');
    expect(at('Best pizza and pasta in town, the chef is a genius 🍕')).toContain('food_&_dining');
    expect(at('New iPhone update drains the battery, the app keeps crashing')).toContain(
      'science_&_technology',
    );
    expect(at('The season finale of the show was amazing, cannot wait for season 2 on Netflix')).toContain(
      'film_tv_&_video',
    );
  });

  it('gives a text 0-3 labels, only from the caller list', () => {
    for (const text of [
      'ok',
      'Watching the NBA finals with my dad, then a movie on Netflix and pizza after the gym',
    ]) {
      const labels = classifyTopics(text, { categories: LABELS });
      expect(labels.length).toBeLessThanOrEqual(3);
      for (const l of labels) expect(LABELS).toContain(l);
    }
    expect(classifyTopics('ok', { categories: LABELS })).toEqual([]);
  });

  it('reads labels named like Object.prototype members as plain words', () => {
    const labels = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'sports'];
    expect(classifyTopics('the constructor of the stadium', { categories: labels })).toContain('constructor');
    expect(classifyTopics('Messi scored twice in the final', { categories: labels })).toEqual(['sports']);
  });
});

describe('classifyTopics (any caller category set)', () => {
  const SET = ['sports', 'politics', 'food'];
  const at = (text: string, categories = SET) => classifyTopics(text, { categories });

  it('gives a text every category it is about (multi-label), best first', () => {
    expect(at('The senator watched the Lakers game and ate pizza during the election debate').sort()).toEqual(
      ['food', 'politics', 'sports'],
    );
    expect(at('Messi scored twice tonight')).toEqual(['sports']);
  });

  it('gives an unrelated text no category', () => {
    expect(at('see you tomorrow, take care')).toEqual([]);
    expect(at('lol ok')).toEqual([]);
  });

  it("matches names written with '&' and '_' through their words", () => {
    const names = ['Food & Drink', 'arts_&_culture', 'celebrity_&_pop_culture', 'Sports'];
    expect(at('The museum opened a new painting exhibition', names)).toEqual(['arts_&_culture']);
    expect(at('Taylor Swift and Selena Gomez on the red carpet', names)).toEqual(['celebrity_&_pop_culture']);
    expect(at('That ramen was delicious', names)).toEqual(['Food & Drink']);
    // "culture" links both names to arts: the name made of it alone keeps the link
    expect(customLinks(names)['celebrity_&_pop_culture']).not.toHaveProperty('arts_culture');
    expect(customLinks(names)['arts_&_culture']).toHaveProperty('arts_culture');
  });

  it("sends a built-in topic no name covers to the name of its neighbour (politics to 'news')", () => {
    expect(at('The senate passed the election bill after a long debate', ['news', 'sports'])).toEqual([
      'news',
    ]);
    expect(
      at('Stocks fell and the bank raised interest rates', ['business_&_entrepreneurs', 'sports']),
    ).toEqual(['business_&_entrepreneurs']);
    // a set that names politics itself keeps it there
    expect(at('The senate passed the election bill after a long debate', ['news', 'politics'])).toContain(
      'politics',
    );
  });

  it('returns a name given twice in different case or spacing once, as first spelled', () => {
    const text = 'What a goal in the final minute, the stadium went wild';
    expect(at(text, ['Sports', 'sports', 'SPORTS ', 'food'])).toEqual(['Sports']);
    expect(at(text, ['sports ', 'Sports'])).toEqual(['sports ']);
  });

  it('never matches a name made of function words only', () => {
    const text = 'The game last night was the best of the season';
    expect(at(text, ['The'])).toEqual([]);
    expect(at(text, ['of a', 'sports'])).toEqual(['sports']);
    // a real name that contains function words still matches
    expect(at('I could watch The Office all day', ['The Office'])).toEqual(['The Office']);
    // an acronym that spells one ("IT") is read through its topic, never through the word "it"
    expect(at('New laptop and the wifi router keep crashing', ['IT', 'Sports'])).toEqual(['IT']);
    expect(at('What a goal, it was amazing', ['IT', 'Sports'])).toEqual(['Sports']);
  });

  it('returns at most three categories', () => {
    const names = ['sports', 'food_&_dining', 'family', 'film_tv_&_video', 'music'];
    const labels = at('Match day! Then pizza with the family, a movie and a concert', names);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.length).toBeLessThanOrEqual(3);
  });
});
