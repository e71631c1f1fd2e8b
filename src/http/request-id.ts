// Request ids. Every request gets the server's own id (`req_` + 24 hex digits), which the ledger
// and the logs record; a caller's sane X-Request-Id is echoed in the reply and recorded beside it.
import { randomBytes } from 'node:crypto';

const CALLER_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// 12 random bytes each, drawn from a pool filled 256 ids at a time (one call into the system's
// random source per 256 requests instead of one per request)
const ID_BYTES = 12;
const ID_POOL = 256;
let idPool = Buffer.alloc(0);
let idAt = 0;

export function newRequestId(): string {
  if (idAt >= idPool.length) {
    idPool = randomBytes(ID_BYTES * ID_POOL);
    idAt = 0;
  }
  const id = `req_${idPool.toString('hex', idAt, idAt + ID_BYTES)}`;
  idAt += ID_BYTES;
  return id;
}

/** the id a reply carries in X-Request-Id: the caller's own when it sent a sane one, else ours */
export function echoedRequestId(req: {
  id: string;
  headers: Record<string, string | string[] | undefined>;
}): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && CALLER_ID.test(h) ? h : req.id;
}
