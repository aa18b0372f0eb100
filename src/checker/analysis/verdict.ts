// The check's verdict (CONTRACT.md section 7): the one answer every surface shows, derived from the result
// alone so that a stored check, a live one and an old one stored before verdicts existed all read the same.
import { UNVERIFIED_CODES } from './score.js';
import type { Issue, NetworkRef } from '../types.js';
import type { Verdict } from '../../contract/verdict.js';

/** A verdict, or why there is none yet / at all (for the pages and the evidence file, which show both). */
export type VerdictKind = Verdict | 'pending' | 'failed';

export interface VerdictFacts {
  willTrack: boolean;
  issues: readonly Pick<Issue, 'code' | 'severity'>[];
  networks: readonly Pick<NetworkRef, 'role'>[];
}

/** True when a network or an aggregator handled the click (a shortener alone attributes nothing). */
export function sawTracker(networks: readonly Pick<NetworkRef, 'role'>[]): boolean {
  return networks.some((network) => network.role !== 'shortener');
}

/**
 * The verdict of a completed check. `will_track` exactly when `willTrack` is true; a check that could not see the
 * real landing page (bot wall, timeout after a retry, a script not followed, the deadline) is `could_not_verify`
 * before anything else, because its critical findings are not facts about the link.
 */
export function decideVerdict(result: VerdictFacts): Verdict {
  if (result.willTrack) return 'will_track';
  if (result.issues.some((issue) => UNVERIFIED_CODES.includes(issue.code))) return 'could_not_verify';
  if (result.issues.some((issue) => issue.severity === 'critical')) return 'will_not_track';
  return sawTracker(result.networks) ? 'will_not_track' : 'no_tracking_found';
}

/** The verdict of a check in any state: null until it completes; a failed check could not be verified. */
export function checkVerdict(check: {
  status: string;
  willTrack: boolean | null;
  issues: VerdictFacts['issues'];
  networks: VerdictFacts['networks'];
}): Verdict | null {
  if (check.status === 'failed') return 'could_not_verify';
  if (check.status !== 'completed' || check.willTrack === null) return null;
  return decideVerdict({ willTrack: check.willTrack, issues: check.issues, networks: check.networks });
}

/** What a page or the evidence file shows: the verdict, or that the check is still running or never ran. */
export function verdictKind(check: Parameters<typeof checkVerdict>[0]): VerdictKind {
  if (check.status === 'queued' || check.status === 'running') return 'pending';
  if (check.status === 'failed') return 'failed';
  return checkVerdict(check) ?? 'pending';
}

/** Each verdict in two or three words, as the pages, the CLI's tables and the markdown output name it. */
export const VERDICT_LABELS: Record<Verdict, string> = {
  will_track: 'Will track',
  will_not_track: 'Will not track',
  could_not_verify: 'Could not verify',
  no_tracking_found: 'No tracking found',
};

/** CLI exit status per verdict (CONTRACT.md section 7); 2 is for usage, configuration and connection errors. */
export const VERDICT_EXIT_CODES: Record<Verdict, number> = {
  will_track: 0,
  will_not_track: 1,
  could_not_verify: 3,
  no_tracking_found: 3,
};
