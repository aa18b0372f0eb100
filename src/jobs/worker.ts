// The worker loop: leases jobs from the durable queue, runs them under a global and a per-host concurrency cap,
// keeps its leases alive, retries crashes with backoff and gives up after maxAttempts. Invariants: README.md.
import { randomUUID } from 'node:crypto';
import type { JobRow, JobsRepo } from '../store/jobs-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { isoAt } from '../lib/iso-timestamp.js';

export interface WorkerOptions {
  jobs: JobsRepo;
  /**
   * Runs the job's check and stores its outcome. A throw counts as a crash: retried, then given up — except the
   * `cancelled` error after `signal` aborted (the worker is stopping): the job is handed back, not counted.
   */
  execute(job: JobRow, signal: AbortSignal): Promise<void>;
  /** Tells the job's own cancellation apart from a crash (CheckCancelled). */
  isCancellation?(err: unknown): boolean;
  /** How long stop() waits for cancelled checks to wind down before leaving their leases to lapse. Default 10 s. */
  stopTimeoutMs?: number;
  /** Called instead of execute once a job has crashed maxAttempts times. */
  giveUp(job: JobRow, reason: string): Promise<void>;
  concurrency: number;
  perHostConcurrency: number;
  clock: Clock;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** Jobs leased ahead of free slots, so a finished check is replaced without a database round trip. */
  prefetch?: number;
  warn(message: string, err?: unknown): void;
}

export interface Worker {
  readonly id: string;
  start(): void;
  /** Look for work now (e.g. right after enqueueing) instead of at the next poll. */
  poke(): void;
  /** Stops claiming, waits for running jobs, hands back jobs not started. */
  stop(): Promise<void>;
  stats(): { running: number; pending: number };
}

/** How long a finished job may wait to be deleted with others. */
const FLUSH_MS = 25;

/**
 * A requester (a user, or an anonymous address) holding this many of a worker's slots is "busy": everyone else's
 * due jobs are claimed ahead of theirs and started first, so another caller's check takes the next free slot
 * instead of waiting behind someone's hundreds of slow ones. A busy requester still uses slots nobody else wants.
 */
export function requesterShare(concurrency: number): number {
  return Math.max(1, concurrency - Math.max(1, Math.floor(concurrency / 4)));
}

/** First retry after 2 s, then 4 s, 8 s…: a crash caused by a passing condition gets time to pass. */
export const retryDelayMs = (attempts: number) => 1000 * 2 ** attempts;

export function createWorker(opts: WorkerOptions): Worker {
  const id = `worker-${randomUUID()}`;
  const leaseMs = opts.leaseMs ?? 120_000;
  const pollMs = opts.pollMs ?? 500;
  const maxAttempts = opts.maxAttempts ?? 3;
  const prefetch = opts.prefetch ?? Math.ceil(opts.concurrency / 2);
  const share = requesterShare(opts.concurrency);
  const runningByHost = new Map<string, number>();
  const runningByRequester = new Map<string, number>();
  /** Leased, not started (global, host or requester cap reached), in claim order. */
  const pending: JobRow[] = [];
  const pendingByHost = new Map<string, number>();
  const pendingByRequester = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  /** The running jobs by check slug (their leases are renewed), each with its cancel: stop() cancels them all. */
  const running = new Map<string, AbortController>();
  let stopping = false;
  let filling = false;
  let refill = false;
  let eagerNext = false;
  let currentFill: Promise<void> = Promise.resolve();
  let lastEmptyClaimAt = Number.NEGATIVE_INFINITY;
  let pollTimer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;

  const bump = (map: Map<string, number>, host: string, by: number) => {
    const n = (map.get(host) ?? 0) + by;
    if (n > 0) map.set(host, n);
    else map.delete(host);
  };
  const hostLoad = (host: string) => (runningByHost.get(host) ?? 0) + (pendingByHost.get(host) ?? 0);
  const requesterLoad = (requester: string) => (runningByRequester.get(requester) ?? 0) + (pendingByRequester.get(requester) ?? 0);

  /**
   * Jobs whose outcome is stored, deleted together (before the next claim, or within FLUSH_MS). Until then a
   * crash only means their job is claimed again and found finished: the outcome is never run twice.
   */
  const finished: string[] = [];
  let flushTimer: NodeJS.Timeout | undefined;

  async function flushFinished(): Promise<void> {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const slugs = finished.splice(0);
    if (slugs.length === 0) return;
    try {
      await opts.jobs.completeMany(slugs, id);
    } catch (err) {
      // Their leases lapse and a claim finds them finished; nothing runs twice.
      opts.warn('could not remove finished jobs from the queue', err);
    }
  }

  function markFinished(job: JobRow): void {
    finished.push(job.check_slug);
    if (!flushTimer) {
      flushTimer = setTimeout(() => void flushFinished(), FLUSH_MS);
      flushTimer.unref();
    }
  }

  async function runJob(job: JobRow, cancel: AbortController): Promise<void> {
    try {
      if (job.attempts > maxAttempts) {
        // Its previous attempts never reported back: the worker running it died each time.
        await opts.giveUp(job, job.last_error ?? 'the check stopped its worker on every attempt');
      } else {
        await opts.execute(job, cancel.signal);
      }
      markFinished(job);
    } catch (err) {
      if (cancel.signal.aborted && opts.isCancellation?.(err) === true) {
        // Stopping: the check runs again elsewhere or after the restart, without an attempt counted against it.
        await opts.jobs.release(job.check_slug, id).catch(() => undefined);
        return;
      }
      const reason = err instanceof Error ? err.message : String(err);
      opts.warn(`check ${job.check_slug} crashed (attempt ${job.attempts} of ${maxAttempts})`, err);
      try {
        if (job.attempts >= maxAttempts) {
          await opts.giveUp(job, reason);
          markFinished(job);
        } else {
          await opts.jobs.retry(job.check_slug, id, reason, isoAt(opts.clock.now() + retryDelayMs(job.attempts)));
        }
      } catch (storeErr) {
        // The lease lapses and another claim retries it.
        opts.warn(`could not record the crash of check ${job.check_slug}`, storeErr);
      }
    }
  }

  function launch(job: JobRow): void {
    bump(runningByHost, job.host, 1);
    bump(runningByRequester, job.requester, 1);
    const cancel = new AbortController();
    running.set(job.check_slug, cancel);
    const task = runJob(job, cancel).finally(() => {
      inFlight.delete(task);
      running.delete(job.check_slug);
      bump(runningByHost, job.host, -1);
      bump(runningByRequester, job.requester, -1);
      startPending();
      if (!stopping) void fill();
    });
    inFlight.add(task);
  }

  /**
   * Starts held jobs while the global cap and their host's cap allow: each free slot goes to the startable job
   * whose requester runs the fewest checks (claim order among equals), so no caller waits behind another's backlog.
   */
  function startPending(): void {
    while (inFlight.size < opts.concurrency && !stopping) {
      let best = -1;
      for (let i = 0; i < pending.length; i += 1) {
        const job = pending[i] as JobRow; // i < pending.length
        if ((runningByHost.get(job.host) ?? 0) >= opts.perHostConcurrency) continue;
        const load = runningByRequester.get(job.requester) ?? 0;
        if (best < 0 || load < (runningByRequester.get((pending[best] as JobRow).requester) ?? 0)) best = i;
        if (load === 0) break;
      }
      if (best < 0) return;
      const [job] = pending.splice(best, 1) as [JobRow];
      bump(pendingByHost, job.host, -1);
      bump(pendingByRequester, job.requester, -1);
      launch(job);
    }
  }

  /**
   * Claims more work. `eager`: asked by a poke or the poll timer. A check finishing asks too, but while every
   * slot is busy and the last claim found nothing, its refill of the buffer waits for the next poll.
   */
  async function fill(eager = false): Promise<void> {
    if (eager) eagerNext = true;
    if (filling) {
      refill = true;
      return;
    }
    filling = true;
    currentFill = fillLoop().finally(() => {
      filling = false;
    });
    return currentFill;
  }

  async function fillLoop(): Promise<void> {
    try {
      do {
        refill = false;
        const eagerNow = eagerNext;
        eagerNext = false;
        // Claim when a slot is idle, or when the buffer runs low: several finished checks share one claim.
        const idle = inFlight.size < opts.concurrency;
        if (!idle && pending.length > prefetch / 2) break;
        if (!idle && !eagerNow && Date.now() - lastEmptyClaimAt < pollMs) break;
        const free = opts.concurrency + prefetch - inFlight.size - pending.length;
        if (free <= 0 || stopping) break;
        const skipHosts: string[] = [];
        const hostSlots: Record<string, number> = {};
        for (const host of new Set([...runningByHost.keys(), ...pendingByHost.keys()])) {
          const slots = opts.perHostConcurrency - hostLoad(host);
          if (slots > 0) hostSlots[host] = slots;
          else skipHosts.push(host);
        }
        const busyRequesters = [...new Set([...runningByRequester.keys(), ...pendingByRequester.keys()])].filter(
          (requester) => requesterLoad(requester) >= share,
        );
        await flushFinished();
        const now = opts.clock.now();
        const claimed = await opts.jobs.claim(id, free, {
          now: isoAt(now),
          leaseUntil: isoAt(now + leaseMs),
          skipHosts,
          perHost: opts.perHostConcurrency,
          hostSlots,
          busyRequesters,
        });
        if (stopping) {
          // stop() began while this claim ran: hand the jobs straight back.
          await Promise.all(claimed.map((job) => opts.jobs.release(job.check_slug, id).catch(() => undefined)));
          break;
        }
        for (const job of claimed) {
          pending.push(job);
          bump(pendingByHost, job.host, 1);
          bump(pendingByRequester, job.requester, 1);
        }
        startPending();
        // A claim stops at its scan window or at hosts' caps; the next one, with those hosts now skipped,
        // may find more. An empty claim means there is nothing runnable for us right now.
        if (claimed.length > 0) refill = true;
        lastEmptyClaimAt = claimed.length > 0 ? Number.NEGATIVE_INFINITY : Date.now();
      } while (refill && !stopping);
    } catch (err) {
      opts.warn('the worker could not claim jobs; retrying at the next poll', err);
    }
  }

  async function renewLeases(): Promise<void> {
    const slugs = [...pending.map((job) => job.check_slug), ...running.keys()];
    if (slugs.length === 0) return;
    try {
      await opts.jobs.extendLeases(id, slugs, isoAt(opts.clock.now() + leaseMs));
    } catch (err) {
      opts.warn('could not renew job leases', err);
    }
  }

  return {
    id,
    start() {
      if (opts.concurrency <= 0 || pollTimer) return;
      pollTimer = setInterval(() => void fill(true), pollMs);
      pollTimer.unref();
      leaseTimer = setInterval(() => void renewLeases(), Math.max(1000, Math.floor(leaseMs / 3)));
      leaseTimer.unref();
      void fill(true);
    },
    poke() {
      if (pollTimer && !stopping) void fill(true);
    },
    async stop() {
      stopping = true;
      clearInterval(pollTimer);
      clearInterval(leaseTimer);
      await currentFill;
      const held = pending.splice(0);
      pendingByHost.clear();
      pendingByRequester.clear();
      await Promise.all(held.map((job) => opts.jobs.release(job.check_slug, id).catch(() => undefined)));
      // Running checks are cancelled and handed back: a shutdown never waits for a slow or hostile page.
      for (const cancel of running.values()) cancel.abort(new Error('the worker is stopping'));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, opts.stopTimeoutMs ?? 10_000);
        }),
      ]);
      clearTimeout(timer);
      await flushFinished();
    },
    stats: () => ({ running: inFlight.size, pending: pending.length }),
  };
}
