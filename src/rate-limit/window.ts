/** Fixed rate-limit windows aligned to the UTC minute (epoch milliseconds have no leap seconds, so
 * `floor(now / 60000) * 60000` is exactly the start of the current UTC minute). */

export const DEFAULT_WINDOW_MS = 60_000;

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

function assertWindowMs(windowMs: number): void {
  if (!Number.isInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);
  }
}

/** The window containing `nowMs`: its start and the milliseconds until it ends (1..windowMs). */
export function currentWindow(nowMs: number, windowMs: number = DEFAULT_WINDOW_MS): { start: number; resetMs: number } {
  assertWindowMs(windowMs);
  // Sub-millisecond clocks (performance.timeOrigin + now()) must not produce a resetMs of 0.x.
  const now = Math.floor(nowMs);
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}

/** Whole seconds until the window resets, rounded up so a client that waits this long is never early:
 * 1..60 for the default window, never 0. */
export function retryAfterSeconds(nowMs: number, windowMs: number = DEFAULT_WINDOW_MS): number {
  return Math.ceil(currentWindow(nowMs, windowMs).resetMs / 1000);
}
