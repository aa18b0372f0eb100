// The client's retries against a running service: Retry-After honoured (waits asserted through an injected sleep
// that moves the service's fake clock), the bound, the typed error envelope, 503 backoff through a fault proxy,
// and the POST routes that must never be retried where a retry could create a duplicate.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TrackcheckApiError, TrackcheckClient, TrackcheckConnectionError, type RetryEvent } from '../../src/index.js';
import { recordingSleep, startFaultProxy, startListeningApp, type FaultProxy, type ListeningApp } from './running-service.js';

const LINK = 'https://www.shop.example/p/1';

describe('client retries against a running service', () => {
  let t: ListeningApp;
  let key: string;
  let proxy: FaultProxy;
  const requests: string[] = [];
  const countingFetch = (input: string, init: RequestInit) => {
    requests.push(`${init.method} ${new URL(input).pathname}`);
    return fetch(input, init);
  };

  beforeAll(async () => {
    // No worker: checks stay queued and POST /v1/checks answers 202 at once.
    t = await startListeningApp({
      worker: false,
      env: { TRACKCHECK_RATE_LIMIT: '2', TRACKCHECK_SYNC_WAIT_MS: '0', TRACKCHECK_ANON_WEEKLY_CHECKS: '1' },
    });
    key = (await t.createKey('alice')).key;
    proxy = await startFaultProxy(t.url);
  });
  afterEach(() => {
    requests.length = 0;
    proxy.seen.length = 0;
    // Each test starts in a fresh rate-limit window, 45 s into it (Retry-After would be 15).
    t.clock.set((Math.floor(t.clock.now() / 60_000) + 1) * 60_000 + 45_000);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it('waits out Retry-After on 429 (plus bounded jitter), then succeeds', async () => {
    t.clock.set((Math.floor(t.clock.now() / 60_000) + 1) * 60_000 + 45_000);
    const { waits, sleep } = recordingSleep((ms) => t.clock.advance(ms));
    const events: RetryEvent[] = [];
    const client = new TrackcheckClient({
      baseUrl: t.url,
      apiKey: key,
      fetch: countingFetch,
      sleep,
      random: () => 0.5,
      onRetry: (e) => events.push(e),
    });
    await client.keys.list();
    await client.keys.list();
    const third = await client.keys.list();
    expect(third).toHaveLength(1);
    expect(waits).toEqual([15_000 + 250]);
    expect(requests).toEqual(['GET /v1/keys', 'GET /v1/keys', 'GET /v1/keys', 'GET /v1/keys']);
    expect(events).toHaveLength(1);
    expect(events[0]?.error).toBeInstanceOf(TrackcheckApiError);
    expect(events[0]).toMatchObject({
      method: 'GET',
      path: '/v1/keys',
      attempt: 1,
      delayMs: 15_250,
      error: { status: 429, code: 'rate_limited', retryAfter: 15 },
    });
  });

  it('retries a rate-limited POST /v1/checks: the limiter refused it before anything was created', async () => {
    const { waits, sleep } = recordingSleep((ms) => t.clock.advance(ms));
    const client = new TrackcheckClient({ baseUrl: t.url, apiKey: key, fetch: countingFetch, sleep, random: () => 0 });
    await client.checks.create({ url: LINK });
    await client.checks.create({ url: LINK });
    const before = (await client.checks.list({ limit: 100 })).data.length;
    const created = await client.checks.create({ url: LINK });
    expect(created.finished).toBe(false);
    expect(waits).toEqual([15_000]);
    expect((await client.checks.list({ limit: 100 })).data.length).toBe(before + 1);
  });

  it('gives up after maxAttempts and surfaces the last 429 as a typed error', async () => {
    const { waits, sleep } = recordingSleep();
    const client = new TrackcheckClient({
      baseUrl: t.url,
      apiKey: key,
      fetch: countingFetch,
      sleep,
      random: () => 0,
      retry: { maxAttempts: 3 },
    });
    await client.keys.list();
    await client.keys.list();
    const error = await client.keys.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackcheckApiError);
    expect(error).toMatchObject({
      status: 429,
      type: 'invalid_request_error',
      code: 'rate_limited',
      retryAfter: 15,
      attempts: 3,
      method: 'GET',
      path: '/v1/keys',
    });
    expect((error as TrackcheckApiError).requestId).toMatch(/^req_/);
    expect((error as TrackcheckApiError).message).toContain('15');
    expect(waits).toEqual([15_000, 15_000]);
    expect(requests).toHaveLength(5);
  });

  it('does not wait out a Retry-After beyond maxRetryAfterMs', async () => {
    const { waits, sleep } = recordingSleep();
    const client = new TrackcheckClient({ baseUrl: t.url, apiKey: key, fetch: countingFetch, sleep, retry: { maxRetryAfterMs: 10_000 } });
    await client.keys.list();
    await client.keys.list();
    await expect(client.keys.list()).rejects.toMatchObject({ status: 429, attempts: 1, retryAfter: 15 });
    expect(waits).toEqual([]);
  });

  it('never retries the anonymous weekly cap (usage_limit_error): it lifts on Monday', async () => {
    const { waits, sleep } = recordingSleep();
    const anonymous = new TrackcheckClient({
      baseUrl: t.url,
      fetch: countingFetch,
      sleep,
      retry: { maxRetryAfterMs: Number.POSITIVE_INFINITY },
    });
    await anonymous.checks.create({ url: LINK });
    const error = await anonymous.checks.create({ url: LINK }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, type: 'usage_limit_error', code: 'anonymous_check_limit_reached', attempts: 1 });
    expect((error as TrackcheckApiError).retryAfter).toBeGreaterThan(60);
    expect(waits).toEqual([]);
    expect(requests).toEqual(['POST /v1/checks', 'POST /v1/checks']);
  });

  it('surfaces the error envelope as TrackcheckApiError (401, 400, 404) without retrying', async () => {
    const { waits, sleep } = recordingSleep();
    const anonymous = new TrackcheckClient({ baseUrl: t.url, sleep });
    const unauthenticated = await anonymous.checks.list().catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(TrackcheckApiError);
    expect(unauthenticated).toMatchObject({
      status: 401,
      type: 'authentication_error',
      code: 'authentication_required',
      retryAfter: null,
      attempts: 1,
    });
    const client = new TrackcheckClient({ baseUrl: t.url, apiKey: key, sleep });
    await expect(client.batches.create({ urls: ['https://ok.example/a', 'ftp://nope.example/'] })).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'url_not_allowed',
      message: expect.stringContaining('urls[1]'),
    });
    const missing = await client.checks.get('no-such-slug-here').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', path: '/v1/checks/{slug}' });
    const raw = await fetch(`${t.url}/v1/checks/no-such-slug-here`);
    expect((missing as TrackcheckApiError).requestId).toMatch(/^req_/);
    expect((missing as TrackcheckApiError).requestId).not.toBe(raw.headers.get('x-request-id'));
    const badKey = new TrackcheckClient({ baseUrl: t.url, apiKey: 'pg_live_00000000-0000-4000-8000-000000000000', sleep });
    await expect(badKey.keys.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(waits).toEqual([]);
  });

  describe('503 and dropped connections, through a fault proxy', () => {
    it('backs off exponentially with full jitter on 503, then succeeds', async () => {
      proxy.script([{ status: 503 }, { status: 503 }]);
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({ baseUrl: proxy.url, apiKey: key, sleep, random: () => 0.5 });
      expect(await client.keys.list()).toHaveLength(1);
      // ceilings 500 ms then 1000 ms; full jitter at 0.5 waits half of each
      expect(waits).toEqual([250, 500]);
      expect(proxy.seen).toEqual(['GET /v1/keys', 'GET /v1/keys', 'GET /v1/keys']);
    });

    it('waits at least the Retry-After a 503 carries', async () => {
      proxy.script([{ status: 503, headers: { 'retry-after': '5' } }]);
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({ baseUrl: proxy.url, apiKey: key, sleep, random: () => 0.99 });
      await client.health();
      expect(waits).toEqual([5000]);
    });

    it('gives up after maxAttempts 503s with the proxy page as a typed api_error', async () => {
      proxy.script(Array.from({ length: 10 }, () => ({ status: 503 })));
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({
        baseUrl: proxy.url,
        apiKey: key,
        sleep,
        random: () => 1,
        retry: { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 3000 },
      });
      const error = await client.batches.list().catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 503, type: 'api_error', code: 'http_503', attempts: 5, requestId: null });
      expect(waits).toEqual([1000, 2000, 3000, 3000]);
      expect(proxy.seen).toHaveLength(5);
    });

    it('retries GET after a dropped connection, never POST /v1/checks', async () => {
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({ baseUrl: proxy.url, apiKey: key, sleep, random: () => 0 });
      proxy.script(['reset']);
      expect(await client.keys.list()).toHaveLength(1);
      expect(waits).toEqual([0]);
      proxy.script(['reset']);
      const error = await client.checks.create({ url: LINK }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TrackcheckConnectionError);
      expect(error).toMatchObject({ attempts: 1, method: 'POST', path: '/v1/checks' });
      proxy.script([{ status: 503 }]);
      await expect(client.checks.create({ url: LINK })).rejects.toMatchObject({ status: 503, attempts: 1 });
      expect(proxy.seen.filter((s) => s.startsWith('POST'))).toHaveLength(2);
      expect(waits).toEqual([0]);
    });

    it('retries POST /v1/batches on 503 (nothing was created) but not on 502, and creates exactly one batch', async () => {
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({ baseUrl: proxy.url, apiKey: key, sleep, random: () => 0 });
      const before = (await client.batches.list()).data.length;
      proxy.script([{ status: 503 }]);
      const batch = await client.batches.create({ urls: [LINK] });
      expect(batch.total).toBe(1);
      expect(waits).toEqual([0]);
      proxy.script([{ status: 502 }]);
      await expect(client.batches.create({ urls: [LINK] })).rejects.toMatchObject({ status: 502, attempts: 1 });
      proxy.script(['reset']);
      await expect(client.batches.create({ urls: [LINK] })).rejects.toBeInstanceOf(TrackcheckConnectionError);
      expect((await client.batches.list()).data.length).toBe(before + 1);
    });

    it('does not retry at all with retry: false', async () => {
      proxy.script([{ status: 503 }]);
      const { waits, sleep } = recordingSleep();
      const client = new TrackcheckClient({ baseUrl: proxy.url, apiKey: key, sleep, retry: false });
      await expect(client.health()).rejects.toMatchObject({ status: 503, attempts: 1 });
      expect(waits).toEqual([]);
    });
  });
});
