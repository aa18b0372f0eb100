// Property test: nothing a client can send produces a 5xx, and every error is the contract's envelope.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('request fuzzing', () => {
  let t: TestApp;
  let validKey = '';
  let session = '';
  beforeAll(async () => {
    t = await startTestApp({ env: { TRACKCHECK_RATE_LIMIT: '1000000', TRACKCHECK_ANON_RATE_LIMIT: '1000000' } });
    validKey = (await t.createKey('fuzzer')).key;
    session = await t.sessionToken('fuzzer');
  });
  afterAll(async () => {
    await t.close();
  });

  const token = fc.oneof(
    fc.string(),
    fc.constant(null).map(() => validKey),
    fc.constantFrom('pg_live_00000000-0000-4000-8000-000000000000', 'pg_live_', 'PG_LIVE_x'),
    fc.tuple(fc.string(), fc.string(), fc.string()).map(([a, b, c]) => `${b64(a)}.${b64(b)}.${b64(c)}`),
    fc.tuple(fc.json(), fc.json()).map(([h, p]) => `${b64(h)}.${b64(p)}.sig`),
    fc.constant('a.b.c'),
  );
  const authorization = fc.option(
    fc.oneof(
      token.map((x) => `Bearer ${x}`),
      fc.string(),
      token.map((x) => `bearer  ${x}`),
      fc.constant('Bearer'),
    ),
    { nil: undefined },
  );
  const path = fc.oneof(
    fc.constantFrom('/v1/keys', '/health', '/docs', '/openapi.json', '/v1/keys/', '/v1/', '/'),
    fc.string().map((s) => `/v1/keys/${encodeURIComponent(s)}`),
    fc.webPath(),
    fc.string({ maxLength: 40 }).map((s) => `/v1/keys?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
  );
  const body = fc.oneof(
    fc.constant(undefined),
    fc.string(),
    fc.json(),
    fc
      .record(
        {
          name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
          expiresAt: fc.oneof(
            fc.string(),
            fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
          ),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
    fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1')),
  );
  const contentType = fc.option(
    fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        '',
      ),
      fc.string(),
    ),
    { nil: undefined },
  );

  it('never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
        path,
        authorization,
        contentType,
        body,
        fc.boolean(),
        async (method, url, auth, type, payload, useSession) => {
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = useSession && auth.startsWith('Bearer') ? `Bearer ${session}` : auth;
          if (type !== undefined) headers['content-type'] = type;
          let res;
          try {
            res = await t.app.inject({
              method: method as 'GET',
              url,
              headers,
              payload: method === 'GET' || method === 'HEAD' ? undefined : payload,
            });
          } catch (err) {
            // inject itself refuses header values Node would never send (e.g. control characters).
            if (err instanceof TypeError || (err as { code?: string }).code === 'ERR_INVALID_CHAR') return;
            throw err;
          }
          expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)} ${String(payload)}`).toBeLessThan(500);
          expect(res.headers['x-request-id']).toMatch(/^req_/);
          if (res.statusCode >= 400 && method !== 'HEAD') {
            expect(Object.keys(res.json().error).sort()).toEqual(['code', 'message', 'request_id', 'type']);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 600) },
    );
  });
});
