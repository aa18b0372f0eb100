// Request ids: `req_` and 24 hex digits, random, never taken from the client (CONTRACT.md section 4).
import { randomBytes } from 'node:crypto';

// Random bytes are drawn 3 KB at a time: one draw per request was a noticeable share of a cached read.
let idPool = Buffer.alloc(0);
let idOffset = 0;

export function newRequestId(): string {
  if (idOffset + 12 > idPool.length) {
    idPool = randomBytes(12 * 256);
    idOffset = 0;
  }
  idOffset += 12;
  return `req_${idPool.toString('hex', idOffset - 12, idOffset)}`;
}
