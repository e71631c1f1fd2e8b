// The dashboard test's screenshots are rewritten only when the picture changed: Chromium's
// screenshots decode to the page's colours, and a file is left alone when only its bytes or the ignored
// regions differ.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.js';
import { decodePng, differingPixels, encodePng, type Image, writeIfChanged } from './screenshots.js';

const SIGN_IN = join(ROOT, 'docs/screenshots/dashboard-sign-in.png');
const dir = mkdtempSync(join(tmpdir(), 'gleaner-shots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    // the same pixels written again by another encoder (other bytes) are the same picture
    const again = encodePng(shot);
    expect(again.equals(readFileSync(SIGN_IN))).toBe(false);
    expect(differingPixels(decodePng(again), shot)).toBe(0);
  });

  it('counts the pixels that differ, outside the regions left out', () => {
    expect(differingPixels(shot, shot)).toBe(0);
    const red = painted(shot, 100, 200, 10);
    // pixelmatch counts a block's corner pixels as anti-aliasing; the block is a change all the same
    expect(differingPixels(shot, red)).toBeGreaterThan(80);
    expect(differingPixels(shot, red)).toBeLessThanOrEqual(100);
    expect(differingPixels(shot, red, [{ x: 95, y: 195, width: 20, height: 20 }])).toBe(0);
    const half = differingPixels(shot, red, [{ x: 100, y: 200, width: 10, height: 5 }]);
    expect(half).toBeGreaterThan(35);
    expect(half).toBeLessThanOrEqual(50);
    // anti-aliasing noise of a step or two is no change; a faint change is one
    expect(differingPixels(shot, shifted(shot, 2))).toBe(0);
    expect(differingPixels(shot, shifted(shot, 40))).toBeGreaterThan(1280 * 900 * 0.9);
    expect(differingPixels(shot, shifted(shot, 2), [], 0)).toBeGreaterThan(1280 * 900 * 0.9);
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
    expect(writeIfChanged(file, encodePng(shot))).toBe(false);
    // a change only where the caller said the page changes from run to run (an id)
    expect(
      writeIfChanged(file, encodePng(painted(shot, 100, 200, 10)), [
        { x: 100, y: 200, width: 10, height: 10 },
      ]),
    ).toBe(false);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
    // a change anywhere else
    const changed = encodePng(painted(shot, 600, 450, 3));
    expect(writeIfChanged(file, changed)).toBe(true);
    expect(readFileSync(file).equals(changed)).toBe(true);
    // no file yet, or one that is not a PNG
    expect(writeIfChanged(join(dir, 'new.png'), original)).toBe(true);
    writeFileSync(file, 'not a png');
    expect(writeIfChanged(file, original)).toBe(true);
    expect(readFileSync(file).equals(original)).toBe(true);
  });
});
