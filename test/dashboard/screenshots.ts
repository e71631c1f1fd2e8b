// The dashboard test's screenshots for the docs, written only when the picture changed: the new
// PNG and the file already there are decoded (pngjs) and compared pixel by pixel (pixelmatch),
// leaving out the regions the test names as different on every run (ids and secrets drawn at
// random, the server's port). So running the test again leaves the working tree as it was, and a
// change to the page shows up as a changed file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Image {
  width: number;
  height: number;
  /** four bytes a pixel, row after row */
  rgba: Uint8Array;
}

export function decodePng(png: Buffer): Image {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function encodePng(img: Image): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.rgba);
  return PNG.sync.write(png);
}

function masked(img: Image, ignore: Rect[]): Uint8Array {
  const rgba = Uint8Array.from(img.rgba);
  for (const r of ignore)
    for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(img.height, Math.ceil(r.y + r.height)); y++)
      rgba.fill(
        0,
        (y * img.width + Math.max(0, Math.floor(r.x))) * 4,
        (y * img.width + Math.min(img.width, Math.ceil(r.x + r.width))) * 4,
      );
  return rgba;
}

/**
 * Pixels of a and b that differ outside the ignored rectangles (all of them if the sizes differ).
 * pixelmatch's colour threshold (0.1 by default) and its anti-aliasing detection keep Chromium's
 * run-to-run anti-aliasing of rounded corners from counting, while a changed glyph, border or bar
 * does.
 */
export function differingPixels(a: Image, b: Image, ignore: Rect[] = [], threshold = 0.1): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.width * a.height, b.width * b.height);
  return pixelmatch(masked(a, ignore), masked(b, ignore), undefined, a.width, a.height, { threshold });
}

/** writes the screenshot unless the file there shows the same picture outside `ignore`; true if written */
export function writeIfChanged(path: string, png: Buffer, ignore: Rect[] = []): boolean {
  if (existsSync(path)) {
    try {
      if (differingPixels(decodePng(readFileSync(path)), decodePng(png), ignore) === 0) return false;
    } catch {
      // not a PNG that decodes: replaced
    }
  }
  writeFileSync(path, png);
  return true;
}
