// The monitor scheduler (CONTRACT.md section 8; invariants in README.md): a tick in every worker process that
// queues due monitor runs on the check queue, evaluates finished runs (a repair sweep behind the check runner's
// own hook) and delivers due alerts. Everything it knows lives in the database; the tick only reads due rows.
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.js';
import type { Evaluation } from '../store/monitor-events-repo.js';
import type { MonitorRow } from '../store/monitors-repo.js';
import type { CheckRow } from '../store/checks-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { toCheckView } from '../services/check-view.js';
import { newDeliveryStates } from '../services/alerts/index.js';
import type { AlertEventType } from '../services/alerts/types.js';
import { decideRun, runFacts } from '../services/monitors/decide.js';
import { nextRunAt } from '../services/monitors/schedule.js';
import { monitorRun, readChannels, readMemory } from '../services/monitors/views.js';
import type { AlertDeliverer } from './alert-deliveries.js';
import { isoAt } from '../lib/iso-timestamp.js';

export interface MonitorSchedulerOptions {
  store: Store;
  clock: Clock;
  deliverer: AlertDeliverer;
  /** TRACKCHECK_MONITOR_CONFIRM_MS. */
  confirmMs: number;
  tickMs?: number;
  /** Monitors claimed per transaction. */
  claimBatch?: number;
  /** Runs were queued: ask the local worker to look now. */
  poke(): void;
  onRun?(state: 'healthy' | 'broken' | 'unknown'): void;
  onEvent?(type: AlertEventType): void;
  warn(message: string, err?: unknown): void;
}

export interface TickResult {
  queued: number;
  evaluated: number;
  delivered: number;
}

/** Claims per tick at most: a catch-up of 10,000 overdue monitors is queued over a few ticks, not in one. */
const MAX_CLAIMS_PER_TICK = 20;

export function createMonitorScheduler(opts: MonitorSchedulerOptions) {
  const { store, clock } = opts;
  const tickMs = opts.tickMs ?? 1000;
  const claimBatch = opts.claimBatch ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<TickResult> | null = null;
  let again = false;

  /** What one finished run means: the monitor's new memory and state, its confirming run, and maybe an event. */
  function evaluation(monitor: MonitorRow, check: CheckRow): Evaluation & { runState: 'healthy' | 'broken' | 'unknown' } {
    const now = clock.now();
    const facts = runFacts(toCheckView(check));
    const decision = decideRun(readMemory(monitor.memory), facts, now, opts.confirmMs);
    const result: Evaluation & { runState: typeof facts.state } = {
      runState: facts.state,
      monitor: { state: decision.memory.state, memory: JSON.stringify(decision.memory) },
      event: null,
    };
    // The confirming run comes instead of the normal next one, unless that is sooner; a paused monitor stays paused.
    if (decision.confirmAt !== null && monitor.paused === 0) {
      const confirmAt = isoAt(decision.confirmAt);
      if (monitor.due_at === null || confirmAt < monitor.due_at) result.monitor.due_at = confirmAt;
    }
    if (decision.event) {
      const channels = readChannels(monitor.channels);
      const deliveries = newDeliveryStates(channels, now);
      result.event = {
        id: randomUUID(),
        monitor_id: monitor.id,
        type: decision.event.type,
        created_at: isoAt(now),
        check_slug: decision.event.checkSlug,
        previous_check_slug: decision.event.previousCheckSlug,
        changes: JSON.stringify(decision.event.changes),
        channels: monitor.channels,
        deliveries: JSON.stringify(deliveries),
        next_delivery_at: deliveries.length > 0 ? isoAt(now) : null,
        delivery_lease: null,
      };
    }
    return result;
  }

  /** Evaluates the run whose check is `slug`, exactly once (a second call, anywhere, does nothing). */
  async function evaluate(slug: string): Promise<boolean> {
    let runState: 'healthy' | 'broken' | 'unknown' | null = null;
    const done = await store.monitorEvents.evaluateRun(slug, (monitor, check) => {
      const result = evaluation(monitor, check);
      runState = result.runState;
      return result;
    });
    if (done === null) return false;
    if (runState !== null) opts.onRun?.(runState);
    if (done.event) {
      opts.onEvent?.(done.event.type as AlertEventType);
      if (done.event.next_delivery_at !== null) wake();
    }
    return true;
  }

  /** Queues the runs of every due monitor (a bounded number of claims per tick). */
  async function queueDue(): Promise<number> {
    let queued = 0;
    for (let i = 0; i < MAX_CLAIMS_PER_TICK; i += 1) {
      const now = clock.now();
      const claimed = await store.monitors.claimDue(isoAt(now), claimBatch, (row) => ({
        run: monitorRun(row, isoAt(now)),
        dueAt: isoAt(nextRunAt(row.id, row.interval_minutes, now)),
      }));
      queued += claimed.length;
      if (claimed.length < claimBatch) break;
    }
    if (queued > 0) opts.poke();
    return queued;
  }

  async function tickOnce(): Promise<TickResult> {
    const queued = await queueDue();
    let evaluated = 0;
    for (const slug of await store.monitors.finishedPendingRuns(100)) if (await evaluate(slug)) evaluated += 1;
    const delivered = await opts.deliverer.deliverDue();
    return { queued, evaluated, delivered };
  }

  /** One tick now (or the running one, then another). Never throws: failures are warned about and retried next tick. */
  async function tick(): Promise<TickResult> {
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      let total: TickResult = { queued: 0, evaluated: 0, delivered: 0 };
      do {
        again = false;
        try {
          const r = await tickOnce();
          total = { queued: total.queued + r.queued, evaluated: total.evaluated + r.evaluated, delivered: total.delivered + r.delivered };
        } catch (err) {
          opts.warn('the monitor scheduler tick failed; retrying at the next tick', err);
        }
      } while (again && timer !== undefined);
      return total;
    })().finally(() => {
      ticking = null;
    });
    return ticking;
  }

  function wake(): void {
    if (timer !== undefined) setImmediate(() => void tick());
  }

  return {
    start(): void {
      if (timer !== undefined) return;
      timer = setInterval(() => void tick(), tickMs);
      timer.unref();
      void tick();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await ticking;
    },
    running: () => timer !== undefined,
    tick,
    evaluate,
    /** For the check runner: a monitor run's check has finished here. Never throws (the sweep repairs). */
    runFinished(slug: string): void {
      evaluate(slug).catch((err: unknown) => opts.warn(`could not evaluate monitor run ${slug}; the next tick retries`, err));
    },
  };
}

export type MonitorScheduler = ReturnType<typeof createMonitorScheduler>;
