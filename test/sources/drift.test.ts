import { describe, expect, it } from 'vitest';
import { readItems } from '../../src/sources/drift.js';
import { type SkippedItem, SourceError } from '../../src/sources/interface.js';

const drift = () => {
  throw new SourceError('upstream', 'x changed the shape of a video item (schema drift)');
};

describe('readItems (the drift policy)', () => {
  it('leaves out an unreadable item, reports it, and returns the rest', () => {
    const skips: SkippedItem[] = [];
    const out = readItems([1, 2, 3], (n) => (n === 2 ? drift() : n * 10), {
      backend: 'x',
      what: 'video',
      ctx: { onSkip: (s) => skips.push(s) },
    });
    expect(out).toEqual([10, 30]);
    expect(skips).toEqual([{ backend: 'x', what: 'video', reason: expect.stringContaining('schema drift') }]);
  });

  it('fails as an upstream error when a page had items and none could be read', () => {
    expect(() => readItems([1, 2], drift, { backend: 'x', what: 'video' })).toThrow(
      /sent 2 video item\(s\) of which none could be read/,
    );
  });

  it('drops items that are not ours (undefined) silently, and an empty page is an empty answer', () => {
    const skips: SkippedItem[] = [];
    const ctx = { onSkip: (s: SkippedItem) => skips.push(s) };
    expect(readItems([1, 2], () => undefined, { backend: 'x', what: 'video', ctx })).toEqual([]);
    expect(readItems([], drift, { backend: 'x', what: 'video', ctx })).toEqual([]);
    expect(skips).toEqual([]);
  });

  it('lets errors other than drift through', () => {
    expect(() =>
      readItems(
        [1],
        () => {
          throw new TypeError('bug');
        },
        { backend: 'x', what: 'video' },
      ),
    ).toThrow(TypeError);
  });
});
