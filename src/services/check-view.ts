// The check as the API shows it (CONTRACT.md section 3, "The check"): every field always present.
import type { EngineRecord } from '../checker/engine-record.js';
import type { CheckResult } from '../checker/types.js';
import type { CheckRow } from '../store/checks-repo.js';

export type CheckStatus = 'queued' | 'running' | 'completed' | 'failed';
export type CheckType = 'link' | 'cmp';

type ResultFields = { [K in keyof CheckResult]: CheckResult[K] | (CheckResult[K] extends unknown[] ? never : null) };

export interface CheckView extends ResultFields {
  slug: string;
  url: string;
  checkType: CheckType;
  status: CheckStatus;
  createdAt: string;
  completedAt: string | null;
  error: { code: string; message: string } | null;
}

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
};

function parseResult(row: CheckRow): CheckResult | null {
  return row.result ? (JSON.parse(row.result) as CheckResult) : null;
}

/** What the engine ran this check with; null for checks stored before engines recorded it, or not run. */
export function engineRecordOf(row: CheckRow): EngineRecord | null {
  return parseResult(row)?.engine ?? null;
}

export function toCheckView(row: CheckRow): CheckView {
  // The engine record is for the evidence file (engineRecordOf), not part of the check the API serves.
  const { engine: _engine, ...result } = parseResult(row) ?? {};
  return {
    slug: row.slug,
    url: row.url,
    checkType: row.check_type as CheckType,
    status: row.status as CheckStatus,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    ...NO_RESULT,
    ...result,
  };
}

export const isFinished = (status: string) => status === 'completed' || status === 'failed';
