import { describe, expect, it } from 'vitest';
import { AuthConfigError } from '../../src/auth/errors.js';
import { createSessionVerifier, type SessionVerifier } from '../../src/auth/session-verifier.js';
import { makeKey, nowSeconds } from './helpers.js';
import { definePolicyCases, expectFailure, signWith } from './policy-cases.js';

const SECRET = 'a-shared-secret-that-is-long-enough-for-hs256';
const ISSUER = 'https://auth.example.test';
const AUDIENCE = 'trackcheck';
const key = new TextEncoder().encode(SECRET);
const verifier: SessionVerifier = createSessionVerifier({ mode: 'secret', secret: SECRET, issuer: ISSUER, audience: AUDIENCE });
const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: nowSeconds() + 600, ...extra });

describe('secret mode (HS256)', () => {
  definePolicyCases(() => ({
    verifier: () => verifier,
    sign: (c) => signWith(key, 'HS256', c),
    base: { iss: ISSUER, aud: AUDIENCE },
  }));

  it('a token signed with another secret fails the signature check', async () => {
    const other = new TextEncoder().encode(`${SECRET}-but-different`);
    await expectFailure(verifier.verify(await signWith(other, 'HS256', claims())), 'invalid_credentials', /signature is invalid/);
  });

  it('refuses asymmetric tokens (RS256, ES256): only HS256 is pinned', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const k = await makeKey(alg, 'k');
      await expectFailure(verifier.verify(await signWith(k.privateKey, alg, claims())), 'invalid_credentials', /accepted: HS256/);
    }
  });

  it('refuses HS384 and HS512 even with the right secret', async () => {
    for (const alg of ['HS384', 'HS512']) {
      await expectFailure(verifier.verify(await signWith(key, alg, claims())), 'invalid_credentials', /algorithm is not accepted/);
    }
  });

  it('issuer and audience are not checked when not configured', async () => {
    const v = createSessionVerifier({ mode: 'secret', secret: SECRET });
    await expect(v.verify(await signWith(key, 'HS256', claims({ iss: 'x', aud: 'y' })))).resolves.toEqual({ userId: 'user-1' });
  });

  it('an audience is required when one is configured', async () => {
    const c = claims();
    delete (c as { aud?: string }).aud;
    await expectFailure(verifier.verify(await signWith(key, 'HS256', c)), 'invalid_credentials', /aud claim is required/);
  });

  it('rejects secrets shorter than 32 bytes at construction, naming TRACKCHECK_JWT_SECRET', () => {
    const attempt = () => createSessionVerifier({ mode: 'secret', secret: 'x'.repeat(31) });
    expect(attempt).toThrow(AuthConfigError);
    expect(attempt).toThrow(/TRACKCHECK_JWT_SECRET.*32 bytes/);
    // Bytes, not characters: 11 three-byte characters are 33 bytes.
    expect(() => createSessionVerifier({ mode: 'secret', secret: '€'.repeat(11) })).not.toThrow();
    expect(() => createSessionVerifier({ mode: 'secret', secret: 'x'.repeat(32) })).not.toThrow();
  });

  it('describe() never contains the secret', () => {
    expect(verifier.describe()).not.toContain(SECRET);
    expect(verifier.describe()).toMatch(/HS256/);
  });
});
