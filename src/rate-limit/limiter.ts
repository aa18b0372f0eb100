import { RateLimitStoreUnavailable, type CounterStore } from './store.js';
import { currentWindow, DEFAULT_WINDOW_MS, systemClock, type Clock } from './window.js';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one, never negative. */
  remaining: number;
  /** Whole seconds until the window resets (1..60); what a 429 sends as Retry-After. */
  retryAfterSeconds: number;
  /** Same value as retryAfterSeconds, also meaningful on allowed requests. */
  resetSeconds: number;
  /** True when the store failed and the request was let through uncounted (fail-open). */
  degraded?: true;
}

export interface LimiterOptions {
  store: CounterStore;
  clock?: Clock;
  windowMs?: number;
  /** Default true: a store outage lets requests through rather than taking the API down with it. */
  failOpen?: boolean;
  /** Called on every failed increment, fail-open or not, so the HTTP layer can log it loudly. */
  onStoreError?(err: Error): void;
}

export interface Limiter {
  /** Count this request against `key` ("who|endpoint", e.g. "user:alice|GET /v1/checks/:slug") and decide. */
  check(key: string, limit: number): Promise<LimitDecision>;
}

/**
 * Count-then-decide: the atomic increment's result n is this request's position in the window, so
 * allowed ⇔ n ≤ limit lets exactly `limit` requests through per window however many arrive at once,
 * across processes too when they share one Redis store. Denied requests are counted as well (the counter
 * keeps rising past the limit); that costs nothing since the key expires with its window.
 */
export function createLimiter(opts: LimiterOptions): Limiter {
  const clock = opts.clock ?? systemClock;
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  const failOpen = opts.failOpen ?? true;
  currentWindow(0, windowMs); // validates windowMs once, at construction

  return {
    async check(key, limit) {
      if (!Number.isInteger(limit) || limit < 0) {
        throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      }
      const { start, resetMs } = currentWindow(clock.now(), windowMs);
      const resetSeconds = Math.ceil(resetMs / 1000);
      let count: number;
      try {
        count = await opts.store.increment(key, start, windowMs);
      } catch (cause) {
        const err = cause instanceof Error ? cause : new Error(String(cause));
        opts.onStoreError?.(err);
        if (!failOpen) throw new RateLimitStoreUnavailable(err);
        // Uncounted, so report the window as if this were its first request: the headers stay valid
        // integers and a client is never told to back off because of our outage.
        return {
          allowed: true,
          limit,
          remaining: Math.max(0, limit - 1),
          retryAfterSeconds: resetSeconds,
          resetSeconds,
          degraded: true,
        };
      }
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        retryAfterSeconds: resetSeconds,
        resetSeconds,
      };
    },
  };
}
