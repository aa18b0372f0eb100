// The health score: a deterministic 0–100 integer from the issues (formula documented in docs/issues.md).
// Two bands that never overlap: with a critical issue the score is at most 40, without one at least 45,
// so "above 40" always means nothing is known to be broken.
import { PRIVACY_ISSUES } from '../issues/privacy.js';
import type { Issue, Severity } from '../types.js';

export const SCORE_RULES = {
  /** Score of a chain with exactly one critical issue; each further critical takes criticalStep more. */
  criticalCeiling: 40,
  criticalStep: 10,
  /** Inside the critical band, warnings and infos still order results (2 and 1 points). */
  criticalBandWarning: 2,
  criticalBandInfo: 1,
  warningPenalty: 8,
  infoPenalty: 2,
  /** Only the first three infos count: they are notes, not faults. */
  infoCountCap: 3,
  /** No critical issue: never below this. */
  floorWithoutCritical: 45,
  /** The verdict is unknown (bot protection, unfollowed script) or false: never above this. */
  unverifiedCap: 60,
} as const;

/** Issue codes that mean "the check could not see the real landing page". */
export const UNVERIFIED_CODES: readonly string[] = [
  'could_not_verify',
  'script_redirect_unresolved',
  'check_deadline_exceeded',
  'landing_timeout',
];

const RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** critical → warning → info; issues of equal severity keep their order (Array.prototype.sort is stable). */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  return [...issues].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/** Listed but never scored: they describe the shopper's browser or extension, not the link (docs/issues.md). */
export const UNSCORED_CODES: readonly string[] = Object.keys(PRIVACY_ISSUES);

export function computeHealthScore(issues: readonly Issue[], willTrack: boolean): number {
  const r = SCORE_RULES;
  const scored = issues.filter((issue) => !UNSCORED_CODES.includes(issue.code));
  const count = (severity: Severity): number => scored.filter((issue) => issue.severity === severity).length;
  const critical = count('critical');
  const warnings = count('warning');
  const infos = Math.min(count('info'), r.infoCountCap);
  if (critical > 0) {
    const score = r.criticalCeiling - r.criticalStep * (critical - 1) - r.criticalBandWarning * warnings - r.criticalBandInfo * infos;
    return Math.max(0, score);
  }
  let score = Math.max(r.floorWithoutCritical, 100 - r.warningPenalty * warnings - r.infoPenalty * infos);
  if (!willTrack || issues.some((issue) => UNVERIFIED_CODES.includes(issue.code))) {
    score = Math.min(score, r.unverifiedCap);
  }
  return score;
}
