// The dashboard test's screenshots for the docs, written only when the picture changed: the new
// PNG and the file already there are decoded and compared pixel by pixel, leaving out the regions
// the test names as different on every run (ids and secrets drawn at random, the server's port).
// So running the test again leaves the working tree as it was, and a change to the page shows up
// as a changed file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

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

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** a PNG as Chromium writes them: 8 bits a channel, RGB or RGBA, not interlaced */
export function decodePng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colorType, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colorType}, interlace ${interlace})`);
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? cur[i - channels]! : 0;
      const up = prev[i]!;
      const upLeft = i >= channels ? prev[i - channels]! : 0;
      const x = line[i]!;
      cur[i] =
        (filter === 0
          ? x
          : filter === 1
            ? x + left
            : filter === 2
              ? x + up
              : filter === 3
                ? x + ((left + up) >> 1)
                : x + paeth(left, up, upLeft)) & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      out[o] = cur[px * channels]!;
      out[o + 1] = cur[px * channels + 1]!;
      out[o + 2] = cur[px * channels + 2]!;
      out[o + 3] = channels === 4 ? cur[px * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/**
 * Pixels of a and b that differ outside the ignored rectangles (all of them if the sizes differ).
 * A pixel differs when a channel is off by more than `tolerance`: Chromium's anti-aliasing of
 * rounded corners moves a channel by a step or two from one run to the next, while a changed glyph,
 * border or bar moves them by far more.
 */
export function differingPixels(a: Image, b: Image, ignore: Rect[] = [], tolerance = 8): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.width * a.height, b.width * b.height);
  const skip = new Uint8Array(a.width * a.height);
  for (const r of ignore)
    for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(a.height, Math.ceil(r.y + r.height)); y++)
      skip.fill(
        1,
        y * a.width + Math.max(0, Math.floor(r.x)),
        y * a.width + Math.min(a.width, Math.ceil(r.x + r.width)),
      );
  let n = 0;
  for (let p = 0; p < skip.length; p++) {
    if (skip[p]) continue;
    const o = p * 4;
    for (let k = 0; k < 4; k++)
      if (Math.abs(a.rgba[o + k]! - b.rgba[o + k]!) > tolerance) {
        n++;
        break;
      }
  }
  return n;
}

/** writes the screenshot unless the file there shows the same picture outside `ignore`; true if written */
export function writeIfChanged(path: string, png: Buffer, ignore: Rect[] = []): boolean {
  if (existsSync(path)) {
    try {
      if (differingPixels(decodePng(readFileSync(path)), decodePng(png), ignore) === 0) return false;
    } catch {
      // not a PNG this reads: replaced
    }
  }
  writeFileSync(path, png);
  return true;
}
