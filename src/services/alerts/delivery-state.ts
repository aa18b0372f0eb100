// One delivery's progress as a small JSON-friendly record, and the pure transitions the worker applies
// after each attempt. A delivery ends `delivered` or `failed`; nothing moves it back to `pending`.
import { randomUUID } from 'node:crypto';
import { publicChannel } from './channel.js';
import { nextAttemptAt, type RetryPolicy } from './retry.js';
import type { AttemptResult, Channel, DeliveryState, DeliveryView } from './types.js';
import { isoAt } from '../../lib/iso-timestamp.js';

/** One pending delivery per channel, due at once. Each gets its own id, kept across its retries. */
export function newDeliveryStates(channels: readonly Channel[], createdAt: number, newId: () => string = randomUUID): DeliveryState[] {
  return channels.map((_, channelIndex) => ({
    channelIndex,
    deliveryId: newId(),
    status: 'pending',
    attempts: 0,
    lastError: null,
    nextAttemptAt: isoAt(createdAt),
  }));
}

/** A pending delivery whose next attempt time has come. */
export function isDue(state: DeliveryState, now: number): boolean {
  return state.status === 'pending' && state.nextAttemptAt !== null && Date.parse(state.nextAttemptAt) <= now;
}

/**
 * The state after one attempt made at `now`. `lastError` keeps the latest failure even once delivered, so
 * "delivered after 3 attempts" can say what went wrong before. A finished delivery is returned unchanged:
 * a late or repeated result (a worker that crashed after sending) must not undo it.
 */
export function applyAttemptResult(
  state: DeliveryState,
  result: AttemptResult,
  now: number,
  policy: RetryPolicy,
  eventCreatedAt: number,
): DeliveryState {
  if (state.status !== 'pending') return state;
  const attempts = state.attempts + 1;
  if (result.ok) return { ...state, status: 'delivered', attempts, nextAttemptAt: null };
  const next = result.retryable ? nextAttemptAt(attempts, policy.firstDelayMs, eventCreatedAt, now, policy.giveUpAfterMs) : null;
  if (next === null) return { ...state, status: 'failed', attempts, lastError: result.error, nextAttemptAt: null };
  return { ...state, attempts, lastError: result.error, nextAttemptAt: isoAt(next) };
}

/** The event's `deliveries[]` entry: the channel as responses show it (no secret). */
export function deliveryView(state: DeliveryState, channels: readonly Channel[]): DeliveryView {
  const channel = channels[state.channelIndex];
  if (channel === undefined) throw new RangeError(`no channel ${state.channelIndex} for delivery ${state.deliveryId}`);
  return { channel: publicChannel(channel), status: state.status, attempts: state.attempts, lastError: state.lastError };
}
