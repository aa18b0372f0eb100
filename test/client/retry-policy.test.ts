// The retry decision as a pure function: which outcomes are retried, how long the waits are, and the bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelayMs, parseRetryAfter, retryDelayMs, type AttemptOutcome } from '../../src/index.js';

const half = () => 0.5;
const outcome = (o: Partial<AttemptOutcome>): AttemptOutcome => ({ method: 'GET', path: '/v1/checks', attempt: 1, status: 503, ...o });

describe('retryDelayMs', () => {
  it('honours Retry-After on 429 for every method, plus jitter below retryAfterJitterMs', () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect(retryDelayMs(outcome({ method, status: 429, retryAfterMs: 7000 }), DEFAULT_RETRY, half)).toBe(7250);
      expect(retryDelayMs(outcome({ method, status: 429, retryAfterMs: 7000 }), DEFAULT_RETRY, () => 0)).toBe(7000);
    }
  });

  it('backs off on a 429 without Retry-After, and never retries usage_limit_error', () => {
    expect(retryDelayMs(outcome({ status: 429, attempt: 2 }), DEFAULT_RETRY, half)).toBe(500);
    expect(retryDelayMs(outcome({ status: 429, errorType: 'usage_limit_error', retryAfterMs: 1000 }), DEFAULT_RETRY, half)).toBeNull();
  });

  it('retries 502/503/504 for idempotent methods, 503 only for the POSTs that create nothing on failure', () => {
    for (const status of [502, 503, 504]) {
      expect(retryDelayMs(outcome({ method: 'GET', status }), DEFAULT_RETRY, half)).toBe(250);
      expect(retryDelayMs(outcome({ method: 'DELETE', path: '/v1/keys/{id}', status }), DEFAULT_RETRY, half)).toBe(250);
      expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/checks', status }), DEFAULT_RETRY, half)).toBeNull();
    }
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/batches', status: 503 }), DEFAULT_RETRY, half)).toBe(250);
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/keys', status: 503 }), DEFAULT_RETRY, half)).toBe(250);
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/scans', status: 503 }), DEFAULT_RETRY, half)).toBe(250);
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/scans', status: 502 }), DEFAULT_RETRY, half)).toBeNull();
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/batches', status: 502 }), DEFAULT_RETRY, half)).toBeNull();
    expect(retryDelayMs(outcome({ method: 'POST', path: '/v1/batches', status: 504 }), DEFAULT_RETRY, half)).toBeNull();
  });

  it('retries unanswered requests only when idempotent', () => {
    expect(retryDelayMs(outcome({ method: 'GET', status: null }), DEFAULT_RETRY, half)).toBe(250);
    for (const path of ['/v1/checks', '/v1/batches', '/v1/scans', '/v1/keys']) {
      expect(retryDelayMs(outcome({ method: 'POST', path, status: null }), DEFAULT_RETRY, half)).toBeNull();
    }
  });

  it('never retries other statuses', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 413, 415, 500]) {
      expect(retryDelayMs(outcome({ status }), DEFAULT_RETRY, half)).toBeNull();
    }
  });

  it('stops at maxAttempts and refuses a Retry-After beyond maxRetryAfterMs', () => {
    expect(retryDelayMs(outcome({ attempt: 4 }), DEFAULT_RETRY, half)).toBeNull();
    expect(retryDelayMs(outcome({ attempt: 3 }), DEFAULT_RETRY, half)).toBe(1000);
    expect(retryDelayMs(outcome({ status: 429, retryAfterMs: 61_000 }), DEFAULT_RETRY, half)).toBeNull();
    expect(retryDelayMs(outcome({ status: 503, retryAfterMs: 5000 }), DEFAULT_RETRY, half)).toBe(5000);
  });

  it('keeps every backoff wait within [0, min(maxDelayMs, baseDelayMs·2^(attempt-1))]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 120_000 }),
        (attempt, r, base, max) => {
          const options = { ...DEFAULT_RETRY, baseDelayMs: base, maxDelayMs: max };
          const delay = backoffDelayMs(attempt, options, () => r);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(max, base * 2 ** (attempt - 1)));
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, ignores junk', () => {
    const now = Date.UTC(2024, 2, 10, 12, 0, 0);
    expect(parseRetryAfter('15', now)).toBe(15_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 10 Mar 2024 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 10 Mar 2024 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
