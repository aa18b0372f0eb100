import { describe, expect, it } from 'vitest';
import {
  applyAttemptResult,
  deliveryView,
  GIVE_UP_AFTER_MS,
  isDue,
  newDeliveryStates,
  nextAttemptAt,
  retryPolicy,
  type AttemptResult,
  type Channel,
  type DeliveryState,
} from '../../../src/services/alerts/index.js';

const T0 = Date.parse('2026-11-20T08:00:00.000Z');
const S = 1000;
const failure: AttemptResult = { ok: false, error: 'HTTP 503', retryable: true };

describe('nextAttemptAt', () => {
  it('sends at once, then retries 30 s, 60 s, 120 s… apart', () => {
    expect(nextAttemptAt(0, 30_000, T0)).toBe(T0);
    expect(nextAttemptAt(1, 30_000, T0)).toBe(T0 + 30 * S);
    expect(nextAttemptAt(2, 30_000, T0)).toBe(T0 + 90 * S);
    expect(nextAttemptAt(3, 30_000, T0)).toBe(T0 + 210 * S);
    expect(nextAttemptAt(4, 30_000, T0)).toBe(T0 + 450 * S);
    expect(nextAttemptAt(2, 1_000, T0)).toBe(T0 + 3 * S);
  });

  it('retries for 24 h: the last attempt is made at the deadline, then it gives up', () => {
    const times: number[] = [];
    let attempts = 0;
    for (let at = nextAttemptAt(0, 30_000, T0); at !== null; at = nextAttemptAt(attempts, 30_000, T0, at)) {
      times.push(at - T0);
      attempts += 1;
    }
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(gaps.slice(0, 11)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720].map((s) => s * S));
    expect(times.at(-1)).toBe(GIVE_UP_AFTER_MS);
    expect(times).toHaveLength(13);
    expect(nextAttemptAt(13, 30_000, T0, T0 + GIVE_UP_AFTER_MS)).toBeNull();
    expect(nextAttemptAt(1, 30_000, T0, T0 + GIVE_UP_AFTER_MS + 1)).toBeNull();
  });

  it('after a long outage schedules one attempt at the next slot, not a burst of missed ones', () => {
    // Slots: +30 s, +90 s, … +1890 s, +3810 s. An attempt made late at +1 h goes on at +3810 s.
    expect(nextAttemptAt(2, 30_000, T0, T0 + 3600 * S)).toBe(T0 + 3810 * S);
    expect(nextAttemptAt(1, 30_000, T0, T0 + 30 * S)).toBe(T0 + 90 * S);
  });

  it('refuses a nonsensical delay', () => {
    expect(() => nextAttemptAt(1, 0, T0)).toThrow(RangeError);
    expect(() => retryPolicy(-5)).toThrow(RangeError);
    expect(retryPolicy()).toEqual({ firstDelayMs: 30_000, giveUpAfterMs: GIVE_UP_AFTER_MS });
  });
});

describe('delivery state', () => {
  const channels: Channel[] = [
    { type: 'webhook', url: 'https://h.example.com/', secret: 'whsec_0123456789' },
    { type: 'email', to: 'a@example.com' },
  ];
  const policy = retryPolicy(30_000);
  const fresh = (): DeliveryState => {
    const [state] = newDeliveryStates(channels, T0);
    if (state === undefined) throw new Error('no state');
    return state;
  };

  it('starts one pending delivery per channel, due at once, each with its own id', () => {
    const states = newDeliveryStates(channels, T0);
    expect(states).toHaveLength(2);
    expect(states[0]).toMatchObject({
      channelIndex: 0,
      status: 'pending',
      attempts: 0,
      lastError: null,
      nextAttemptAt: '2026-11-20T08:00:00.000Z',
    });
    expect(states[0]?.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(states[0]?.deliveryId).not.toBe(states[1]?.deliveryId);
    expect(JSON.parse(JSON.stringify(states))).toEqual(states);
    expect(isDue(fresh(), T0 - 1)).toBe(false);
    expect(isDue(fresh(), T0)).toBe(true);
  });

  it('a failure schedules the next attempt and keeps the delivery id', () => {
    const start = fresh();
    const after = applyAttemptResult(start, failure, T0 + 200, policy, T0);
    expect(after).toEqual({ ...start, attempts: 1, lastError: 'HTTP 503', nextAttemptAt: '2026-11-20T08:00:30.000Z' });
    expect(isDue(after, T0 + 29 * S)).toBe(false);
    expect(isDue(after, T0 + 30 * S)).toBe(true);
  });

  it('a success is final; later results do not change it', () => {
    const failed = applyAttemptResult(fresh(), failure, T0, policy, T0);
    const delivered = applyAttemptResult(failed, { ok: true, detail: 'HTTP 204' }, T0 + 30 * S, policy, T0);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, lastError: 'HTTP 503', nextAttemptAt: null });
    expect(applyAttemptResult(delivered, failure, T0 + 31 * S, policy, T0)).toBe(delivered);
    expect(isDue(delivered, T0 + GIVE_UP_AFTER_MS)).toBe(false);
  });

  it('fails at once on a result no retry can fix, and after the 24 h deadline otherwise', () => {
    const config = applyAttemptResult(fresh(), { ok: false, error: 'email is not configured', retryable: false }, T0, policy, T0);
    expect(config).toMatchObject({ status: 'failed', attempts: 1, lastError: 'email is not configured', nextAttemptAt: null });
    const late = applyAttemptResult({ ...fresh(), attempts: 12 }, failure, T0 + GIVE_UP_AFTER_MS, policy, T0);
    expect(late).toMatchObject({ status: 'failed', attempts: 13, nextAttemptAt: null });
    expect(applyAttemptResult(late, { ok: true, detail: 'HTTP 200' }, T0 + GIVE_UP_AFTER_MS + 1, policy, T0)).toBe(late);
  });

  it('shows deliveries as the event lists them, without the secret', () => {
    const view = deliveryView(fresh(), channels);
    expect(view).toEqual({
      channel: { type: 'webhook', url: 'https://h.example.com/', hasSecret: true },
      status: 'pending',
      attempts: 0,
      lastError: null,
    });
    expect(JSON.stringify(view)).not.toContain('whsec_');
    expect(() => deliveryView({ ...fresh(), channelIndex: 7 }, channels)).toThrow(RangeError);
  });
});
