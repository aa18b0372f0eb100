// The retry schedule of a delivery (CONTRACT.md section 8), pure: the scheduler and worker persist the
// result, so nothing here keeps time or state of its own.

/** `TRACKCHECK_ALERT_RETRY_MS` default: the first retry comes 30 s after the first attempt. */
export const DEFAULT_RETRY_FIRST_DELAY_MS = 30_000;
/** Deliveries are retried for 24 h after the event, then marked failed. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RetryPolicy {
  firstDelayMs: number;
  giveUpAfterMs: number;
}

export function retryPolicy(firstDelayMs: number = DEFAULT_RETRY_FIRST_DELAY_MS, giveUpAfterMs: number = GIVE_UP_AFTER_MS): RetryPolicy {
  if (!Number.isSafeInteger(firstDelayMs) || firstDelayMs < 1) {
    throw new RangeError(`firstDelayMs must be a positive whole number of milliseconds, got ${firstDelayMs}`);
  }
  if (!Number.isSafeInteger(giveUpAfterMs) || giveUpAfterMs < 1) {
    throw new RangeError(`giveUpAfterMs must be a positive whole number of milliseconds, got ${giveUpAfterMs}`);
  }
  return { firstDelayMs, giveUpAfterMs };
}

/** Slot k of the schedule: the first attempt at the event, then +d, +3d, +7d… (gaps d, 2d, 4d…). */
function slot(createdAt: number, firstDelayMs: number, k: number): number {
  return createdAt + firstDelayMs * (2 ** k - 1);
}

/**
 * When the attempt after `attempts` made ones is due (epoch ms), or null when none may be made: the
 * first attempt is due at `createdAt`, retries follow a doubling schedule anchored at the event (30 s,
 * 60 s, 120 s… apart with the default), and the last one is made when 24 h have passed.
 *
 * Anchoring at the event rather than at the previous attempt keeps the answer a function of persisted
 * values; `now` skips slots already in the past, so a worker that was down sends one late attempt
 * instead of a burst of missed ones.
 */
export function nextAttemptAt(
  attempts: number,
  firstDelayMs: number,
  createdAt: number,
  now: number = createdAt,
  giveUpAfterMs: number = GIVE_UP_AFTER_MS,
): number | null {
  const policy = retryPolicy(firstDelayMs, giveUpAfterMs);
  const deadline = createdAt + policy.giveUpAfterMs;
  if (now >= deadline) return null;
  if (attempts <= 0) return createdAt;
  let k = attempts;
  // Terminates: slots grow without bound and the deadline is later than now.
  while (slot(createdAt, policy.firstDelayMs, k) <= now) k += 1;
  return Math.min(slot(createdAt, policy.firstDelayMs, k), deadline);
}
