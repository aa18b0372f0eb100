/** A counter per (key, window). Implementations must make `increment` atomic: the count it returns is the
 * caller's position in the window, and the limiter's exactness under concurrency rests on that. */
export interface CounterStore {
  /** Atomically add one to the counter `key` of the window starting at windowStart and return the new count. */
  increment(key: string, windowStart: number, windowMs: number): Promise<number>;
  /** Whether the store answers right now (for /health): never throws, settles within the store's own timeout. */
  probe(): Promise<boolean>;
  close(): Promise<void>;
}

/** The counter store could not answer (Redis down, timed out, closed). Thrown by the limiter only when it
 * is configured to fail closed; `cause` holds the store's own error. */
export class RateLimitStoreUnavailable extends Error {
  override readonly name = 'RateLimitStoreUnavailable';
  readonly code = 'rate_limit_store_unavailable';

  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`rate-limit counter store unavailable: ${detail}`, { cause });
  }
}
