import { describe, expect, it, vi } from 'vitest';
import { createLimiter } from '../../src/rate-limit/limiter.js';
import { createMemoryStore } from '../../src/rate-limit/memory-store.js';
import { RateLimitStoreUnavailable, type CounterStore } from '../../src/rate-limit/store.js';
import { createFakeClock, MINUTE_START } from '../helpers/fake-clock.js';

function createBrokenStore(failure: unknown = new Error('connect ECONNREFUSED 127.0.0.1:1')): CounterStore {
  return {
    increment: () => Promise.reject(failure),
    probe: () => Promise.resolve(false),
    close: () => Promise.resolve(),
  };
}

describe('limiter', () => {
  it('fails open by default: allows, reports a fresh window, flags degraded, tells onStoreError', async () => {
    const onStoreError = vi.fn();
    const limiter = createLimiter({
      store: createBrokenStore(),
      clock: createFakeClock(MINUTE_START + 45_000),
      onStoreError,
    });
    expect(await limiter.check('k', 60)).toEqual({
      allowed: true,
      limit: 60,
      remaining: 59,
      retryAfterSeconds: 15,
      resetSeconds: 15,
      degraded: true,
    });
    expect(onStoreError).toHaveBeenCalledOnce();
    expect(onStoreError.mock.calls[0]?.[0]).toBeInstanceOf(Error);
  });

  it('fails closed on request with a typed error carrying the cause', async () => {
    const onStoreError = vi.fn();
    const cause = new Error('Command timed out');
    const limiter = createLimiter({ store: createBrokenStore(cause), failOpen: false, onStoreError });
    const error = await limiter.check('k', 60).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RateLimitStoreUnavailable);
    expect(error).toMatchObject({ name: 'RateLimitStoreUnavailable', code: 'rate_limit_store_unavailable', cause });
    expect(onStoreError).toHaveBeenCalledWith(cause);
  });

  it('wraps non-Error rejections before reporting them', async () => {
    const onStoreError = vi.fn();
    const limiter = createLimiter({ store: createBrokenStore('boom'), onStoreError });
    expect((await limiter.check('k', 0)).remaining).toBe(0);
    expect(onStoreError.mock.calls[0]?.[0]).toBeInstanceOf(Error);
  });

  it('refuses everything with a limit of 0 and validates its inputs', async () => {
    const limiter = createLimiter({ store: createMemoryStore(), clock: createFakeClock(MINUTE_START) });
    expect(await limiter.check('k', 0)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
    await expect(limiter.check('k', -1)).rejects.toThrow(RangeError);
    await expect(limiter.check('k', 2.5)).rejects.toThrow(RangeError);
    expect(() => createLimiter({ store: createMemoryStore(), windowMs: 0 })).toThrow(RangeError);
  });

  it('honours a custom window length', async () => {
    const clock = createFakeClock(MINUTE_START + 400);
    const limiter = createLimiter({ store: createMemoryStore(), clock, windowMs: 1_000 });
    expect(await limiter.check('k', 1)).toMatchObject({ allowed: true, resetSeconds: 1 });
    expect((await limiter.check('k', 1)).allowed).toBe(false);
    clock.advance(600);
    expect((await limiter.check('k', 1)).allowed).toBe(true);
  });

  it('uses the system clock when none is injected', async () => {
    const decision = await createLimiter({ store: createMemoryStore() }).check('k', 60);
    expect(decision.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(decision.resetSeconds).toBeLessThanOrEqual(60);
  });
});
