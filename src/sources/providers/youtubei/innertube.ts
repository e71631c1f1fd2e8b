// Readers of the raw JSON of the platform's web API (InnerTube), and the encoders of the few
// request parameters the backend sends. Kept apart from the backend (youtubei.ts) so that each
// recorded layout they were checked against can be named beside the code that reads it (the
// recordings: test/fixtures/live/youtubei/SOURCES.md).
//
// A page is read in two steps. pageList() finds the page's list of items (a browse tab's grid,
// the search results' item sections, the continuationItems of a continuation answer) and the
// page's own continuation token: the continuationItemRenderer that is a member of that list,
// never one nested inside an item (a comment thread's "view replies" token, a shelf's). Then
// each item is read by kind: a kind that is not a video (shelves, channels, playlists, ads,
// notices) is left out silently; a video item whose fields cannot be read, or an item of a kind
// never seen, is schema drift, which the caller's readItems() (../drift.ts) skips and reports.
import type { VidnetComment, VidnetVideo } from '../../../contract/items.js';
import { SourceError } from '../../interface.js';
import { SHORTS_MAX_SECONDS } from '../shapes/vidnet.js';

export type Json = Record<string, unknown>;

/** a video read from an InnerTube list item, before it is tied to a keyword, hashtag or channel */
export type ListVideo = Omit<VidnetVideo, 'source_keyword' | 'enrichment'> & {
  duration_seconds: number | null;
  is_short: boolean;
};

/** the channel whose page is being read (its items do not repeat it) */
export interface Owner {
  id: string;
  title: string;
}

export function get(o: unknown, ...path: Array<string | number>): unknown {
  let cur = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** the text of an InnerTube text object ({simpleText} or {runs:[{text}]}) or a view-model {content} */
export function text(t: unknown): string | undefined {
  if (typeof t === 'string') return t;
  if (!t || typeof t !== 'object') return undefined;
  const o = t as Json;
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (typeof o.content === 'string') return o.content;
  if (Array.isArray(o.runs))
    return o.runs.map((r) => (typeof get(r, 'text') === 'string' ? (get(r, 'text') as string) : '')).join('');
  return undefined;
}

export function drift(backend: string, what: string): SourceError {
  return new SourceError('upstream', `${backend} changed the shape of ${what} (schema drift)`, { backend });
}

/** the renderer name of a list entry ({ videoRenderer: {...} } → 'videoRenderer') */
function kindOf(entry: Json): string {
  return Object.keys(entry).find((k) => k !== 'trackingParams' && k !== 'clickTrackingParams') ?? '';
}

// ---------------------------------------------------------------------------------------------
// the list of a page

export interface PageList {
  /** the page's items, each an object naming its kind ({ videoRenderer: {...} }) */
  items: Json[];
  /** the token of the page that follows, when there is one */
  next: string | undefined;
}

function continuationToken(cir: unknown): string | undefined {
  return (
    str(get(cir, 'continuationEndpoint', 'continuationCommand', 'token')) ??
    str(get(cir, 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token'))
  );
}

/**
 * The items and the continuation of a page, in any of the layouts recorded: a browse page's
 * selected tab (richGridRenderer, sectionListRenderer), search results (sectionListRenderer of
 * itemSectionRenderers), and continuation answers (append/reload actions of continuationItems,
 * under onResponseReceivedActions, …Commands or …Endpoints). Undefined when the page holds none
 * of these: a layout this reader does not know.
 */
export function pageList(page: Json): PageList | undefined {
  const lists: unknown[][] = [];
  for (const key of [
    'onResponseReceivedActions',
    'onResponseReceivedCommands',
    'onResponseReceivedEndpoints',
  ]) {
    for (const action of arr(page[key])) {
      for (const cmd of ['appendContinuationItemsAction', 'reloadContinuationItemsCommand']) {
        const items = get(action, cmd, 'continuationItems');
        if (Array.isArray(items)) lists.push(items);
      }
    }
  }
  const tabs = arr(get(page, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs')).map(
    (t) => (get(t, 'tabRenderer') ?? get(t, 'expandableTabRenderer')) as Json | undefined,
  );
  const tab = tabs.find((t) => t?.selected === true && t.content) ?? tabs.find((t) => t?.content);
  if (tab) {
    for (const k of ['richGridRenderer', 'sectionListRenderer']) {
      const items = get(tab.content, k, 'contents');
      if (Array.isArray(items)) lists.push(items);
    }
  }
  const results = get(
    page,
    'contents',
    'twoColumnSearchResultsRenderer',
    'primaryContents',
    'sectionListRenderer',
    'contents',
  );
  if (Array.isArray(results)) lists.push(results);
  if (lists.length === 0) return undefined;
  const out: PageList = { items: [], next: undefined };
  const flatten = (list: unknown[]) => {
    for (const e of list) {
      if (!e || typeof e !== 'object') continue;
      const entry = e as Json;
      const kind = kindOf(entry);
      const v = entry[kind];
      if (kind === 'itemSectionRenderer') flatten(arr(get(v, 'contents')));
      else if (kind === 'richItemRenderer') out.items.push((get(v, 'content') as Json | undefined) ?? {});
      else if (kind === 'continuationItemRenderer') out.next = continuationToken(v) ?? out.next;
      else out.items.push(entry);
    }
  };
  for (const l of lists) flatten(l);
  return out;
}

// ---------------------------------------------------------------------------------------------
// video items

/** kinds of list items that are not videos of the list: left out without a word */
const NOT_VIDEOS = new Set([
  // shelves and grids of recommendations, Shorts and "people also watched" between results
  'shelfRenderer',
  'reelShelfRenderer',
  'richShelfRenderer',
  'richSectionRenderer',
  'gridShelfViewModel',
  'horizontalCardListRenderer',
  'universalWatchCardRenderer',
  // other kinds of results
  'channelRenderer',
  'playlistRenderer',
  'radioRenderer',
  'movieRenderer',
  // ads
  'adSlotRenderer',
  'promotedSparklesWebRenderer',
  'promotedVideoRenderer',
  'searchPyvRenderer',
  // notices
  'messageRenderer',
  'backgroundPromoRenderer',
  'showingResultsForRenderer',
  'didYouMeanRenderer',
  'includingResultsForRenderer',
  'clarificationRenderer',
  'infoPanelContainerRenderer',
  'emergencyOneboxRenderer',
  'channelAgeGateRenderer',
]);

/** a list video from what an item gave; the thumbnail defaults to the platform's standard one */
function listVideo(f: {
  id: string;
  title: string;
  description: string;
  channel: Owner;
  published: string;
  thumbnail: string | undefined;
  views: number;
  likes?: number | null;
  duration: number | null;
  isShort?: boolean;
}): ListVideo {
  return {
    video_id: f.id,
    title: f.title,
    description: f.description,
    channel_id: f.channel.id,
    channel_title: f.channel.title,
    published_at: f.published,
    thumbnail: f.thumbnail ?? `https://i.ytimg.com/vi/${f.id}/hqdefault.jpg`,
    stats: { views: f.views, likes: f.likes ?? null, comments: null },
    duration_seconds: f.duration,
    is_short: f.isShort ?? (f.duration !== null && f.duration <= SHORTS_MAX_SECONDS),
  };
}

/**
 * One item of a video list: a video, or undefined for an item that is not one (see NOT_VIDEOS;
 * also live streams and premieres, which have no date or view count yet). Throws drift for a
 * video item it cannot read and for an item of an unknown kind.
 */
export function readVideoItem(entry: Json, now: Date, backend: string, owner?: Owner): ListVideo | undefined {
  const kind = kindOf(entry);
  const v = (entry[kind] ?? {}) as Json;
  switch (kind) {
    case 'videoRenderer':
    case 'gridVideoRenderer':
      return videoRenderer(v, now, backend, owner) ?? undefined;
    case 'lockupViewModel':
      return lockup(v, now, backend, owner);
    case 'shortsLockupViewModel':
    case 'reelItemRenderer':
      return shortItem(kind, v, backend, owner);
  }
  if (NOT_VIDEOS.has(kind)) return undefined;
  throw drift(backend, `a list item of an unknown kind (${kind || 'none'})`);
}

/**
 * The owner of a video from its channel link: a browseEndpoint, or, for a video several
 * channels made together, a dialog listing them, of which the first is the owner.
 */
function linkedChannel(run: unknown): Owner | undefined {
  const nav = get(run, 'navigationEndpoint');
  const id = str(get(nav, 'browseEndpoint', 'browseId'));
  if (id) return { id, title: (str(get(run, 'text')) ?? '').trim() };
  const first = dialogChannels(get(nav, 'showDialogCommand'))[0];
  return first;
}

/** the channels a collaboration dialog lists, in its order */
function dialogChannels(showDialogCommand: unknown): Owner[] {
  const items = arr(
    get(
      showDialogCommand,
      'panelLoadingStrategy',
      'inlineContent',
      'dialogViewModel',
      'customContent',
      'listViewModel',
      'listItems',
    ),
  );
  return items.flatMap((i) => {
    const item = get(i, 'listItemViewModel');
    const id = str(
      get(
        item,
        'rendererContext',
        'commandContext',
        'onTap',
        'innertubeCommand',
        'browseEndpoint',
        'browseId',
      ),
    );
    const title = text(get(item, 'title'))?.trim();
    return id && title !== undefined ? [{ id, title }] : [];
  });
}

/** reads a videoRenderer; null for live streams and premieres (no views or date yet) */
export function videoRenderer(v: Json, now: Date, backend: string, owner?: Owner): ListVideo | null {
  const id = v.videoId;
  const title = text(v.title);
  if (typeof id !== 'string' || title === undefined) throw drift(backend, 'a video item');
  const viewText = text(v.viewCountText);
  const published = text(v.publishedTimeText);
  // live streams show concurrent viewers and no date, upcoming premieres "waiting" and no
  // date: neither is a video with a view count and a publication time yet
  if (published === undefined || /watching|waiting|scheduled/i.test(viewText ?? '')) return null;
  const views = viewText === undefined ? null : parseViews(viewText);
  const at = parseRelativeTime(published, now);
  if (views === null || at === null)
    throw drift(backend, `a video item's display text ("${viewText}", "${published}")`);
  const linked =
    linkedChannel(get(v, 'ownerText', 'runs', 0)) ?? linkedChannel(get(v, 'longBylineText', 'runs', 0));
  const channel = linked ?? owner;
  if (channel === undefined || channel.title === '') throw drift(backend, "a video item's channel");
  const thumbs = arr(get(v, 'thumbnail', 'thumbnails'));
  const thumb = str(get(thumbs[thumbs.length - 1], 'url'));
  const snippet = get(v, 'detailedMetadataSnippets', 0, 'snippetText') ?? v.descriptionSnippet;
  return listVideo({
    id,
    title,
    description: text(snippet) ?? '',
    channel,
    published: at.toISOString(),
    thumbnail: thumb,
    views,
    duration: parseDuration(text(v.lengthText)),
  });
}

/**
 * A lockupViewModel (channel Videos tab since 2025; watch-page recommendations): id in
 * contentId, title in lockupMetadataViewModel.title, views and age among the metadata rows'
 * parts, duration in the thumbnail's overlay badge, channel from the page's owner or the
 * avatar's link (a collaboration: the first channel of the avatar stack's dialog).
 */
function lockup(v: Json, now: Date, backend: string, owner?: Owner): ListVideo | undefined {
  const type = v.contentType;
  if (type !== undefined && type !== 'LOCKUP_CONTENT_TYPE_VIDEO') return undefined; // playlists, podcasts
  const id = v.contentId;
  const md = get(v, 'metadata', 'lockupMetadataViewModel');
  const title = text(get(md, 'title'));
  if (typeof id !== 'string' || title === undefined) throw drift(backend, 'a video item (lockup)');
  const rows = arr(get(md, 'metadata', 'contentMetadataViewModel', 'metadataRows'));
  const parts = rows.flatMap((r) => arr(get(r, 'metadataParts')).flatMap((p) => text(get(p, 'text')) ?? []));
  if (parts.some((p) => /\b(watching|waiting|scheduled for|premieres)\b/i.test(p))) return undefined;
  const viewText = parts.find((p) => /^(no views?|[\d.,]+\s*[kmb]?\s+views?)$/i.test(p.trim()));
  const ageText = parts.find((p) => parseRelativeTime(p, now) !== null);
  const views = viewText === undefined ? null : parseViews(viewText);
  const at = ageText === undefined ? null : parseRelativeTime(ageText, now);
  if (views === null || at === null)
    throw drift(backend, `a video item's display text (lockup: ${JSON.stringify(parts)})`);
  const channel = owner ?? lockupChannel(md, parts);
  if (!channel) throw drift(backend, "a video item's channel (lockup)");
  const image = get(v, 'contentImage', 'thumbnailViewModel');
  const sources = arr(get(image, 'image', 'sources'));
  const thumb = str(get(sources[sources.length - 1], 'url'));
  let duration: number | null = null;
  for (const overlay of arr(get(image, 'overlays'))) {
    const badges = [
      ...arr(get(overlay, 'thumbnailBottomOverlayViewModel', 'badges')),
      ...arr(get(overlay, 'thumbnailOverlayBadgeViewModel', 'thumbnailBadges')),
    ];
    for (const b of badges) duration ??= parseDuration(str(get(b, 'thumbnailBadgeViewModel', 'text')));
  }
  return listVideo({
    id,
    title,
    description: '',
    channel,
    published: at.toISOString(),
    thumbnail: thumb,
    views,
    duration,
  });
}

function lockupChannel(md: unknown, parts: string[]): Owner | undefined {
  const tap = (o: unknown) => get(o, 'rendererContext', 'commandContext', 'onTap', 'innertubeCommand');
  const id = str(get(tap(get(md, 'image', 'decoratedAvatarViewModel')), 'browseEndpoint', 'browseId'));
  if (id && parts[0] !== undefined) return { id, title: parts[0].trim() };
  return dialogChannels(get(tap(get(md, 'image', 'avatarStackViewModel')), 'showDialogCommand'))[0];
}

/** a Shorts item: id and title only; the rest is completed from /player (published_at '') */
function shortItem(kind: string, v: Json, backend: string, owner?: Owner): ListVideo {
  const id =
    kind === 'reelItemRenderer'
      ? v.videoId
      : (get(v, 'onTap', 'innertubeCommand', 'reelWatchEndpoint', 'videoId') ??
        (typeof v.entityId === 'string' ? v.entityId.replace(/^shorts-shelf-item-/, '') : undefined));
  const title =
    kind === 'reelItemRenderer' ? text(v.headline) : text(get(v, 'overlayMetadata', 'primaryText'));
  if (typeof id !== 'string' || title === undefined) throw drift(backend, 'a Shorts item');
  return listVideo({
    id,
    title,
    description: '',
    channel: owner ?? { id: '', title: '' },
    published: '',
    thumbnail: undefined,
    views: 0,
    duration: null,
    isShort: true,
  });
}

/**
 * A /player answer: videoDetails where present, else the microformat (an answer limited with
 * `$fields` has the microformat alone). Null for a video that is gone or needs a login.
 */
export function readPlayer(p: Json, backend: string): ListVideo | null {
  const status = get(p, 'playabilityStatus', 'status');
  if (status === 'ERROR' || status === 'LOGIN_REQUIRED') return null;
  const d = (p.videoDetails ?? {}) as Json;
  const mf = (get(p, 'microformat', 'playerMicroformatRenderer') ?? {}) as Json;
  const videoId = str(d.videoId) ?? str(mf.externalVideoId);
  const title = str(d.title) ?? text(mf.title);
  const channelId = str(d.channelId) ?? str(mf.externalChannelId);
  const author = str(d.author) ?? str(mf.ownerChannelName);
  const viewCount = str(d.viewCount) ?? str(mf.viewCount);
  const published = str(mf.publishDate) ?? str(mf.uploadDate);
  if (
    videoId === undefined ||
    title === undefined ||
    channelId === undefined ||
    author === undefined ||
    viewCount === undefined ||
    !/^\d+$/.test(viewCount) ||
    published === undefined ||
    Number.isNaN(Date.parse(published))
  ) {
    throw drift(backend, 'a player response');
  }
  const thumbs = arr(get(d, 'thumbnail', 'thumbnails'));
  const thumb = str(get(thumbs[thumbs.length - 1], 'url'));
  const length = str(d.lengthSeconds) ?? str(mf.lengthSeconds);
  const duration = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
  const likes = str(mf.likeCount);
  return listVideo({
    id: videoId,
    title,
    description: str(d.shortDescription) ?? text(mf.description) ?? '',
    channel: { id: channelId, title: author },
    published: new Date(Date.parse(published)).toISOString(),
    thumbnail: thumb,
    views: Number(viewCount),
    likes: likes !== undefined && /^\d+$/.test(likes) ? Number(likes) : null,
    duration,
  });
}

/**
 * The channel a browse page is of. A page that names no channel but carries an error alert
 * ("This channel does not exist.", "This channel was removed because …") is not found.
 */
export function channelOwner(page: Json, browseId: string, backend: string): Owner {
  const meta = get(page, 'metadata', 'channelMetadataRenderer') as Json | undefined;
  const title =
    str(meta?.title) ??
    text(get(page, 'header', 'c4TabbedHeaderRenderer', 'title')) ??
    str(get(page, 'header', 'pageHeaderRenderer', 'pageTitle'));
  if (title !== undefined) return { id: str(meta?.externalId) ?? browseId, title };
  const alert = arr(page.alerts)
    .map((a) => get(a, 'alertRenderer') as Json | undefined)
    .find((a) => a?.type === 'ERROR');
  if (alert) {
    const why = text(alert.text) ?? 'the platform shows an error instead';
    throw new SourceError('not_found', `channel ${browseId}: ${why}`, { backend });
  }
  throw drift(backend, 'a channel page');
}

/** the filter chip of a page (e.g. "Shorts" on a hashtag feed), as the request that applies it */
export function findChip(page: Json, label: string): Json | undefined {
  const stack: unknown[] = [page];
  while (stack.length > 0) {
    const cur = stack.pop();
    if (Array.isArray(cur)) {
      for (let i = cur.length - 1; i >= 0; i--) stack.push(cur[i]);
      continue;
    }
    if (!cur || typeof cur !== 'object') continue;
    for (const [k, v] of Object.entries(cur as Json)) {
      if ((k === 'chipCloudChipRenderer' || k === 'chipViewModel') && v && typeof v === 'object') {
        const chip = v as Json;
        if ((text(chip.text) ?? '').trim().toLowerCase() === label) {
          const browse =
            get(chip, 'navigationEndpoint', 'browseEndpoint') ??
            get(chip, 'tapCommand', 'innertubeCommand', 'browseEndpoint');
          if (browse && typeof browse === 'object') return browse as Json;
          const token =
            get(chip, 'navigationEndpoint', 'continuationCommand', 'token') ??
            get(chip, 'tapCommand', 'innertubeCommand', 'continuationCommand', 'token');
          if (typeof token === 'string') return { continuation: token };
        }
      }
      stack.push(v);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// comments

/** the comment entities of a page (frameworkUpdates), by entity key */
export function commentEntities(page: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const m of arr(get(page, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'))) {
    const key = str(get(m, 'entityKey'));
    const payload = get(m, 'payload', 'commentEntityPayload');
    if (key && payload && typeof payload === 'object') out.set(key, payload as Json);
  }
  return out;
}

const NOT_COMMENTS = new Set([
  'commentsHeaderRenderer',
  'commentFilterContextViewModel',
  'commentSimpleboxRenderer',
  'messageRenderer',
]);

/**
 * One item of a comments page: a comment thread (its top-level comment; the replies are not
 * read), or undefined for the header and notices. Throws drift for what it cannot read.
 */
export function readCommentItem(
  entry: Json,
  entities: Map<string, Json>,
  videoId: string,
  now: Date,
  backend: string,
): VidnetComment | undefined {
  const kind = kindOf(entry);
  const v = entry[kind] as Json;
  if (NOT_COMMENTS.has(kind)) return undefined;
  const model =
    kind === 'commentThreadRenderer'
      ? get(v, 'commentViewModel', 'commentViewModel')
      : kind === 'commentViewModel'
        ? v
        : undefined;
  const renderer =
    kind === 'commentThreadRenderer'
      ? get(v, 'comment', 'commentRenderer')
      : kind === 'commentRenderer'
        ? v
        : undefined;
  if (model) {
    const payload = entities.get(str(get(model, 'commentKey')) ?? '');
    const p = payload?.properties as Json | undefined;
    const id = str(p?.commentId);
    const body = text(get(p, 'content'));
    const author = str(get(payload, 'author', 'displayName'));
    const when = str(p?.publishedTime);
    const likes = parseCount(
      get(payload, 'toolbar', 'likeCountNotliked') ?? get(payload, 'toolbar', 'likeCountLiked'),
    );
    if (id === undefined || body === undefined || author === undefined || when === undefined)
      throw drift(backend, 'a comment');
    return comment(id, videoId, body, author, when, likes, now, backend);
  }
  if (renderer && typeof renderer === 'object') {
    const r = renderer as Json;
    const id = str(r.commentId);
    const body = text(r.contentText);
    const author = text(r.authorText);
    const when = text(r.publishedTimeText);
    if (id === undefined || body === undefined || author === undefined || when === undefined)
      throw drift(backend, 'a comment');
    return comment(id, videoId, body, author, when, parseCount(text(r.voteCount) ?? '0'), now, backend);
  }
  throw drift(backend, `a comments item of an unknown kind (${kind || 'none'})`);
}

function comment(
  id: string,
  videoId: string,
  body: string,
  author: string,
  when: string,
  likes: number | null,
  now: Date,
  backend: string,
): VidnetComment {
  const at = parseRelativeTime(when, now);
  if (at === null || likes === null) throw drift(backend, `a comment's display text ("${when}")`);
  return { id, video_id: videoId, text: body, author, timestamp: at.toISOString(), likes };
}

// ---------------------------------------------------------------------------------------------
// request parameters (protobuf, base64), byte for byte what the web client or youtubei.js send

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const num = (field: number, value: number) => [...varint(field << 3), ...varint(value)];
const bytes = (field: number, value: number[] | string) => {
  const b = typeof value === 'string' ? [...Buffer.from(value, 'utf8')] : value;
  return [...varint((field << 3) | 2), ...varint(b.length), ...b];
};
const b64 = (b: number[], url: boolean) => {
  const s = Buffer.from(b).toString('base64');
  return encodeURIComponent(url ? s.replaceAll('+', '-').replaceAll('/', '_') : s);
};

const UPLOAD_DATE = { today: 2, week: 3, month: 4 } as const;

/** the search filter: videos only, uploaded within the period ('all': no date filter) */
export function searchParams(period: 'today' | 'week' | 'month' | 'all'): string {
  const filters = [...(period === 'all' ? [] : num(1, UPLOAD_DATE[period])), ...num(2, 1)];
  return b64(bytes(2, filters), false);
}

/** the FEhashtag browse params of a hashtag feed */
export function hashtagParams(hashtag: string): string {
  return b64(bytes(93, [...bytes(1, hashtag), ...num(3, 1)]), true);
}

/** the continuation token of a video's comments section, as its watch page hands it out */
export function commentsToken(videoId: string): string {
  const opts = [...bytes(4, videoId), ...num(6, 0), ...num(15, 2)];
  const token = [
    ...bytes(2, bytes(2, videoId)),
    ...num(3, 6),
    ...bytes(6, [...bytes(4, opts), ...bytes(8, 'comments-section')]),
  ];
  return b64(token, true);
}

// ---------------------------------------------------------------------------------------------
// display text → values

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/** "1,234,567 views" → 1234567 (exact); "1.2M views" → 1200000 (rounded as shown); "No views" → 0 */
export function parseViews(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^no views?$/.test(t)) return 0;
  return parseCount(t.replace(/\s*views?$/, ''));
}

/** "12", "1,234", "1.2K", "3M", "" (= 0, the platform's empty like count) → integer */
export function parseCount(s: unknown): number | null {
  if (typeof s !== 'string') return null;
  const t = s.trim().toLowerCase().replace(/,/g, '');
  if (t === '') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*([kmb])?$/.exec(t);
  if (!m) return null;
  return Math.round(Number(m[1]) * (m[2] ? (SUFFIX[m[2]] ?? 1) : 1));
}

/** "1:02:03" → 3723, "12:31" → 751; anything else (e.g. "SHORTS", absent) → null */
export function parseDuration(s: string | undefined): number | null {
  if (!s) return null;
  const t = s.trim();
  if (!/^\d+(:\d{1,2}){1,2}$/.test(t)) return null;
  return t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

const UNIT_S: Record<string, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
};

/**
 * "3 days ago", "Streamed 2 weeks ago", "1 year ago (edited)" → now minus that much. The result
 * is an estimate at the precision of the text: "1 year ago" may be off by months.
 */
export function parseRelativeTime(s: string, now: Date): Date | null {
  const m = /(\d+)\s*(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(s);
  if (!m) return null;
  const unit = UNIT_S[(m[2] as string).toLowerCase()];
  if (unit === undefined) return null;
  return new Date(now.getTime() - Number(m[1]) * unit * 1000);
}
