import { describe, expect, it } from 'vitest';
import type { ClipnetPost } from '../../../src/contract/items.js';
import { unwrapCursor, wrapCursor } from '../../../src/sources/cursor.js';
import { composeSources } from '../../../src/sources/failover.js';
import {
  type ClipnetSource,
  SourceError,
  type SourceErrorKind,
  type VidnetSource,
} from '../../../src/sources/interface.js';
import { rejection } from './helpers.js';

const post = (id: string): ClipnetPost => ({
  id,
  caption: '',
  url: `https://x/${id}`,
  timestamp: '2024-05-01T00:00:00.000Z',
  stats: { views: 0, likes: 0, comments: 0, shares: 0 },
});

function fake(name: string, fail?: SourceErrorKind): ClipnetSource & { calls: Array<string | undefined> } {
  const calls: Array<string | undefined> = [];
  const maybeFail = () => {
    if (fail) throw new SourceError(fail, `${name} says ${fail}`);
  };
  return {
    name,
    kind: 'live',
    calls,
    async userPosts(q) {
      calls.push(q.cursor);
      maybeFail();
      const start = q.cursor ? Number(q.cursor) : 0;
      return {
        items: [0, 1].map((i) => ({ item: post(`${name}-${start + i}`), cursor: String(start + i + 1) })),
        hasMore: true,
      };
    },
    async comments() {
      maybeFail();
      return [];
    },
    async hashtagPosts() {
      maybeFail();
      return [];
    },
  };
}

describe('composeSources', () => {
  it('wraps cursors with the issuing backend and routes continuations back to it', async () => {
    const a = fake('a', 'throttled');
    const b = fake('b');
    const s = composeSources('clipnet', [a, b]);
    expect(s.name).toBe('a');
    const p1 = await s.userPosts({ username: 'u', limit: 2 });
    expect(p1.items[0]?.item.id).toBe('b-0');
    const c = p1.items[1]?.cursor as string;
    expect(unwrapCursor(c)).toEqual({ backend: 'b', cursor: '2' });
    const p2 = await s.userPosts({ username: 'u', limit: 2, cursor: c });
    expect(p2.items[0]?.item.id).toBe('b-2');
    expect(a.calls).toEqual([undefined]); // the continuation never went to a
    expect(b.calls).toEqual([undefined, '2']);
  });

  it('rejects malformed cursors and cursors of other backends', async () => {
    const s = composeSources('clipnet', [fake('a')]);
    const foreign = await rejection(
      s.userPosts({ username: 'u', limit: 1, cursor: wrapCursor('sandbox', '5') }),
    );
    expect(foreign.kind).toBe('bad_cursor');
    expect(foreign.message).toBe(
      'this cursor was issued by backend sandbox, which does not serve clipnet here',
    );
    for (const bad of ['%%%', 'bm90IGpzb24', Buffer.from('{"v":2,"b":"a","c":"1"}').toString('base64url')]) {
      expect((await rejection(s.userPosts({ username: 'u', limit: 1, cursor: bad }))).kind).toBe(
        'bad_cursor',
      );
    }
  });

  it('fails over on throttled/unavailable/upstream/timeout/unsupported, never on not_found', async () => {
    for (const kind of ['throttled', 'unavailable', 'upstream', 'timeout', 'unsupported'] as const) {
      const s = composeSources('clipnet', [fake('a', kind), fake('b')]);
      await expect(s.comments({ post: { id: '1', form: 'id', input: '1' }, limit: 1 })).resolves.toEqual([]);
    }
    const b = fake('b');
    const s = composeSources('clipnet', [fake('a', 'not_found'), b]);
    expect((await rejection(s.hashtagPosts({ hashtag: 'x', days: 1, max: 1 }))).kind).toBe('not_found');
  });

  it('rethrows the last error when every backend fails, and works with one backend', async () => {
    const s = composeSources('clipnet', [fake('a', 'throttled'), fake('b', 'unsupported')]);
    expect((await rejection(s.comments({ post: { id: '1', form: 'id', input: '1' }, limit: 1 }))).kind).toBe(
      'unsupported',
    );
    const one = composeSources('clipnet', [fake('sandbox')]);
    const p = await one.userPosts({ username: 'u', limit: 2 });
    expect(unwrapCursor(p.items[0]?.cursor as string).backend).toBe('sandbox');
  });

  it('composes vidnet sources', async () => {
    const failing: VidnetSource = {
      name: 'youtubei',
      kind: 'live',
      search: async () => {
        throw new SourceError('unavailable', 'off');
      },
      hashtag: async () => [],
      comments: async () => [],
      channelVideos: async () => [],
      channelShorts: async () => [],
    };
    const ok: VidnetSource = {
      ...failing,
      name: 'youtube-data-api',
      search: async () => ({ videos: [], sortingApplied: 'native' }),
    };
    const s = composeSources('vidnet', [failing, ok]);
    await expect(
      s.search({ keyword: 'k', max: 1, depth: 1, period: 'all', sorting: 'date' }),
    ).resolves.toEqual({
      videos: [],
      sortingApplied: 'native',
    });
  });
});
