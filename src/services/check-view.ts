// The stored check read as the API shows it (CONTRACT.md section 3, "The check"; the shape is the contract's
// Check schema): every field always present.
import type { EngineRecord } from '../checker/engine-record.js';
import type { CheckResult } from '../checker/types.js';
import type { CheckResultFields } from '../contract/check-result.js';
import type { CheckView } from '../contract/check.js';
import { checkVerdict } from '../checker/analysis/verdict.js';
import type { CheckRow } from '../store/checks-repo.js';

export type { CheckView };
export type CheckStatus = CheckView['status'];
export type CheckType = CheckView['checkType'];

/** The result's fields as the check shows them (nullable until the check completes). */
type ResultFields = { [K in keyof CheckResultFields]: CheckView[K] };

/** What a check shows before (or without) a verdict: scalars null, lists empty. */
const NO_RESULT: ResultFields = {
  willTrack: null,
  healthScore: null,
  network: null,
  networkId: null,
  networks: [],
  finalUrl: null,
  finalStatus: null,
  redirectCount: null,
  totalRedirectTimeMs: null,
  hops: [],
  trackingParameterPresent: null,
  trackingParameters: null,
  firstPartyCookieSet: null,
  thirdPartyCookieSet: null,
  cookieExpiryDays: null,
  cookies: [],
  issues: [],
  mode: null,
  consent: null,
  privacy: null,
};

/**
 * The stored check as the API serves it, and apart from it what the engine ran the check with (for the evidence
 * file; null for checks stored before engines recorded it, or not run yet). The stored result is parsed once.
 */
export function readStoredCheck(row: CheckRow): { view: CheckView; engine: EngineRecord | null } {
  const { engine = null, ...result } = row.result ? (JSON.parse(row.result) as CheckResult) : {};
  const view: CheckView = {
    slug: row.slug,
    url: row.url,
    checkType: row.check_type as CheckType,
    status: row.status as CheckStatus,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    ...NO_RESULT,
    ...result,
    verdict: null,
  };
  view.verdict = checkVerdict(view);
  return { view, engine };
}

export function toCheckView(row: CheckRow): CheckView {
  return readStoredCheck(row).view;
}

export const isFinished = (status: string) => status === 'completed' || status === 'failed';
