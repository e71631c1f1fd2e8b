// The shapes cursor values must have before they go back upstream (cursor.ts). The RECORDED
// tokens are ones the real upstreams sent (test/fixtures/live/*/SOURCES.md); the others have the
// form their upstream documents.
import { describe, expect, it } from 'vitest';
import { cursorValue, decodePosition, type TokenShape, upstreamToken } from '../../src/sources/cursor.js';
import { SourceError } from '../../src/sources/interface.js';
import { fixtureJson } from './live/helpers.js';
import { RECORDED } from './live/recorded.js';

const kind = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof SourceError ? e.kind : 'other';
  }
  return undefined;
};

describe('cursor values', () => {
  const real: Array<[TokenShape, string]> = [
    ['graph', 'after'],
    ['graph', 'QVFIUmx1WTBpMGpRWmxJQ2pHZAmpMSzJnUXdqZAVZAMm9nbFdDMENXNGxVQjRt'],
    ['graph', 'MTAxNTExOTQ1MjAwNzI5NDE='],
    ['page-token', 'CBkQAA'],
    ['page-token', RECORDED.youtubeCommentsToken],
    ['continuation', RECORDED.ytSearchContinuation],
    ['continuation', '4qmFsgLBGBIYVUNoOGdIZHR6TzJ0WGQ1OTNfYmpFcldn'],
    ['continuation', 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D'],
    ['digits', RECORDED.tiktokMaxCursor],
    ['provider', '3312345678901234512_1234567'],
    ['provider', RECORDED.igEndCursor],
    ['user-id:provider', `5471203390:${RECORDED.igEndCursor}`],
    ['user-id:provider', '5471203390:'],
  ];
  it.each(real)('accepts a real %s token', (shape, value) => {
    expect(cursorValue(shape, value)).toBe(value);
    expect(upstreamToken(shape, value, 'x')).toBe(value);
  });

  const forged: Array<[TokenShape, string]> = [
    ['graph', 'x){id,followers_count}'],
    ['graph', 'QVFI Um'],
    ['graph', ''],
    ['graph', 'A'.repeat(1025)],
    ['page-token', 'CBkQAA&key=other'],
    ['page-token', 'CBkQ/AA'],
    ['continuation', 'abc"def'],
    ['continuation', 'abc%22def'],
    ['digits', '1611080207000&handle=x'],
    ['digits', '-1'],
    ['provider', 'a b'],
    ['provider', 'a&b=c'],
    ['user-id:provider', 'someone:QVFE'],
    ['user-id:provider', '5471203390'],
  ];
  it.each(forged)(
    'refuses a forged %s value as bad_cursor, and the same from upstream as drift',
    (shape, value) => {
      expect(kind(() => cursorValue(shape, value))).toBe('bad_cursor');
      expect(kind(() => upstreamToken(shape, value, 'x'))).toBe('upstream');
    },
  );

  it('checks the page of a position cursor and bounds its skip', () => {
    expect(decodePosition('["CBkQAA",3]', 'page-token')).toEqual({ page: 'CBkQAA', skip: 3 });
    expect(decodePosition(undefined, 'graph')).toEqual({ page: null, skip: 0 });
    expect(decodePosition('[null,2]', 'graph')).toEqual({ page: null, skip: 2 });
    for (const c of ['["a)b",0]', '["after",-1]', '["after",100000]', '["after"]', '{}', 'x']) {
      expect(
        kind(() => decodePosition(c, 'graph')),
        c,
      ).toBe('bad_cursor');
    }
  });

  it('every page token the recorded Data API answers carry has the page-token shape', () => {
    for (const name of ['search-page1', 'search-page2', 'comment-threads-page1']) {
      const { nextPageToken } = fixtureJson<{ nextPageToken: string }>('youtube-data-api', name);
      expect(cursorValue('page-token', nextPageToken)).toBe(nextPageToken);
    }
  });
});
