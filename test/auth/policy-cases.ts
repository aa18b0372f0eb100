// The verification policy every mode must enforce, run against each mode's suite.
import { SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { expect, it } from 'vitest';
import { AuthFailure, type AuthFailureCode } from '../../src/auth/errors.js';
import type { SessionVerifier } from '../../src/auth/session-verifier.js';
import { craftToken, nowSeconds } from './helpers.js';

export interface PolicySetup {
  verifier: () => SessionVerifier;
  /** Signs exactly these claims (nothing added) with the mode's accepted key. */
  sign: (claims: JWTPayload) => Promise<string>;
  /** Claims the mode requires besides exp/sub (its iss/aud), merged into every valid token. */
  base: JWTPayload;
}

export async function expectFailure(promise: Promise<unknown>, code: AuthFailureCode, text?: RegExp): Promise<AuthFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AuthFailure);
  const failure = err as AuthFailure;
  expect(failure.code).toBe(code);
  if (text) expect(failure.message).toMatch(text);
  return failure;
}

export async function signWith(key: CryptoKey | Uint8Array, alg: string, claims: JWTPayload, kid?: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(kid === undefined ? { alg, typ: 'JWT' } : { alg, kid, typ: 'JWT' }).sign(key);
}

export function definePolicyCases(setup: () => PolicySetup): void {
  const valid = (extra: JWTPayload = {}): JWTPayload => ({ ...setup().base, sub: 'user-1', exp: nowSeconds() + 600, ...extra });

  it('accepts a good token and returns sub as the user id', async () => {
    const s = setup();
    await expect(s.verifier().verify(await s.sign(valid({ iat: nowSeconds() })))).resolves.toEqual({ userId: 'user-1' });
  });

  it('an expired token is token_expired', async () => {
    const s = setup();
    await expectFailure(s.verifier().verify(await s.sign(valid({ exp: nowSeconds() - 60 }))), 'token_expired', /expired/);
  });

  it('tolerates a few seconds of clock skew on exp', async () => {
    const s = setup();
    await expect(s.verifier().verify(await s.sign(valid({ exp: nowSeconds() - 2 })))).resolves.toEqual({ userId: 'user-1' });
  });

  it('a token without exp is invalid_credentials', async () => {
    const s = setup();
    const claims = valid();
    delete claims.exp;
    await expectFailure(s.verifier().verify(await s.sign(claims)), 'invalid_credentials', /exp claim is required/);
  });

  it('a non-numeric exp is invalid_credentials', async () => {
    const s = setup();
    const token = await s.sign({ ...valid(), exp: 'tomorrow' as unknown as number });
    await expectFailure(s.verifier().verify(token), 'invalid_credentials', /exp/);
  });

  it('nbf in the future is invalid_credentials', async () => {
    const s = setup();
    await expectFailure(s.verifier().verify(await s.sign(valid({ nbf: nowSeconds() + 120 }))), 'invalid_credentials', /not valid yet/);
  });

  it('nbf in the past is fine', async () => {
    const s = setup();
    await expect(s.verifier().verify(await s.sign(valid({ nbf: nowSeconds() - 10 })))).resolves.toEqual({ userId: 'user-1' });
  });

  it('a token without sub is invalid_credentials', async () => {
    const s = setup();
    const claims = valid();
    delete claims.sub;
    await expectFailure(s.verifier().verify(await s.sign(claims)), 'invalid_credentials', /sub claim/);
  });

  it.each([[''], ['   '], [42], [null], [['user-1']], ['x'.repeat(256)]])('sub %j is invalid_credentials', async (sub) => {
    const s = setup();
    await expectFailure(s.verifier().verify(await s.sign({ ...valid(), sub: sub as string })), 'invalid_credentials', /subject/);
  });

  it('a tampered payload fails the signature check', async () => {
    const s = setup();
    const [header, , signature] = (await s.sign(valid())).split('.');
    const other = Buffer.from(JSON.stringify(valid({ sub: 'admin' }))).toString('base64url');
    await expectFailure(s.verifier().verify(`${header}.${other}.${signature}`), 'invalid_credentials', /signature is invalid/);
  });

  it('an expired token with a bad signature is invalid_credentials, not token_expired', async () => {
    const s = setup();
    const [header, , signature] = (await s.sign(valid())).split('.');
    const other = Buffer.from(JSON.stringify(valid({ exp: nowSeconds() - 3600 }))).toString('base64url');
    await expectFailure(s.verifier().verify(`${header}.${other}.${signature}`), 'invalid_credentials');
  });

  it('alg none is refused, with or without a signature segment', async () => {
    const s = setup();
    for (const alg of ['none', 'None', 'NONE']) {
      const token = craftToken({ alg, typ: 'JWT' }, valid());
      const failure = await expectFailure(s.verifier().verify(token), 'invalid_credentials', /algorithm is not accepted/);
      expect(failure.message).not.toContain(token);
      await expectFailure(s.verifier().verify(`${token}c2ln`), 'invalid_credentials');
    }
  });

  it.each([['not a jwt'], ['a.b.c'], ['e30.e30.'], ['eyJhbGciOiJSUzI1NiJ9..sig'], [''], ['x'.repeat(5000)]])(
    'garbage token %# is invalid_credentials and never echoed',
    async (token) => {
      const failure = await expectFailure(setup().verifier().verify(token), 'invalid_credentials');
      if (token.length > 3) expect(failure.message).not.toContain(token);
    },
  );

  it('a wrong issuer is invalid_credentials', async () => {
    const s = setup();
    await expectFailure(s.verifier().verify(await s.sign(valid({ iss: 'https://evil.example' }))), 'invalid_credentials', /issuer/);
  });

  it('a wrong audience is invalid_credentials', async () => {
    const s = setup();
    await expectFailure(s.verifier().verify(await s.sign(valid({ aud: 'some-other-api' }))), 'invalid_credentials', /audience/);
  });
}
