// CSRF tokens for every form: an HMAC of what the form's visitor is bound to. A signed-in visitor's token is bound
// to the session id (a synchronizer token that needs no storage: it changes with every sign-in and dies with the
// session); an anonymous visitor's to a random value in their own HttpOnly cookie (signed double submit). A page on
// another site can neither read the token nor make one: it would need the key and the visitor's cookie.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The form field every POST form carries. */
export const CSRF_FIELD = '_csrf';

export type CsrfBinding = { kind: 'session'; sid: string } | { kind: 'anonymous'; nonce: string };

function mac(key: Uint8Array, binding: CsrfBinding): Buffer {
  const subject = binding.kind === 'session' ? `session|${binding.sid}` : `anonymous|${binding.nonce}`;
  return createHmac('sha256', key).update(`csrf-v1|${subject}`).digest();
}

export function csrfTokenFor(key: Uint8Array, binding: CsrfBinding): string {
  return mac(key, binding).toString('base64url');
}

export function isValidCsrfToken(key: Uint8Array, binding: CsrfBinding, token: unknown): boolean {
  if (typeof token !== 'string' || token.length > 100) return false;
  const given = Buffer.from(token, 'base64url');
  const expected = mac(key, binding);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The anonymous visitor's cookie value: random, nothing to sign (the token is the MAC over it). */
export function newCsrfNonce(): string {
  return randomBytes(24).toString('base64url');
}

export function hiddenCsrfField(token: string): string {
  // Tokens are base64url: nothing in them needs escaping.
  return `<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}
