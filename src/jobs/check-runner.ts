// Runs one queued check (called by the worker): engine → stored outcome → announced to waiters.
import { CheckerUnavailable, runCheck, type CheckOptions } from '../checker/check.js';
import type { CheckResult } from '../checker/types.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { Store } from '../store/index.js';
import type { Clock } from '../rate-limit/window.js';
import type { CheckWaiter } from './check-waiter.js';
import { isFinished, type CheckType } from '../services/check-view.js';
import { decideVerdict } from '../checker/analysis/verdict.js';
import { type Verdict } from '../contract/verdict.js';
import { completeScanIfDone } from '../services/scan-completion.js';
import { isoAt } from '../lib/iso-timestamp.js';

/** CONTRACT.md section 7: a check the checker could not run could not be verified. */
const FAILED_VERDICT: Verdict = 'could_not_verify';

/** Runs one check; `signal` cancels it (a shutdown): it then throws CheckCancelled and stores nothing. */
export type Engine = (url: string, checkType: CheckType, signal?: AbortSignal) => Promise<CheckResult>;

export function engineWith(options: Omit<CheckOptions, 'checkType' | 'signal'>): Engine {
  return (url, checkType, signal) => runCheck(url, { ...options, checkType, ...(signal === undefined ? {} : { signal }) });
}

export type CheckOutcome = 'will_track' | 'wont_track' | 'failed';

export function createCheckRunner(deps: {
  store: Store;
  clock: Clock;
  waiter: CheckWaiter;
  engine: Engine;
  /** Told about every outcome this process stores (metrics). */
  onFinished?(outcome: CheckOutcome, checkType: string): void;
  /** A monitor run's check has its outcome stored (the scheduler evaluates it; its tick repairs a miss). */
  onMonitorRunFinished?(slug: string): void;
}) {
  const { store, clock } = deps;
  const nowIso = () => isoAt(clock.now());
  /**
   * What each group id (checks.batch_id) this process has run a check of names, asked once: a batch's probes never
   * pay a scan's lookup nor a scan's a batch's, and a batch is marked running once per process (the update is
   * idempotent, and 500 of them cost a batch time).
   */
  const groupKinds = new Map<string, 'batch' | 'scan'>();
  /**
   * Checks of each batch this process is running. Only the last of them to end probes whether the batch is
   * done: while another one runs here, the batch cannot be. The batch's globally last check ends in some
   * process after every other check's outcome is stored, so that process's probe always sees it complete.
   */
  const runningInBatch = new Map<string, number>();

  async function groupKind(groupId: string): Promise<'batch' | 'scan'> {
    let kind = groupKinds.get(groupId);
    if (kind === undefined) {
      if (groupKinds.size >= 1000) groupKinds.clear();
      kind = (await store.scans.isScan(groupId)) ? 'scan' : 'batch';
      groupKinds.set(groupId, kind);
      if (kind === 'batch') await store.batches.markRunning(groupId);
    }
    return kind;
  }

  /** A check's group (checks.batch_id) is a batch or a scan: whichever it is completes once it is done. */
  async function completeGroupIfDone(groupId: string): Promise<void> {
    if ((await groupKind(groupId)) === 'scan') await completeScanIfDone(store, groupId, nowIso);
    else await store.batches.completeIfDone(groupId, nowIso());
  }

  async function finish(row: { slug: string; monitor_id: string | null }, outcome: Parameters<Store['checks']['finish']>[1]) {
    await store.checks.finish(row.slug, outcome, nowIso());
    deps.waiter.announce(row.slug);
    if (row.monitor_id !== null) deps.onMonitorRunFinished?.(row.slug);
  }

  async function leaveBatch(batchId: string): Promise<void> {
    const left = (runningInBatch.get(batchId) ?? 1) - 1;
    if (left > 0) {
      runningInBatch.set(batchId, left);
      return;
    }
    runningInBatch.delete(batchId);
    await completeGroupIfDone(batchId);
  }

  return {
    async execute(job: JobRow, signal?: AbortSignal): Promise<void> {
      const row = await store.checks.get(job.check_slug);
      if (!row) return;
      if (isFinished(row.status)) {
        // Finished before a crash lost the job's completion: nothing to run again, but the crash may also
        // have come between the check's outcome and its batch's completion.
        if (row.batch_id) await completeGroupIfDone(row.batch_id);
        return;
      }
      await store.checks.markRunning(row.slug, nowIso());
      if (row.batch_id) await groupKind(row.batch_id);
      if (row.batch_id) runningInBatch.set(row.batch_id, (runningInBatch.get(row.batch_id) ?? 0) + 1);
      try {
        const result = await deps.engine(row.url, row.check_type as CheckType, signal);
        await finish(row, {
          status: 'completed',
          result: JSON.stringify(result),
          verdict: decideVerdict(result),
          errorCode: null,
          errorMessage: null,
        });
        deps.onFinished?.(result.willTrack ? 'will_track' : 'wont_track', row.check_type);
      } catch (err) {
        if (!(err instanceof CheckerUnavailable)) throw err;
        await finish(row, { status: 'failed', result: null, verdict: FAILED_VERDICT, errorCode: err.code, errorMessage: err.message });
        deps.onFinished?.('failed', row.check_type);
      } finally {
        if (row.batch_id) await leaveBatch(row.batch_id);
      }
    },

    async giveUp(job: JobRow, reason: string): Promise<void> {
      const row = await store.checks.get(job.check_slug);
      if (!row) return;
      await finish(row, {
        status: 'failed',
        result: null,
        verdict: FAILED_VERDICT,
        errorCode: 'check_crashed',
        errorMessage: `The checker crashed on this link repeatedly and gave up (${reason.slice(0, 200)}).`,
      });
      if (row.batch_id) await completeGroupIfDone(row.batch_id);
      deps.onFinished?.('failed', row.check_type);
    },
  };
}

export type CheckRunner = ReturnType<typeof createCheckRunner>;
