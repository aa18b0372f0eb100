import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const ISSUER = 'https://idp.example-auth.test/';
const AUDIENCE = 'trackcheck-api';

function b64(obj: unknown): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

async function hsToken(claims: Record<string, unknown>, opts: { secret?: string; iss?: string; aud?: string; exp?: number | null } = {}) {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (opts.iss !== '') jwt = jwt.setIssuer(opts.iss ?? ISSUER);
  if (opts.aud !== '') jwt = jwt.setAudience(opts.aud ?? AUDIENCE);
  if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600);
  return jwt.sign(new TextEncoder().encode(opts.secret ?? SECRET));
}

async function expectAuthError(
  t: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  status: number,
  code: string,
) {
  const res = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: { name: 'x' } } : {}) });
  expect(res.statusCode, `${method} ${url} ${code}`).toBe(status);
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(body.error.type).toBe('authentication_error');
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(res.headers['x-ratelimit-limit']).toBeDefined();
}

// Every credential kind on a route of each method; test/http/route-auth.test.ts covers every route of the app
// (anonymous, malformed, unknown, revoked and expired API keys) from the route table.
const ROUTES = [
  ['POST', '/v1/keys'],
  ['GET', '/v1/keys'],
  ['DELETE', '/v1/keys/00000000-0000-4000-8000-000000000000'],
] as const;

describe.each(DATABASES)('authentication with an HS256 secret on $name', (database) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({
      database,
      env: { TRACKCHECK_JWT_SECRET: SECRET, TRACKCHECK_JWT_ISSUER: ISSUER, TRACKCHECK_JWT_AUDIENCE: AUDIENCE },
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it('accepts a valid session token and takes the user from sub', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: bearer(await hsToken({ sub: 'alice' })),
      payload: { name: 'k' },
    });
    expect(res.statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(res.json().data.key) });
    expect(list.json().data).toHaveLength(1);
  });

  it('refuses every kind of bad credential (GET, POST and DELETE)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Record<string, string>, number, string][] = [
      ['no header', {}, 401, 'authentication_required'],
      ['garbage', bearer('garbage'), 401, 'invalid_credentials'],
      ['empty bearer', { authorization: 'Bearer ' }, 401, 'invalid_credentials'],
      ['basic scheme', { authorization: 'Basic YWxpY2U6cHc=' }, 401, 'invalid_credentials'],
      ['unknown api key', bearer('pg_live_00000000-0000-4000-8000-000000000000'), 401, 'invalid_api_key'],
      ['expired', bearer(await hsToken({ sub: 'alice' }, { exp: now - 60 })), 401, 'token_expired'],
      [
        'wrong signature',
        bearer(await hsToken({ sub: 'alice' }, { secret: 'another-secret-that-is-long-enough-too!!' })),
        401,
        'invalid_credentials',
      ],
      [
        'alg none',
        bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', iss: ISSUER, aud: AUDIENCE, exp: now + 600 })}.`),
        401,
        'invalid_credentials',
      ],
      ['wrong issuer', bearer(await hsToken({ sub: 'alice' }, { iss: 'https://evil.example/' })), 401, 'invalid_credentials'],
      ['wrong audience', bearer(await hsToken({ sub: 'alice' }, { aud: 'someone-else' })), 401, 'invalid_credentials'],
      ['missing sub', bearer(await hsToken({})), 401, 'invalid_credentials'],
      ['missing exp', bearer(await hsToken({ sub: 'alice' }, { exp: null })), 401, 'invalid_credentials'],
    ];
    for (const [method, url] of ROUTES) {
      for (const [label, headers, status, code] of cases) {
        if (label === 'no header') continue;
        await expectAuthError(t, method, url, headers, status, code);
      }
      await expectAuthError(t, method, url, {}, 401, 'authentication_required');
    }
  });

  it('refuses revoked and expired API keys, and API keys on POST /v1/keys', async () => {
    const session = bearer(await hsToken({ sub: 'alice' }));
    const make = async (payload: Record<string, unknown>) =>
      (await t.app.inject({ method: 'POST', url: '/v1/keys', headers: session, payload })).json().data as { id: string; key: string };
    const keep = await make({ name: 'keep' });
    const revoked = await make({ name: 'revoked' });
    const expiring = await make({ name: 'expiring', expiresAt: new Date(t.clock.now() + 60_000).toISOString() });
    await t.app.inject({ method: 'DELETE', url: `/v1/keys/${revoked.id}`, headers: session });
    t.clock.advance(60_000);
    for (const [method, url] of ROUTES) {
      await expectAuthError(t, method, url, bearer(revoked.key), 401, 'invalid_api_key');
      await expectAuthError(t, method, url, bearer(expiring.key), 401, 'api_key_expired');
    }
    await expectAuthError(t, 'POST', '/v1/keys', bearer(keep.key), 403, 'session_token_required');
  });
});

describe('authentication with a JWKS identity provider', () => {
  let jwks: Server;
  let privateKey: CryptoKey;
  let t: TestApp;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const port = (jwks.address() as AddressInfo).port;
    t = await startTestApp({
      env: { TRACKCHECK_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, TRACKCHECK_JWT_ISSUER: ISSUER, TRACKCHECK_JWT_AUDIENCE: AUDIENCE },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const rsToken = (claims: Record<string, unknown>, iss = ISSUER, aud = AUDIENCE) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(iss)
      .setAudience(aud)
      .setExpirationTime('10m')
      .sign(privateKey);

  it('accepts tokens signed by the provider and pins issuer and audience', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(await rsToken({ sub: 'carol' })) });
    expect(ok.statusCode).toBe(200);
    await expectAuthError(
      t,
      'GET',
      '/v1/keys',
      bearer(await rsToken({ sub: 'carol' }, 'https://other.example/')),
      401,
      'invalid_credentials',
    );
    await expectAuthError(t, 'GET', '/v1/keys', bearer(await rsToken({ sub: 'carol' }, ISSUER, 'other')), 401, 'invalid_credentials');
    await expectAuthError(t, 'GET', '/v1/keys', bearer(await hsToken({ sub: 'carol' })), 401, 'invalid_credentials');
  });
});
