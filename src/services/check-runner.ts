// Runs one queued check (called by the worker): engine → stored outcome → announced to waiters.
import { CheckerUnavailable, runCheck, type CheckOptions } from '../checker/check.js';
import type { CheckResult } from '../checker/types.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { Store } from '../store/index.js';
import type { Clock } from '../rate-limit/window.js';
import type { CheckWaiter } from './check-waiter.js';
import { isFinished, type CheckType } from './check-view.js';

export type Engine = (url: string, checkType: CheckType) => Promise<CheckResult>;

export function engineWith(options: Omit<CheckOptions, 'checkType'>): Engine {
  return (url, checkType) => runCheck(url, { ...options, checkType });
}

export type CheckOutcome = 'will_track' | 'wont_track' | 'failed';

export function createCheckRunner(deps: {
  store: Store;
  clock: Clock;
  waiter: CheckWaiter;
  engine: Engine;
  /** Told about every outcome this process stores (metrics). */
  onFinished?(outcome: CheckOutcome, checkType: string): void;
}) {
  const { store, clock } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  async function finish(slug: string, batchId: string | null, outcome: Parameters<Store['checks']['finish']>[1]) {
    await store.checks.finish(slug, outcome, nowIso());
    if (batchId) await store.batches.completeIfDone(batchId, nowIso());
    deps.waiter.announce(slug);
  }

  return {
    async execute(job: JobRow): Promise<void> {
      const row = await store.checks.get(job.check_slug);
      // Finished before a crash lost the job's completion: nothing to run again.
      if (!row || isFinished(row.status)) return;
      await store.checks.markRunning(row.slug, nowIso());
      if (row.batch_id) await store.batches.markRunning(row.batch_id);
      try {
        const result = await deps.engine(row.url, row.check_type as CheckType);
        await finish(row.slug, row.batch_id, { status: 'completed', result: JSON.stringify(result), errorCode: null, errorMessage: null });
        deps.onFinished?.(result.willTrack ? 'will_track' : 'wont_track', row.check_type);
      } catch (err) {
        if (!(err instanceof CheckerUnavailable)) throw err;
        await finish(row.slug, row.batch_id, { status: 'failed', result: null, errorCode: err.code, errorMessage: err.message });
        deps.onFinished?.('failed', row.check_type);
      }
    },

    async giveUp(job: JobRow, reason: string): Promise<void> {
      const row = await store.checks.get(job.check_slug);
      if (!row) return;
      await finish(row.slug, row.batch_id, {
        status: 'failed',
        result: null,
        errorCode: 'check_crashed',
        errorMessage: `The checker crashed on this link repeatedly and gave up (${reason.slice(0, 200)}).`,
      });
      deps.onFinished?.('failed', row.check_type);
    },
  };
}

export type CheckRunner = ReturnType<typeof createCheckRunner>;
