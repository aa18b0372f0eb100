// When a monitor runs (CONTRACT.md section 8, "runs are spread over the interval"). Each monitor has a phase
// inside its interval, from a hash of its id: 10,000 monitors created in one second fall on 10,000 different
// offsets instead of firing together. Pure; the scheduler stores the result in `monitors.due_at`.
import { createHash } from 'node:crypto';

const MINUTE_MS = 60_000;

/** The monitor's fixed offset inside its interval, in ms (uniform over [0, interval)). */
export function phaseMs(id: string, intervalMinutes: number): number {
  const intervalMs = intervalMinutes * MINUTE_MS;
  // 48 bits of SHA-256: uniform enough, and exact in a double.
  return createHash('sha256').update(id).digest().readUIntBE(0, 6) % intervalMs;
}

/**
 * The run after one made (or queued) at `ranAtMs`: the monitor's first phase slot at least half an interval
 * later. In steady state that is exactly one interval on; after downtime, or after a first, confirming or
 * manual run at an arbitrary time, it is between half and one and a half intervals away, back on the phase.
 * A slot missed while the service was down is never made up: only the run that found it overdue happens.
 */
export function nextRunAt(id: string, intervalMinutes: number, ranAtMs: number): number {
  const intervalMs = intervalMinutes * MINUTE_MS;
  const earliest = ranAtMs + intervalMs / 2;
  const phase = phaseMs(id, intervalMinutes);
  const k = Math.floor((earliest - phase) / intervalMs) + 1;
  return phase + k * intervalMs;
}
