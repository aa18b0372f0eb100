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
