// A batch as the API and the pages show it: progress, each link's verdict (stored on the check when it finished,
// never parsed from 500 results per poll) and the verdicts counted.
import type { Static } from '@sinclair/typebox';
import type { Batch } from '../contract/batch.js';
import { parseVerdict, type Verdict } from '../contract/verdict.js';
import type { BatchCheckRow, BatchRow } from '../store/batches-repo.js';
import type { CheckStatus, CheckType } from './check-view.js';

/** The batch as the API shows it: the contract's schema is its one declaration. */
export type BatchView = Static<typeof Batch>;
export type BatchStatus = BatchView['status'];
/** The links counted by verdict, named as a scan's summary (CONTRACT.md section 9); unfinished links count nowhere. */
export type BatchSummary = BatchView['summary'];
export type BatchCheck = BatchView['checks'][number];

const SUMMARY_KEY: Record<Verdict, keyof BatchSummary> = {
  will_track: 'willTrack',
  will_not_track: 'wontTrack',
  could_not_verify: 'couldNotVerify',
  no_tracking_found: 'noTrackingFound',
};

export function summarizeVerdicts(verdicts: Iterable<string | null>): BatchSummary {
  const summary: BatchSummary = { willTrack: 0, wontTrack: 0, couldNotVerify: 0, noTrackingFound: 0 };
  for (const value of verdicts) {
    const verdict = parseVerdict(value);
    if (verdict !== null) summary[SUMMARY_KEY[verdict]]++;
  }
  return summary;
}

export function toBatchView(row: BatchRow, checks: BatchCheckRow[]): BatchView {
  let completed = 0;
  let failed = 0;
  for (const c of checks) {
    if (c.status === 'completed') completed++;
    else if (c.status === 'failed') failed++;
  }
  // A verdict only once the check has finished, whatever the column holds.
  const views = checks.map((c): BatchCheck => ({
    url: c.url,
    slug: c.slug,
    status: c.status as CheckStatus,
    verdict: c.status === 'completed' || c.status === 'failed' ? parseVerdict(c.verdict) : null,
  }));
  return {
    id: row.id,
    name: row.name,
    status: row.status as BatchStatus,
    checkType: row.check_type as CheckType,
    total: row.total,
    completed,
    failed,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    summary: summarizeVerdicts(views.map((c) => c.verdict)),
    checks: views,
  };
}

/** The checks of several batches (or scans) by their group id, each group in the order given. */
export function groupByBatch(checks: readonly BatchCheckRow[]): Map<string, BatchCheckRow[]> {
  const groups = new Map<string, BatchCheckRow[]>();
  for (const check of checks) {
    const group = groups.get(check.batch_id);
    if (group) group.push(check);
    else groups.set(check.batch_id, [check]);
  }
  return groups;
}
