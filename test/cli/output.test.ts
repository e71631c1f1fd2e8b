// Output formats and the progress line, on their own.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fitToBudget, worstCaseMilli } from '../../packages/cli/src/budget.js';
import { createWriter, csvField, flatten, toCsv } from '../../packages/cli/src/output.js';
import { Progress } from '../../packages/cli/src/progress.js';

describe('CSV', () => {
  it('quotes fields with commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(0)).toBe('0');
  });

  it('flattens stats and enrichment into columns, arrays joined with |', () => {
    const csv = toCsv([
      {
        id: '1',
        caption: 'hi, "you"',
        stats: { views: 3 },
        enrichment: { topics: ['a', 'b'], sentiment: 'positive' },
      },
      { id: '2', caption: 'x', stats: { views: 4, likes: null } },
    ]);
    expect(csv).toBe(
      'id,caption,stats.views,stats.likes,enrichment.sentiment,enrichment.topics\r\n' +
        '1,"hi, ""you""",3,,positive,a|b\r\n' +
        '2,x,4,,,\r\n',
    );
    expect(flatten({ a: [{ x: 1 }] })).toEqual({ a: '[{"x":1}]' });
  });

  it('writes valid JSON and JSON Lines, also when empty', async () => {
    for (const [format, items, expected] of [
      ['json', [], '[]\n'],
      ['json', [{ a: 1 }, { a: 2 }], '[\n  {"a":1},\n  {"a":2}\n]\n'],
      ['jsonl', [{ a: 1 }, { a: 2 }], '{"a":1}\n{"a":2}\n'],
    ] as const) {
      const s = new PassThrough();
      let text = '';
      s.on('data', (c) => {
        text += c;
      });
      const w = createWriter(format, s, false);
      for (const i of items) w.write(i);
      await w.close();
      expect(text).toBe(expected);
      if (format === 'json') expect(JSON.parse(text)).toEqual(items);
    }
  });
});

describe('progress', () => {
  it('shows pages, items and credits, with a bar when the page count is known', () => {
    expect(Progress.line({ pages: 2, totalPages: 4, items: 150, credits: 153.5 }, 8)).toBe(
      '[####....] 2/4 pages · 150 items · 153.5 credits',
    );
    expect(Progress.line({ pages: 3, totalPages: undefined, items: 30, credits: 33 }, 4, 1)).toBe(
      '[.#..] 3 pages · 30 items · 33 credits',
    );
  });

  it('draws nothing when disabled (stderr is not a terminal)', () => {
    const writes: string[] = [];
    const p = new Progress({ write: (s: string) => writes.push(s) }, false);
    p.update({ pages: 1, totalPages: 2, items: 1, credits: 1 });
    p.clear();
    expect(writes).toEqual([]);
  });
});

describe('worst-case cost', () => {
  it('follows the price table, enrichment and provider included', () => {
    expect(worstCaseMilli('clipnet.posts', { limit: 10 })).toBe(11_000);
    expect(
      worstCaseMilli('clipnet.posts', { limit: 10, enrich: ['sentiment'], llm_provider: 'model-1.5-pro' }),
    ).toBe(16_000);
    expect(worstCaseMilli('picnet.comments', { post_urls: ['a', 'b'], limit_per_post: 50 })).toBe(51_000);
    expect(worstCaseMilli('vidnet.channel_videos', { browse_ids: ['a'], depth: 2 })).toBe(42_000);
    expect(worstCaseMilli('vidnet.channel_shorts', { browse_ids: ['a', 'b'] })).toBe(102_000);
    expect(worstCaseMilli('ml.analyze', { texts: ['a', 'b'], enrich: ['topics', 'keywords'] })).toBe(3_000);
  });

  it('lowers the cap to fit a budget, or refuses', () => {
    expect(fitToBudget('clipnet.posts', { limit: 10 }, 5_500)).toEqual({
      ok: true,
      patch: { limit: 4 },
      worstMilli: 5_000,
    });
    expect(
      fitToBudget('vidnet.search', { keywords: ['a', 'b'], max_posts_per_keyword: 100 }, 12_000),
    ).toMatchObject({
      ok: true,
      patch: { max_posts_per_keyword: 5 },
    });
    expect(fitToBudget('clipnet.posts', { limit: 10 }, 1_999)).toMatchObject({ ok: false });
    expect(fitToBudget('ml.analyze', { texts: ['a'], enrich: ['topics'] }, 999)).toMatchObject({ ok: false });
  });
});
