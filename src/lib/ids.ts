import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random URL-safe slug: 14 characters of [0-9a-z], about 72 bits, unbiased (rejection sampling). */
export function newSlug(length = 14): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 252) continue; // 252 = 7 × 36: keep the distribution uniform
      out += ALPHABET[byte % 36];
      if (out.length === length) break;
    }
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An id as this service makes them (randomUUID: lowercase); anything else names nothing, so is never looked up. */
export const isServiceId = (id: string): boolean => UUID.test(id);
