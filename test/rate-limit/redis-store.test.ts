import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/rate-limit/limiter.js';
import { buildRedisKey, createRedisStore, type RedisStoreOptions } from '../../src/rate-limit/redis-store.js';
import { RateLimitStoreUnavailable, type CounterStore } from '../../src/rate-limit/store.js';
import { createFakeClock, MINUTE_START } from '../helpers/fake-clock.js';
import { itBehavesLikeACounterStore } from './store-contract.js';
import { findClosedPort, startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const REDIS_URL = process.env.TRACKCHECK_TEST_REDIS_URL;
const FAIL_FAST_MS = 1_000;

/** Time an increment that must fail, returning the elapsed milliseconds. */
async function timeFailure(store: CounterStore): Promise<number> {
  const started = performance.now();
  await expect(store.increment('k', MINUTE_START, 60_000)).rejects.toThrow();
  return performance.now() - started;
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!REDIS_URL)('redis store', () => {
  const url = REDIS_URL ?? '';
  const runPrefix = `trackcheck:test:${randomUUID()}:`;
  let testNumber = 0;
  let prefix = runPrefix;
  let admin: Redis;
  let store: CounterStore;
  const opened: CounterStore[] = [];

  function openStore(storeUrl = url, opts: RedisStoreOptions = {}): CounterStore {
    const created = createRedisStore(storeUrl, { keyPrefix: prefix, ...opts });
    opened.push(created);
    return created;
  }

  beforeAll(() => {
    admin = new Redis(url, { maxRetriesPerRequest: 1 });
  });
  beforeEach(() => {
    prefix = `${runPrefix}${testNumber++}:`; // tests reuse key names; a prefix each keeps them apart
    store = openStore();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    const keys = await admin.keys(`${runPrefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  itBehavesLikeACounterStore(() => store);

  it('lets exactly 60 of 80 concurrent requests through two separate connections', async () => {
    const clock = createFakeClock(MINUTE_START + 1_000);
    const limiters = [store, openStore()].map((s) => createLimiter({ store: s, clock }));
    const decisions = await Promise.all(
      Array.from({ length: 80 }, (_, i) => limiters[i % 2]?.check('user:alice|GET /v1/checks/:slug', 60)),
    );
    const allowed = decisions.filter((d) => d?.allowed === true);
    expect(allowed).toHaveLength(60);
    expect(allowed.map((d) => d?.remaining).sort((x = 0, y = 0) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('stores the counter under the prefixed, window-stamped key with an expiry of at most one window', async () => {
    await store.increment('user:alice|GET /v1/checks/:slug', MINUTE_START, 60_000);
    const key = buildRedisKey(prefix, 'user:alice|GET /v1/checks/:slug', MINUTE_START);
    expect(await admin.keys(`${prefix}*`)).toEqual([key]);
    expect(await admin.get(key)).toBe('1');
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('gives a counter left without an expiry one on its next increment', async () => {
    const key = buildRedisKey(prefix, 'k', MINUTE_START);
    await admin.set(key, '7');
    expect(await store.increment('k', MINUTE_START, 60_000)).toBe(8);
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('fails fast, and the limiter fails open, when nothing listens on the port', async () => {
    const errors: Error[] = [];
    const down = openStore(`redis://127.0.0.1:${await findClosedPort()}`, { onError: (err) => errors.push(err) });
    expect(await timeFailure(down)).toBeLessThan(FAIL_FAST_MS);
    for (let i = 0; i < 5; i++) expect(await timeFailure(down)).toBeLessThan(FAIL_FAST_MS);

    const storeErrors: Error[] = [];
    const open = createLimiter({ store: down, onStoreError: (err) => storeErrors.push(err) });
    expect(await open.check('k', 60)).toMatchObject({ allowed: true, limit: 60, remaining: 59, degraded: true });
    expect(storeErrors).toHaveLength(1);

    const closed = createLimiter({ store: down, failOpen: false });
    await expect(closed.check('k', 60)).rejects.toBeInstanceOf(RateLimitStoreUnavailable);

    // Let several reconnect attempts (50, 100, 150 ms apart) fail with the same ECONNREFUSED: reported once.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(errors.length).toBe(1);
    expect(errors[0]?.message).toMatch(/ECONNREFUSED/);
  });

  it('fails fast when the server accepts connections but never answers', async () => {
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    try {
      const address = silent.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      const hung = openStore(`redis://127.0.0.1:${address.port}`);
      expect(await timeFailure(hung)).toBeLessThan(FAIL_FAST_MS);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  describe('through a proxy that can go down', () => {
    let proxy: TcpProxy;
    let proxied: CounterStore;
    beforeEach(async () => {
      const target = new URL(url);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
      target.hostname = '127.0.0.1';
      target.port = String(proxy.port);
      proxied = openStore(target.toString());
    });
    afterEach(async () => {
      await proxy.stop();
    });

    it('times out a command on a hung connection instead of waiting for ever', async () => {
      expect(await proxied.increment('k', MINUTE_START, 60_000)).toBe(1);
      proxy.setFrozen(true);
      expect(await timeFailure(proxied)).toBeLessThan(FAIL_FAST_MS);
      proxy.setFrozen(false);
    });

    it('recovers on its own once Redis is reachable again', async () => {
      expect(await proxied.increment('k', MINUTE_START, 60_000)).toBe(1);
      await proxy.stop();
      expect(await timeFailure(proxied)).toBeLessThan(FAIL_FAST_MS);
      expect(await timeFailure(proxied)).toBeLessThan(FAIL_FAST_MS);
      await proxy.start();
      const recovered = performance.now();
      await waitUntil(
        () =>
          proxied.increment('k', MINUTE_START, 60_000).then(
            () => true,
            () => false,
          ),
        5_000,
      );
      // Reconnect attempts are at most a second apart.
      expect(performance.now() - recovered).toBeLessThan(2_000);
      // The counter survived the outage: it lives in Redis, not in the connection.
      expect(await proxied.increment('k', MINUTE_START, 60_000)).toBe(3);
    });
  });

  it('counts a burst of one counter with one command, each caller getting its own position', async () => {
    const monitor = await admin.duplicate().monitor();
    const counted: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.startsWith(prefix))) counted.push(args);
    });
    try {
      const positions = await Promise.all(Array.from({ length: 50 }, () => store.increment('burst', MINUTE_START, 60_000)));
      expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await admin.get(buildRedisKey(prefix, 'burst', MINUTE_START))).toBe('50');
      await waitUntil(async () => counted.length > 0, 2_000);
      // One increment of 50 for the whole burst: EVALSHA, followed by EVAL only if Redis answered NOSCRIPT.
      const increments = counted.filter((args) => /^eval/i.test(args[0] ?? '')).map((args) => args.at(-1));
      expect(increments.length).toBeGreaterThanOrEqual(1);
      expect(increments.length).toBeLessThanOrEqual(2);
      expect(new Set(increments)).toEqual(new Set(['50']));
    } finally {
      await monitor.disconnect();
    }
  });

  it('closes idempotently and refuses to count afterwards', async () => {
    expect(await store.increment('k', MINUTE_START, 60_000)).toBe(1);
    await store.close();
    await store.close();
    await expect(store.increment('k', MINUTE_START, 60_000)).rejects.toThrow(/closed/i);
  });
});
