import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

const counterStores = [
  { name: 'in-process', env: {} as Record<string, string> },
  ...(REDIS_URL ? [{ name: 'redis', env: { TRACKCHECK_REDIS_URL: REDIS_URL } }] : []),
];

describe.each(counterStores)('rate limits with the $name counter store', ({ env }) => {
  let t: TestApp;
  // Unique identities per run: a shared Redis outlives this process.
  const user = () => `user-${randomUUID()}`;
  const ip = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;

  beforeEach(async () => {
    t = await startTestApp({ env });
  });
  afterEach(async () => {
    await t.close();
  });

  it('counts exactly, counts the headers down and answers 429 in the envelope', async () => {
    const { key } = await t.createKey(user());
    for (let i = 1; i <= 60; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(res.headers['retry-after']).toBeUndefined();
    }
    t.clock.advance(15_500);
    const over = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(over.statusCode).toBe(429);
    expect(over.headers['x-ratelimit-limit']).toBe('60');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(over.headers['retry-after']).toBe('45');
    const { error } = over.json();
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'rate_limited', request_id: over.headers['x-request-id'] });
    expect(error.message).toContain('45 seconds');
  });

  it('separates endpoints and users, shares one counter per route template, and resets each minute', async () => {
    const alice = user();
    const { key } = await t.createKey(alice);
    const other = await t.createKey(user());
    for (let i = 0; i < 60; i++) await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) })).statusCode).toBe(429);
    // Another endpoint of the same user, and the same endpoint of another user, are untouched.
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/keys/00000000-0000-4000-8000-000000000001', headers: bearer(key) });
    expect(del.statusCode).toBe(404);
    expect(del.headers['x-ratelimit-remaining']).toBe('59');
    const del2 = await t.app.inject({ method: 'DELETE', url: '/v1/keys/00000000-0000-4000-8000-000000000002', headers: bearer(key) });
    expect(del2.headers['x-ratelimit-remaining']).toBe('58');
    expect((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(other.key) })).statusCode).toBe(200);
    // The window is the UTC minute: the next one starts fresh.
    t.clock.advance(60_000);
    const fresh = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('lets exactly 60 of 80 concurrent requests through', async () => {
    const { key } = await t.createKey(user());
    const responses = await Promise.all(
      Array.from({ length: 80 }, () => t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) })),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(60);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(new Set(remaining).size).toBe(60);
  });

  it('limits anonymous callers to 20 per minute per IP, also on their 401s', async () => {
    const address = ip();
    for (let i = 1; i <= 20; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/keys', remoteAddress: address });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - i));
    }
    const over = await t.app.inject({ method: 'GET', url: '/v1/keys', remoteAddress: address });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('rate_limited');
    const otherIp = await t.app.inject({ method: 'GET', url: '/v1/keys', remoteAddress: ip() });
    expect(otherIp.statusCode).toBe(401);
  });

  it('never limits /health and sends it no rate-limit headers', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
