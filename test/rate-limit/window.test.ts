import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentWindow, retryAfterSeconds, systemClock } from '../../src/rate-limit/window.js';
import { MINUTE_START } from '../helpers/fake-clock.js';

describe('currentWindow', () => {
  it('starts exactly on the UTC minute and resets a full minute later at the boundary', () => {
    expect(currentWindow(MINUTE_START)).toEqual({ start: MINUTE_START, resetMs: 60_000 });
    const start = new Date(currentWindow(MINUTE_START + 12_345).start);
    expect(start.toISOString()).toBe('2024-03-10T12:34:00.000Z');
  });

  it('has 1 ms left on the last millisecond of the minute, then rolls over', () => {
    expect(currentWindow(MINUTE_START + 59_999)).toEqual({ start: MINUTE_START, resetMs: 1 });
    expect(currentWindow(MINUTE_START + 60_000)).toEqual({ start: MINUTE_START + 60_000, resetMs: 60_000 });
  });

  it('floors sub-millisecond clocks so resetMs never drops below 1', () => {
    expect(currentWindow(MINUTE_START + 59_999.9)).toEqual({ start: MINUTE_START, resetMs: 1 });
  });

  it('supports other window lengths and rejects nonsense ones', () => {
    expect(currentWindow(MINUTE_START + 1_500, 1_000)).toEqual({ start: MINUTE_START + 1_000, resetMs: 500 });
    expect(() => currentWindow(MINUTE_START, 0)).toThrow(RangeError);
    expect(() => currentWindow(MINUTE_START, -60_000)).toThrow(RangeError);
    expect(() => currentWindow(MINUTE_START, 1.5)).toThrow(RangeError);
  });

  it('holds its invariants for any instant (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4_102_444_800_000, noNaN: true }), (now) => {
        const { start, resetMs } = currentWindow(now);
        expect(start % 60_000).toBe(0);
        expect(new Date(start).getUTCSeconds()).toBe(0);
        expect(start).toBeLessThanOrEqual(now);
        expect(now).toBeLessThan(start + 60_000);
        expect(Number.isInteger(resetMs)).toBe(true);
        expect(resetMs).toBeGreaterThanOrEqual(1);
        expect(resetMs).toBeLessThanOrEqual(60_000);
      }),
    );
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up so a client waiting that long is never early', () => {
    expect(retryAfterSeconds(MINUTE_START)).toBe(60);
    expect(retryAfterSeconds(MINUTE_START + 1)).toBe(60);
    expect(retryAfterSeconds(MINUTE_START + 29_999)).toBe(31);
    expect(retryAfterSeconds(MINUTE_START + 30_000)).toBe(30);
    expect(retryAfterSeconds(MINUTE_START + 30_500)).toBe(30);
    expect(retryAfterSeconds(MINUTE_START + 59_000)).toBe(1);
    expect(retryAfterSeconds(MINUTE_START + 59_999)).toBe(1);
  });

  it('is always a whole number of seconds from 1 to 60, never 0 (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4_102_444_800_000, noNaN: true }), (now) => {
        const seconds = retryAfterSeconds(now);
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        // Waiting that many seconds lands in a later window.
        expect(currentWindow(now + seconds * 1000).start).toBeGreaterThan(currentWindow(now).start);
      }),
    );
  });

  it('follows the window length', () => {
    expect(retryAfterSeconds(MINUTE_START + 100, 1_000)).toBe(1);
    expect(retryAfterSeconds(MINUTE_START, 3_600_000)).toBeLessThanOrEqual(3_600);
  });
});

describe('systemClock', () => {
  it('reads the wall clock in epoch milliseconds', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
