import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

function expectEnvelope(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { error: Record<string, string> };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'type']);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(res.headers['x-request-id']).toBe(body.error.request_id);
  return body.error;
}

describe.each(DATABASES)('the error envelope on $name', (database) => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await startTestApp({ database });
    token = await t.sessionToken('alice');
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers unknown routes with 404 not_found', async () => {
    for (const url of ['/nope', '/v1/nothing', '/v1/keys/a/b', '/v2/keys']) {
      const error = expectEnvelope(await t.app.inject({ method: 'GET', url }), 404, 'not_found');
      expect(error.type).toBe('invalid_request_error');
    }
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/keys', headers: bearer(token) });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(String(res.headers.allow)).toContain('GET');
    expect(String(res.headers.allow)).toContain('POST');
    expectEnvelope(await t.app.inject({ method: 'POST', url: '/health' }), 405, 'method_not_allowed');
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectEnvelope(res, 413, 'payload_too_large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { ...bearer(token), 'content-type': type },
        payload: 'name=x',
      });
      expectEnvelope(res, 415, 'unsupported_media_type');
    }
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    for (const payload of ['{', '{"name": }', 'nul', '{"name":"a"}garbage', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload,
      });
      expectEnvelope(res, 400, 'invalid_json');
    }
  });

  it('hides internals of unexpected failures behind 500 internal_error', async () => {
    const t2 = await startTestApp({ database });
    await t2.app.close();
    // Rebuild without ready() so a failing route can be added, like a bug would behave.
    const { buildApp } = await import('../../src/app.js');
    const app = await buildApp(t2.ctx, { logger: false });
    app.get('/boom', { config: { auth: 'none' } }, async () => {
      throw new Error('secret internals: password=hunter2 at /srv/app.ts:42');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    const error = expectEnvelope(res, 500, 'internal_error');
    expect(error.type).toBe('api_error');
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('app.ts');
    await app.close();
    await t2.close();
  });

  it('answers 503 service_unavailable on /health and on the API when the database is gone', async () => {
    const { key } = await t.createKey('alice');
    await t.ctx.store.close();
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    const error = expectEnvelope(health, 503, 'service_unavailable');
    expect(error.type).toBe('api_error');
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) }), 503, 'service_unavailable');
  });

  it('answers 503 service_unavailable, not 500, when a rate limiter set to fail closed cannot count', async () => {
    const { buildApp } = await import('../../src/app.js');
    const { createLimiter } = await import('../../src/rate-limit/limiter.js');
    const broken = {
      increment: async () => Promise.reject(new Error('counter store down')),
      probe: async () => false,
      close: async () => undefined,
    };
    const app = await buildApp({ ...t.ctx, limiter: createLimiter({ store: broken, failOpen: false }) }, { logger: false });
    const res = await app.inject({ method: 'GET', url: '/v1/checks/abcdefghij' });
    expectEnvelope(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('5');
    await app.close();
  });

  it('puts X-Request-Id on successful responses too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(typeof body.version).toBe('string');
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/keys', '/v1/keys/{id}', '/health']));
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/v1/keys');
  });
});
