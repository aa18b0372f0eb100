import { exportSPKI, importJWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthConfigError, AuthFailure, IdentityProviderUnavailable } from '../../src/auth/errors.js';
import { createSessionVerifier, type SessionVerifier } from '../../src/auth/session-verifier.js';
import { closedPortUrl, makeKey, nowSeconds, startJwksServer, type JwksServer, type TestKey } from './helpers.js';
import { definePolicyCases, expectFailure, signWith } from './policy-cases.js';

const ISSUER = 'https://idp.test';
const AUDIENCE = 'trackcheck-api';
const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: nowSeconds() + 600, ...extra });

let server: JwksServer;
let rsa: TestKey;
let ec: TestKey;
let ed: TestKey;
let verifier: SessionVerifier;

beforeAll(async () => {
  [rsa, ec, ed] = await Promise.all([makeKey('RS256', 'rsa-1'), makeKey('ES256', 'ec-1'), makeKey('EdDSA', 'ed-1')]);
  server = await startJwksServer([rsa.publicJwk, ec.publicJwk, ed.publicJwk]);
  verifier = createSessionVerifier({ mode: 'jwks', jwksUrl: server.url, issuer: ISSUER, audience: AUDIENCE });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('JWKS mode, RS256', () => {
  definePolicyCases(() => ({
    verifier: () => verifier,
    sign: (c) => signWith(rsa.privateKey, 'RS256', c, 'rsa-1'),
    base: { iss: ISSUER, aud: AUDIENCE },
  }));
});

describe('JWKS mode, ES256', () => {
  definePolicyCases(() => ({
    verifier: () => verifier,
    sign: (c) => signWith(ec.privateKey, 'ES256', c, 'ec-1'),
    base: { iss: ISSUER, aud: AUDIENCE },
  }));
});

describe('JWKS mode', () => {
  it('accepts EdDSA', async () => {
    const token = await signWith(ed.privateKey, 'EdDSA', claims(), 'ed-1');
    await expect(verifier.verify(token)).resolves.toEqual({ userId: 'user-1' });
  });

  it('refuses HS256 signed with the public key material (algorithm confusion)', async () => {
    const publicKey = await importJWK(rsa.publicJwk, 'RS256', { extractable: true });
    if (publicKey instanceof Uint8Array) throw new Error('expected an RSA public key');
    const pem = await exportSPKI(publicKey);
    const materials = [pem, JSON.stringify(rsa.publicJwk), String(rsa.publicJwk.n)];
    for (const material of materials) {
      const secret = new TextEncoder().encode(material);
      for (const kid of ['rsa-1', undefined]) {
        const token = await signWith(secret, 'HS256', claims(), kid);
        await expectFailure(verifier.verify(token), 'invalid_credentials', /algorithm is not accepted/);
      }
    }
  });

  it('refuses a token naming a published kid but signed with another key', async () => {
    const impostor = await makeKey('RS256', 'rsa-1');
    const token = await signWith(impostor.privateKey, 'RS256', claims(), 'rsa-1');
    await expectFailure(verifier.verify(token), 'invalid_credentials', /signature is invalid/);
  });

  it('refuses a kid the key set does not have', async () => {
    const stranger = await makeKey('RS256', 'nobody');
    const token = await signWith(stranger.privateKey, 'RS256', claims(), 'nobody');
    await expectFailure(verifier.verify(token), 'invalid_credentials', /unknown key/);
  });

  it('a token without kid is tried against every matching key', async () => {
    const second = await makeKey('RS256', 'rsa-2');
    const jwks = await startJwksServer([rsa.publicJwk, second.publicJwk]);
    try {
      const v = createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url });
      await expect(v.verify(await signWith(second.privateKey, 'RS256', claims()))).resolves.toEqual({ userId: 'user-1' });
      await expect(v.verify(await signWith(rsa.privateKey, 'RS256', claims()))).resolves.toEqual({ userId: 'user-1' });
      const stranger = await makeKey('RS256', 'x');
      await expectFailure(v.verify(await signWith(stranger.privateKey, 'RS256', claims())), 'invalid_credentials', /signature/);
      await expectFailure(v.verify(await signWith(second.privateKey, 'RS256', claims({ exp: nowSeconds() - 60 }))), 'token_expired');
    } finally {
      await jwks.close();
    }
  });

  it('issuer and audience are not checked when not configured', async () => {
    const v = createSessionVerifier({ mode: 'jwks', jwksUrl: server.url });
    const token = await signWith(rsa.privateKey, 'RS256', claims({ iss: 'anyone', aud: 'anything' }), 'rsa-1');
    await expect(v.verify(token)).resolves.toEqual({ userId: 'user-1' });
  });

  it('accepts an audience array containing the configured audience', async () => {
    const token = await signWith(rsa.privateKey, 'RS256', claims({ aud: ['other', AUDIENCE] }), 'rsa-1');
    await expect(verifier.verify(token)).resolves.toEqual({ userId: 'user-1' });
  });

  it('a malformed token never fetches the key set', async () => {
    const jwks = await startJwksServer([rsa.publicJwk]);
    try {
      const v = createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url });
      await expectFailure(v.verify('a.b.c'), 'invalid_credentials');
      await expectFailure(v.verify(await signWith(new Uint8Array(32), 'HS256', claims())), 'invalid_credentials');
      expect(jwks.requests()).toBe(0);
    } finally {
      await jwks.close();
    }
  });
});

describe('JWKS key rotation', () => {
  it('picks up a newly published kid', async () => {
    const jwks = await startJwksServer([rsa.publicJwk]);
    try {
      const v = createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url, cooldownMs: 0 });
      await expect(v.verify(await signWith(rsa.privateKey, 'RS256', claims(), 'rsa-1'))).resolves.toEqual({ userId: 'user-1' });
      const next = await makeKey('ES256', 'ec-2');
      const token = await signWith(next.privateKey, 'ES256', claims({ sub: 'user-2' }), 'ec-2');
      await expectFailure(v.verify(token), 'invalid_credentials', /unknown key/);
      jwks.setKeys([next.publicJwk]);
      await expect(v.verify(token)).resolves.toEqual({ userId: 'user-2' });
      // The retired key is gone from the set: its tokens no longer verify after the next refetch.
      await expectFailure(v.verify(await signWith(rsa.privateKey, 'RS256', claims(), 'rsa-1')), 'invalid_credentials');
    } finally {
      await jwks.close();
    }
  });

  it('with the default cooldown, an unknown kid refetches at most once per 30 s', async () => {
    const jwks = await startJwksServer([rsa.publicJwk]);
    try {
      const v = createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url });
      await v.verify(await signWith(rsa.privateKey, 'RS256', claims(), 'rsa-1'));
      expect(jwks.requests()).toBe(1);
      const next = await makeKey('RS256', 'rsa-9');
      jwks.setKeys([rsa.publicJwk, next.publicJwk]);
      const token = await signWith(next.privateKey, 'RS256', claims({ sub: 'rotated' }), 'rsa-9');
      for (let i = 0; i < 5; i += 1) await expectFailure(v.verify(token), 'invalid_credentials', /unknown key/);
      expect(jwks.requests()).toBe(1);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31_000);
      await expect(v.verify(token)).resolves.toEqual({ userId: 'rotated' });
      expect(jwks.requests()).toBe(2);
    } finally {
      await jwks.close();
    }
  });
});

describe('JWKS unavailable', () => {
  const expectUnavailable = async (v: SessionVerifier): Promise<void> => {
    const err = await v.verify(await signWith(rsa.privateKey, 'RS256', claims(), 'rsa-1')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IdentityProviderUnavailable);
    expect(err).not.toBeInstanceOf(AuthFailure);
  };

  it('connection refused', async () => {
    await expectUnavailable(createSessionVerifier({ mode: 'jwks', jwksUrl: await closedPortUrl() }));
  });

  it.each([
    [500, '{"error":"boom"}'],
    [404, 'not found'],
    [200, '<html>login</html>'],
    [200, '{"nokeys":true}'],
  ])('answer %i %s', async (status, body) => {
    const jwks = await startJwksServer([rsa.publicJwk]);
    try {
      jwks.setFailure({ status, body });
      const v = createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url });
      await expectUnavailable(v);
      jwks.setFailure(null); // recovers as soon as the provider does
      await expect(v.verify(await signWith(rsa.privateKey, 'RS256', claims(), 'rsa-1'))).resolves.toEqual({ userId: 'user-1' });
    } finally {
      await jwks.close();
    }
  });

  it('timeout', async () => {
    const jwks = await startJwksServer([rsa.publicJwk]);
    try {
      jwks.hang();
      await expectUnavailable(createSessionVerifier({ mode: 'jwks', jwksUrl: jwks.url, timeoutMs: 200 }));
    } finally {
      await jwks.close();
    }
  });
});

describe('JWKS configuration', () => {
  it('rejects bad URLs and empty issuer/audience, naming the variable', () => {
    expect(() => createSessionVerifier({ mode: 'jwks', jwksUrl: 'not a url' })).toThrow(/TRACKCHECK_JWKS_URL/);
    expect(() => createSessionVerifier({ mode: 'jwks', jwksUrl: 'file:///etc/jwks.json' })).toThrow(AuthConfigError);
    expect(() => createSessionVerifier({ mode: 'jwks', jwksUrl: server.url, issuer: ' ' })).toThrow(/TRACKCHECK_JWT_ISSUER/);
    expect(() => createSessionVerifier({ mode: 'jwks', jwksUrl: server.url, audience: '' })).toThrow(/TRACKCHECK_JWT_AUDIENCE/);
  });

  it('describe() names the key set without credentials or query', () => {
    const v = createSessionVerifier({ mode: 'jwks', jwksUrl: 'https://user:pw@idp.test/jwks?token=abc', issuer: ISSUER });
    expect(v.describe()).toContain('https://idp.test/jwks');
    expect(v.describe()).toContain(ISSUER);
    expect(v.describe()).not.toMatch(/pw|abc/);
  });
});
