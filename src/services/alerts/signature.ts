// Webhook signatures (CONTRACT.md section 8), Stripe-style: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">`. The timestamp is inside the signed text, so a captured request cannot be replayed
// later with a fresh `t`; receivers reject signatures older than their tolerance.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Trackcheck-Signature';
export const SIGNATURE_SCHEME = 'v1';
/** The tolerance the docs recommend to receivers. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The `Trackcheck-Signature` value for this exact body (the bytes sent, not a re-serialisation). */
export function signWebhook(secret: string, body: string | Uint8Array, nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds < 0) {
    throw new RangeError(`nowSeconds must be a whole number of seconds, got ${nowSeconds}`);
  }
  return `t=${nowSeconds},${SIGNATURE_SCHEME}=${hmacHex(secret, nowSeconds, body)}`;
}

/** `t` and every `v1` of a header; unknown schemes are ignored so new ones can be added beside v1. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === SIGNATURE_SCHEME && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * True when one `v1` of `header` is the HMAC of `body` under `secret` and `t` is within
 * `toleranceSeconds` of `nowSeconds`. The comparison takes the same time wherever the first difference is.
 */
export function verifySignature(
  header: string,
  body: string | Uint8Array,
  secret: string,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  const parsed = parseSignatureHeader(header);
  if (parsed === null) return false;
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.timestamp, body), 'hex');
  // A sender rotating its secret may send one v1 per secret: any match will do.
  return parsed.signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
}
