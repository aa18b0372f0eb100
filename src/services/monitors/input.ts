// Validation of monitor input (CONTRACT.md section 8): bad input is a DomainError and changes nothing.
import { checkSubmittedUrl, type ResolveMap } from '../../checker/net/net-guard.js';
import { parseChannels } from '../alerts/index.js';
import type { Channel } from '../alerts/types.js';
import { DomainError } from '../domain-error.js';
import { cleanBatchName } from '../batches.js';
import { DEFAULT_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES, MIN_INTERVAL_MINUTES } from '../../contract/monitor.js';

export interface InputRules {
  resolve: ResolveMap;
  smtpConfigured: boolean;
}

/** The URL as submitted, once the checker's rule accepts it (the same rule as for checks and batches). */
export function parseMonitorUrl(raw: string, rules: InputRules): string {
  const verdict = checkSubmittedUrl(raw, rules.resolve);
  if (!verdict.ok) throw new DomainError(verdict.code, `url: ${verdict.message}`);
  return raw;
}

/** The trimmed name, null for none; blank, too long or multi-line is refused (the batch-name rule). */
export function parseMonitorName(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const name = cleanBatchName(raw);
  if (name === null) throw new DomainError('invalid_parameter', 'name must be 1 to 100 characters on one line (after trimming spaces).');
  return name;
}

export function parseInterval(raw: number | undefined): number {
  if (raw === undefined) return DEFAULT_INTERVAL_MINUTES;
  if (!Number.isInteger(raw) || raw < MIN_INTERVAL_MINUTES || raw > MAX_INTERVAL_MINUTES) {
    throw new DomainError(
      'invalid_parameter',
      `interval_minutes must be a whole number from ${MIN_INTERVAL_MINUTES} to ${MAX_INTERVAL_MINUTES} (one week); got ${String(raw)}.`,
    );
  }
  return raw;
}

export function parseMonitorChannels(raw: unknown[] | undefined, rules: InputRules): Channel[] {
  if (raw === undefined) return [];
  const parsed = parseChannels(raw, { smtpConfigured: rules.smtpConfigured, resolve: rules.resolve });
  if (!parsed.ok) throw new DomainError(parsed.error.code, `${parsed.error.field}: ${parsed.error.message}`);
  return parsed.channels;
}
