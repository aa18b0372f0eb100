import type { Clock } from '../../src/rate-limit/window.js';

/** A clock the test moves by hand, so window boundaries are crossed without sleeping. */
export interface FakeClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function createFakeClock(startMs: number): FakeClock {
  let t = startMs;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** 2024-03-10T12:34:00.000Z, a UTC minute boundary. */
export const MINUTE_START = Date.UTC(2024, 2, 10, 12, 34, 0, 0);
