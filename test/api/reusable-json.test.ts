// JsonBytes must write exactly the UTF-8 bytes of what JSON.stringify writes, whether or not parts of the value
// are reusable (their kept JSON text spliced in), and a reusable value must not change under it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBytes, knownJson, reusable } from '../../src/reusable-json.js';

const renderJsonBytes = (v: unknown) => new JsonBytes().value(v).bytes();

const json = fc.jsonValue();
const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Number.NaN),
  fc.constant(new Date(0)),
);

describe('JsonBytes', () => {
  it('is JSON.stringify for any value, holes and odd members included', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        json,
        odd,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(renderJsonBytes(v).equals(Buffer.from(JSON.stringify(v) ?? '', 'utf8'))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('splices the kept text of reusable items and writes the same bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string({ unit: 'grapheme' }), json), { maxLength: 5 }),
        (items) => {
          const plain = { success: true, data: { posts: items, cursor: null }, metadata: { n: 1 } };
          const expected = JSON.stringify(plain);
          const shared = { ...plain, data: { ...plain.data, posts: items.map((i) => reusable({ ...i })) } };
          expect(renderJsonBytes(shared).toString('utf8')).toBe(expected);
        },
      ),
    );
  });

  it('builds an envelope around values piece by piece, byte-identical to JSON.stringify', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), json), { maxLength: 4 }), json, (items, meta) => {
        const data = { posts: items.map((i) => reusable({ ...i })), cursor: 'c1' };
        const body = new JsonBytes()
          .raw('{"success":true,"data":')
          .value(data, 3)
          .raw(`,"metadata":${JSON.stringify(meta)}}`)
          .bytes();
        expect(body.toString('utf8')).toBe(JSON.stringify({ success: true, data, metadata: meta }));
      }),
    );
  });

  it('reuses a page of reusable items only while it holds the same items', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => reusable({ id }));
    const text = (v: unknown) => renderJsonBytes(v).toString('utf8');
    expect(text({ posts: [a, b] })).toBe('{"posts":[{"id":"a"},{"id":"b"}]}');
    expect(text({ posts: [a, c] })).toBe('{"posts":[{"id":"a"},{"id":"c"}]}');
    expect(text({ posts: [a, c, b] })).toBe('{"posts":[{"id":"a"},{"id":"c"},{"id":"b"}]}');
    expect(text({ posts: [a, b] })).toBe('{"posts":[{"id":"a"},{"id":"b"}]}');
    expect(text({ posts: [a, { id: 'x' }] })).toBe('{"posts":[{"id":"a"},{"id":"x"}]}');
  });

  it('writes emoji and other non-Latin-1 text as UTF-8, kept or not', () => {
    const item = reusable({ caption: 'ready 🔥 café', n: 1 });
    const reply = { data: [item, { caption: 'ünïcode ✓' }], note: 'ok 😀' };
    expect(renderJsonBytes(reply).toString('utf8')).toBe(JSON.stringify(reply));
    expect(JSON.parse(renderJsonBytes(reply).toString('utf8'))).toEqual(reply);
  });

  it('freezes a reusable value deeply, so its kept text cannot go stale', () => {
    const item = reusable({ id: 'a', stats: { likes: 1 } });
    expect(() => {
      (item.stats as { likes: number }).likes = 2;
    }).toThrow(TypeError);
    expect(renderJsonBytes([item]).toString('utf8')).toBe('[{"id":"a","stats":{"likes":1}}]');
  });

  it('writes the recorded text of a knownJson value, frozen, beside kept bytes and plain values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string({ unit: 'grapheme' }), json), { maxLength: 5 }),
        (items) => {
          const expected = JSON.stringify({
            results: items.map((e, i) => ({ text: `t${i}`, enrichment: e })),
          });
          const results = items.map((e, i) => {
            const copy = { ...e };
            const enrichment = i % 2 === 0 ? knownJson(copy, JSON.stringify(copy)) : copy;
            return { text: `t${i}`, enrichment };
          });
          expect(renderJsonBytes({ results }).toString('utf8')).toBe(expected);
          // an array of knownJson values is not taken for a page of reusable ones
          const known = items.map((e) => knownJson({ ...e }, JSON.stringify(e)));
          expect(renderJsonBytes([reusable({ id: 'a' }), ...known]).toString('utf8')).toBe(
            JSON.stringify([{ id: 'a' }, ...items]),
          );
        },
      ),
    );
    const e = knownJson({ topics: ['x'] }, '{"topics":["x"]}');
    expect(() => {
      (e.topics as string[]).push('y');
    }).toThrow(TypeError);
  });
});
