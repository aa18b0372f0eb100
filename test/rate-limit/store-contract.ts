import { expect, it } from 'vitest';
import { createLimiter } from '../../src/rate-limit/limiter.js';
import type { CounterStore } from '../../src/rate-limit/store.js';
import { createFakeClock, MINUTE_START } from '../helpers/fake-clock.js';

/** Exactness tests every CounterStore must pass; `getStore` returns a live store (owned by the caller). */
export function itBehavesLikeACounterStore(getStore: () => CounterStore): void {
  it('probes as available while it is open', async () => {
    expect(await getStore().probe()).toBe(true);
  });

  it('counts exactly, per key and per window', async () => {
    const store = getStore();
    expect(await store.increment('a', MINUTE_START, 60_000)).toBe(1);
    expect(await store.increment('a', MINUTE_START, 60_000)).toBe(2);
    expect(await store.increment('b', MINUTE_START, 60_000)).toBe(1);
    expect(await store.increment('a', MINUTE_START, 60_000)).toBe(3);
    expect(await store.increment('a', MINUTE_START + 60_000, 60_000)).toBe(1);
  });

  it('lets exactly 60 of 80 concurrent requests through', async () => {
    const limiter = createLimiter({ store: getStore(), clock: createFakeClock(MINUTE_START + 5_000) });
    const decisions = await Promise.all(Array.from({ length: 80 }, () => limiter.check('user:alice|GET /v1/checks/:slug', 60)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(60);
    expect(allowed.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const denied of decisions.filter((d) => !d.allowed)) {
      expect(denied).toMatchObject({ limit: 60, remaining: 0, retryAfterSeconds: 55, resetSeconds: 55 });
    }
  });

  it('counts remaining down 59..0, then refuses with Retry-After', async () => {
    const clock = createFakeClock(MINUTE_START + 59_000);
    const limiter = createLimiter({ store: getStore(), clock });
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const decision = await limiter.check('ip:192.0.2.1|GET /v1/checks', 60);
      expect(decision.allowed).toBe(true);
      remaining.push(decision.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    clock.advance(999); // last millisecond of the window
    expect(await limiter.check('ip:192.0.2.1|GET /v1/checks', 60)).toEqual({
      allowed: false,
      limit: 60,
      remaining: 0,
      retryAfterSeconds: 1,
      resetSeconds: 1,
    });
  });

  it('keeps keys apart: one exhausted key does not limit another', async () => {
    const limiter = createLimiter({ store: getStore(), clock: createFakeClock(MINUTE_START) });
    for (let i = 0; i < 3; i++) await limiter.check('user:alice|GET /v1/checks/:slug', 3);
    expect((await limiter.check('user:alice|GET /v1/checks/:slug', 3)).allowed).toBe(false);
    expect((await limiter.check('user:alice|POST /v1/checks', 3)).remaining).toBe(2);
    expect((await limiter.check('user:bob|GET /v1/checks/:slug', 3)).remaining).toBe(2);
  });

  it('resets when the clock crosses the UTC minute, with no sleeping', async () => {
    const clock = createFakeClock(MINUTE_START + 30_000);
    const limiter = createLimiter({ store: getStore(), clock });
    for (let i = 0; i < 5; i++) await limiter.check('k', 5);
    expect(await limiter.check('k', 5)).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
    clock.set(MINUTE_START + 59_999);
    expect((await limiter.check('k', 5)).allowed).toBe(false);
    clock.set(MINUTE_START + 60_000);
    expect(await limiter.check('k', 5)).toMatchObject({ allowed: true, remaining: 4, resetSeconds: 60 });
  });
}
