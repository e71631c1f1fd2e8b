// The dashboard test's screenshots are rewritten only when the picture changed: the PNG decoder
// reads Chromium's screenshots right, and a file is left alone when only its bytes or the ignored
// regions differ.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.js';
import { decodePng, differingPixels, type Image, writeIfChanged } from './screenshots.js';

const SIGN_IN = join(ROOT, 'docs/screenshots/dashboard-sign-in.png');
const dir = mkdtempSync(join(tmpdir(), 'gleaner-shots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** an RGBA PNG of the image, every row filtered with `filter` (other bytes than Chromium's) */
function encode(img: Image, filter: 0 | 1 | 2): Buffer {
  const stride = img.width * 4;
  const raw = Buffer.alloc((stride + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    raw[y * (stride + 1)] = filter;
    for (let i = 0; i < stride; i++) {
      const x = img.rgba[y * stride + i]!;
      const left = i >= 4 ? img.rgba[y * stride + i - 4]! : 0;
      const up = y > 0 ? img.rgba[(y - 1) * stride + i]! : 0;
      raw[y * (stride + 1) + 1 + i] = (filter === 0 ? x : filter === 1 ? x - left : x - up) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
/** the image with a block of red pixels */
function painted(img: Image, x: number, y: number, size: number): Image {
  const rgba = Uint8Array.from(img.rgba);
  for (let j = y; j < y + size; j++)
    for (let i = x; i < x + size; i++) rgba.set([255, 0, 0, 255], (j * img.width + i) * 4);
  return { ...img, rgba };
}
/** every colour channel moved by `by` (towards the middle) */
function shifted(img: Image, by: number): Image {
  const rgba = img.rgba.map((v, i) => (i % 4 === 3 ? v : v > 127 ? v - by : v + by));
  return { ...img, rgba };
}
const pixel = (img: Image, x: number, y: number) =>
  `#${Array.from(img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3), (v) =>
    v.toString(16).padStart(2, '0'),
  ).join('')}`;

describe('the screenshots of the docs', () => {
  const shot = decodePng(readFileSync(SIGN_IN));

  it("decodes Chromium's screenshot: its size and the page's colours", () => {
    expect([shot.width, shot.height]).toEqual([1280, 900]);
    // the header is a card (#fff) on the page's background (#f9fafb), down to the last row
    expect(pixel(shot, 2, 2)).toBe('#ffffff');
    expect(pixel(shot, 2, 899)).toBe('#f9fafb');
    expect(pixel(shot, 1277, 899)).toBe('#f9fafb');
    // and reads back what it writes, whatever the row filters
    for (const filter of [0, 1, 2] as const)
      expect(differingPixels(decodePng(encode(shot, filter)), shot)).toBe(0);
  });

  it('counts the pixels that differ, outside the regions left out', () => {
    expect(differingPixels(shot, shot)).toBe(0);
    const red = painted(shot, 100, 200, 10);
    expect(differingPixels(shot, red)).toBe(100);
    expect(differingPixels(shot, red, [{ x: 95, y: 195, width: 20, height: 20 }])).toBe(0);
    expect(differingPixels(shot, red, [{ x: 100, y: 200, width: 10, height: 5 }])).toBe(50);
    // anti-aliasing noise of a step or two is no change; a faint change is one
    expect(differingPixels(shot, shifted(shot, 2))).toBe(0);
    expect(differingPixels(shot, shifted(shot, 40))).toBe(1280 * 900);
    expect(differingPixels(shot, shifted(shot, 2), [], 0)).toBe(1280 * 900);
    expect(differingPixels(shot, { ...shot, height: 899, rgba: shot.rgba.subarray(0, 1280 * 899 * 4) })).toBe(
      1280 * 900,
    );
  });

  it('leaves the file alone when the picture is the same, and writes it when it changed', () => {
    const file = join(dir, 'shot.png');
    const original = readFileSync(SIGN_IN);
    writeFileSync(file, original);
    const mtime = statSync(file).mtimeMs;
    // the same pixels in other bytes
    expect(writeIfChanged(file, encode(shot, 1))).toBe(false);
    // a change only where the caller said the page changes from run to run (an id)
    expect(
      writeIfChanged(file, encode(painted(shot, 100, 200, 10), 2), [
        { x: 100, y: 200, width: 10, height: 10 },
      ]),
    ).toBe(false);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
    // a change anywhere else
    const changed = encode(painted(shot, 600, 450, 3), 0);
    expect(writeIfChanged(file, changed)).toBe(true);
    expect(readFileSync(file).equals(changed)).toBe(true);
    // no file yet, or one that is not a PNG
    expect(writeIfChanged(join(dir, 'new.png'), original)).toBe(true);
    writeFileSync(file, 'not a png');
    expect(writeIfChanged(file, original)).toBe(true);
    expect(readFileSync(file).equals(original)).toBe(true);
  });
});
