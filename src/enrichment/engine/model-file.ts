// The framing every binary model file shares (little endian): a u32 magic, the u32 length of a UTF-8
// JSON header, the header, then the body (the weights, as the header describes them).

export function encodeFramed(magic: number, header: unknown, body: ArrayBufferView): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(magic, 0);
  head.writeUInt32LE(json.length, 4);
  return Buffer.concat([head, json, Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
}

/** the header and body of a framed file; `what` names the kind of file in the error for another magic */
export function decodeFramed<H>(buf: Buffer, magic: number, what: string): { header: H; body: Buffer } {
  if (buf.length < 8 || buf.readUInt32LE(0) !== magic) throw new Error(`not a Gleaner ${what} file`);
  const len = buf.readUInt32LE(4);
  return { header: JSON.parse(buf.subarray(8, 8 + len).toString('utf8')) as H, body: buf.subarray(8 + len) };
}
