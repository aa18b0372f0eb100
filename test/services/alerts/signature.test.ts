import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifySignature } from '../../../src/services/alerts/index.js';

const SECRET = 'whsec_test_0123456789';
const BODY = '{"id":"e1","type":"monitor.broken","changes":[{"field":"willTrack","from":true,"to":false}]}';
const T = 1_790_000_000;

describe('signWebhook', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', () => {
    const independent = createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
    expect(signWebhook(SECRET, BODY, T)).toBe(`t=${T},v1=${independent}`);
    expect(signWebhook(SECRET, Buffer.from(BODY), T)).toBe(`t=${T},v1=${independent}`);
  });

  it('signs the bytes, so non-ASCII bodies are signed as UTF-8', () => {
    const body = '{"field":"finalUrl","to":"https://bücher.example/→"}';
    const independent = createHmac('sha256', SECRET)
      .update(Buffer.from(`${T}.${body}`, 'utf8'))
      .digest('hex');
    expect(signWebhook(SECRET, body, T)).toBe(`t=${T},v1=${independent}`);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook(SECRET, BODY, 1.5)).toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  const header = signWebhook(SECRET, BODY, T);

  it('accepts the signature within the tolerance, both ways', () => {
    expect(verifySignature(header, BODY, SECRET, 300, T)).toBe(true);
    expect(verifySignature(header, BODY, SECRET, 300, T + 300)).toBe(true);
    expect(verifySignature(header, BODY, SECRET, 300, T - 300)).toBe(true);
    expect(verifySignature(header, Buffer.from(BODY), SECRET, 300, T)).toBe(true);
  });

  it('refuses stale or future timestamps, other bodies and other secrets', () => {
    expect(verifySignature(header, BODY, SECRET, 300, T + 301)).toBe(false);
    expect(verifySignature(header, BODY, SECRET, 300, T - 301)).toBe(false);
    expect(verifySignature(header, `${BODY} `, SECRET, 300, T)).toBe(false);
    expect(verifySignature(header, BODY, `${SECRET}x`, 300, T)).toBe(false);
    // A replayed signature with a fresh t does not match: t is inside the signed text.
    expect(verifySignature(header.replace(`t=${T}`, `t=${T + 100}`), BODY, SECRET, 300, T + 100)).toBe(false);
  });

  it.each(['', 'garbage', `t=${T}`, 'v1=abc', `t=abc,v1=${'0'.repeat(64)}`, `t=${T},v1=zz`, `t=${T},v0=${'0'.repeat(64)}`])(
    'refuses the malformed header %j',
    (bad) => {
      expect(verifySignature(bad, BODY, SECRET, 300, T)).toBe(false);
    },
  );

  it('accepts any of several v1 values, tolerates spaces, ignores unknown schemes', () => {
    const v1 = header.split('v1=')[1];
    expect(verifySignature(`t=${T}, v1=${'0'.repeat(64)}, v1=${v1}, v2=whatever`, BODY, SECRET, 300, T)).toBe(true);
    expect(verifySignature(`t=${T},v1=${v1?.toUpperCase()}`, BODY, SECRET, 300, T)).toBe(true);
  });
});
