// The worker loop: leases jobs from the durable queue, runs them under a global and a per-host concurrency cap,
// keeps its leases alive, retries crashes with backoff and gives up after maxAttempts.
import { randomUUID } from 'node:crypto';
import type { JobRow, JobsRepo } from '../store/jobs-repo.js';
import type { Clock } from '../rate-limit/window.js';

export interface WorkerOptions {
  jobs: JobsRepo;
  /** Runs the job's check and stores its outcome. A throw counts as a crash: retried, then given up. */
  execute(job: JobRow): Promise<void>;
  /** Called instead of execute once a job has crashed maxAttempts times. */
  giveUp(job: JobRow, reason: string): Promise<void>;
  concurrency: number;
  perHostConcurrency: number;
  clock: Clock;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
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

const iso = (ms: number) => new Date(ms).toISOString();

export function createWorker(opts: WorkerOptions): Worker {
  const id = `worker-${randomUUID()}`;
  const leaseMs = opts.leaseMs ?? 120_000;
  const pollMs = opts.pollMs ?? 500;
  const maxAttempts = opts.maxAttempts ?? 3;
  const runningByHost = new Map<string, number>();
  const pendingByHost = new Map<string, JobRow[]>();
  const inFlight = new Set<Promise<void>>();
  const runningSlugs = new Set<string>();
  let pendingCount = 0;
  let stopping = false;
  let filling = false;
  let refill = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;

  const hostLoad = (host: string) => (runningByHost.get(host) ?? 0) + (pendingByHost.get(host)?.length ?? 0);
  const runningTotal = () => inFlight.size;

  async function runJob(job: JobRow): Promise<void> {
    try {
      if (job.attempts > maxAttempts) {
        await opts.giveUp(job, job.last_error ?? 'the check crashed its worker repeatedly');
      } else {
        await opts.execute(job);
      }
      await opts.jobs.complete(job.check_slug, id);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      opts.warn(`check ${job.check_slug} crashed (attempt ${job.attempts} of ${maxAttempts})`, err);
      try {
        if (job.attempts >= maxAttempts) {
          await opts.giveUp(job, reason);
          await opts.jobs.complete(job.check_slug, id);
        } else {
          await opts.jobs.retry(job.check_slug, id, reason, iso(opts.clock.now() + 1000 * 2 ** job.attempts));
        }
      } catch (storeErr) {
        // The lease lapses and another claim retries it.
        opts.warn(`could not record the crash of check ${job.check_slug}`, storeErr);
      }
    }
  }

  function launch(job: JobRow): void {
    runningByHost.set(job.host, (runningByHost.get(job.host) ?? 0) + 1);
    runningSlugs.add(job.check_slug);
    const task = runJob(job).finally(() => {
      inFlight.delete(task);
      runningSlugs.delete(job.check_slug);
      const left = (runningByHost.get(job.host) ?? 1) - 1;
      if (left > 0) runningByHost.set(job.host, left);
      else runningByHost.delete(job.host);
      const next = pendingByHost.get(job.host)?.shift();
      if (next) {
        pendingCount--;
        if (pendingByHost.get(job.host)?.length === 0) pendingByHost.delete(job.host);
        launch(next);
      }
      if (!stopping) void fill();
    });
    inFlight.add(task);
  }

  function accept(job: JobRow): void {
    if ((runningByHost.get(job.host) ?? 0) < opts.perHostConcurrency) {
      launch(job);
      return;
    }
    // Leased but held back: this host already has its share running here.
    const queue = pendingByHost.get(job.host) ?? [];
    queue.push(job);
    pendingByHost.set(job.host, queue);
    pendingCount++;
  }

  async function fill(): Promise<void> {
    if (filling) {
      refill = true;
      return;
    }
    filling = true;
    try {
      do {
        refill = false;
        const free = opts.concurrency - runningTotal() - pendingCount;
        if (free <= 0 || stopping) break;
        const skipHosts = [...new Set([...runningByHost.keys(), ...pendingByHost.keys()])].filter(
          (h) => hostLoad(h) >= opts.perHostConcurrency,
        );
        const now = opts.clock.now();
        const claimed = await opts.jobs.claim(id, free, { now: iso(now), leaseUntil: iso(now + leaseMs), skipHosts });
        for (const job of claimed) accept(job);
        if (claimed.length === free) refill = true;
      } while (refill && !stopping);
    } catch (err) {
      opts.warn('the worker could not claim jobs; retrying at the next poll', err);
    } finally {
      filling = false;
    }
  }

  async function renewLeases(): Promise<void> {
    const slugs: string[] = [];
    for (const queue of pendingByHost.values()) for (const job of queue) slugs.push(job.check_slug);
    for (const slug of runningSlugs) slugs.push(slug);
    if (slugs.length === 0) return;
    try {
      await opts.jobs.extendLeases(id, slugs, iso(opts.clock.now() + leaseMs));
    } catch (err) {
      opts.warn('could not renew job leases', err);
    }
  }

  return {
    id,
    start() {
      if (opts.concurrency <= 0 || pollTimer) return;
      pollTimer = setInterval(() => void fill(), pollMs);
      pollTimer.unref();
      leaseTimer = setInterval(() => void renewLeases(), Math.max(1000, Math.floor(leaseMs / 3)));
      leaseTimer.unref();
      void fill();
    },
    poke() {
      if (pollTimer && !stopping) void fill();
    },
    async stop() {
      stopping = true;
      clearInterval(pollTimer);
      clearInterval(leaseTimer);
      const held = [...pendingByHost.values()].flat();
      pendingByHost.clear();
      pendingCount = 0;
      await Promise.all(held.map((job) => opts.jobs.release(job.check_slug, id).catch(() => undefined)));
      await Promise.allSettled([...inFlight]);
    },
    stats: () => ({ running: runningTotal(), pending: pendingCount }),
  };
}
