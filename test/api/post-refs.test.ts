import { expect, test } from 'vitest';
import { parsePostRef } from '../../src/services/post-refs.js';

test.each([
  ['clipnet', 'https://www.clipnet.com/@someone/video/7234567890123456789', '7234567890123456789', 'id'],
  ['clipnet', 'www.clipnet.com/@someone/video/7234567890123456789?lang=en', '7234567890123456789', 'id'],
  ['clipnet', 'https://www.tiktok.com/@x/video/7234567890123456789', '7234567890123456789', 'id'],
  ['clipnet', '7234567890123456789', '7234567890123456789', 'id'],
  ['clipnet', 'https://vm.clipnet.com/ZMabc123/', 'ZMabc123', 'shortlink'],
  ['clipnet', 'vm.clipnet.com/ZMabc123', 'ZMabc123', 'shortlink'],
  ['clipnet', 'https://www.clipnet.com/t/ZTRabc12/', 'ZTRabc12', 'shortlink'],
  ['picnet', 'https://www.picnet.com/p/AbC_dE-fGh1/', 'AbC_dE-fGh1', 'id'],
  ['picnet', 'picnet.com/reel/AbC_dE-fGh1', 'AbC_dE-fGh1', 'id'],
  ['picnet', 'https://www.instagram.com/reels/AbC_dE-fGh1/?igsh=x', 'AbC_dE-fGh1', 'id'],
  ['picnet', 'AbC_dE-fGh1', 'AbC_dE-fGh1', 'id'],
  ['vidnet', 'https://www.vidnet.com/watch?v=dQw4w9WgXcQ&t=10s', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'vidnet.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'https://vidnet.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'https://www.vidnet.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'https://m.vidnet.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'id'],
  ['vidnet', 'dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'id'],
  [
    'blipnet',
    'https://bsky.app/profile/jay.bsky.team/post/3jukz62npim26',
    'at://jay.bsky.team/app.bsky.feed.post/3jukz62npim26',
    'id',
  ],
  [
    'blipnet',
    'blipnet.app/profile/MaraReads.blipnet.social/post/3lemy5mt34x27?ref=share',
    'at://marareads.blipnet.social/app.bsky.feed.post/3lemy5mt34x27',
    'id',
  ],
  [
    'blipnet',
    'https://bsky.app/profile/did:plc:gggcwmwoyak6op4pkqm76ckz/post/3jukz62npim26',
    'at://did:plc:gggcwmwoyak6op4pkqm76ckz/app.bsky.feed.post/3jukz62npim26',
    'id',
  ],
  [
    'blipnet',
    'at://did:plc:gggcwmwoyak6op4pkqm76ckz/app.bsky.feed.post/3jukz62npim26',
    'at://did:plc:gggcwmwoyak6op4pkqm76ckz/app.bsky.feed.post/3jukz62npim26',
    'id',
  ],
] as const)('%s: %s → %s', (platform, input, id, form) => {
  expect(parsePostRef(platform, input)).toEqual({ id, form, input });
});

test.each([
  ['clipnet', 'https://www.clipnet.com/@someone'],
  ['clipnet', 'hello world'],
  ['picnet', 'https://www.picnet.com/someone/'],
  ['picnet', 'x'],
  ['vidnet', 'https://www.vidnet.com/watch?v=short'],
  ['vidnet', 'https://www.vidnet.com/channel/UCabc'],
  ['vidnet', 'not an id'],
  // blipnet: no author, another collection, an invalid handle or record key
  ['blipnet', '3jukz62npim26'],
  ['blipnet', 'https://bsky.app/profile/jay.bsky.team'],
  ['blipnet', 'at://did:plc:gggcwmwoyak6op4pkqm76ckz/app.bsky.feed.like/3jukz62npim26'],
  ['blipnet', 'https://bsky.app/profile/not_a_handle/post/3jukz62npim26'],
  ['blipnet', 'https://bsky.app/profile/jay.bsky.team/post/..'],
  // malformed percent-escapes: no id can be read (and nothing throws)
  ['clipnet', 'https://www.clipnet.com/%/video/7501921969951202327'],
  ['picnet', 'https://www.picnet.com/p/%ff/'],
  ['vidnet', 'https://x/%E0%A4%A'],
] as const)('%s: %s names no post', (platform, input) => {
  expect(parsePostRef(platform, input)).toBeNull();
});
