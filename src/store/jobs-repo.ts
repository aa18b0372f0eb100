import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Database, JobsTable } from './schema.js';

export type JobRow = Selectable<JobsTable>;

export interface ClaimOptions {
  now: string;
  leaseUntil: string;
  /** Hosts this worker already runs its share of: none of their jobs are claimed. */
  skipHosts: string[];
  /** Most jobs per host one claim may lease (absent: no per-host limit). */
  perHost?: number;
  /** Free slots of hosts that are partly busy in this worker (default: perHost). */
  hostSlots?: Record<string, number>;
  /**
   * Requesters (`user:…`, `ip:…`) holding their share of this worker's slots: everyone else's due jobs are claimed
   * first, also from far back in the queue; theirs only fill what is left (jobs/worker.ts).
   */
  busyRequesters?: string[];
}

interface Candidate {
  check_slug: string;
  host: string;
  requester: string;
  priority: number;
  run_after: string;
  created_at: string;
}

/** Queue order: priority, then due time, then creation (RETURNING and UNION ALL do not keep it). */
function inQueueOrder<T extends Pick<JobRow, 'priority' | 'run_after' | 'created_at'>>(rows: T[]): T[] {
  const key = (j: T) => `${String(j.priority).padStart(6, '0')}|${j.run_after}|${j.created_at}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Runnable jobs in queue order: queued and due, then lapsed leases; hosts to skip left out. */
async function selectCandidates(executor: Kysely<Database>, dialect: Dialect, opts: ClaimOptions, scan: number): Promise<Candidate[]> {
  // The skipped hosts travel as one JSON parameter: the statement's text never changes with them.
  const notIn = (column: 'host' | 'requester', values: readonly string[]) => dialect.notInJsonArray(column, values);
  const skip = notIn('host', opts.skipHosts);
  const busy = opts.busyRequesters ?? [];
  // PostgreSQL: other workers skip the candidates until this claim's transaction ends.
  const forUpdate = dialect.skipLocked;
  // Two index-ordered arms (jobs_ready, jobs_lease) rather than one OR, which would sort the whole queue.
  // A third arm when someone holds their share: the others' due jobs, wherever they stand in the queue.
  const others =
    busy.length === 0
      ? sql``
      : sql`
    union all
    select * from (
      select check_slug, host, requester, priority, run_after, created_at from jobs
      where status = 'queued' and run_after <= ${opts.now} and ${skip} and ${notIn('requester', busy)}
      order by priority, run_after, created_at
      limit ${scan}${forUpdate}
    ) as others`;
  const result = await sql<Candidate>`
    select * from (
      select check_slug, host, requester, priority, run_after, created_at from jobs
      where status = 'queued' and run_after <= ${opts.now} and ${skip}
      order by priority, run_after, created_at
      limit ${scan}${forUpdate}
    ) as due
    union all
    select * from (
      select check_slug, host, requester, priority, run_after, created_at from jobs
      where status = 'running' and lease_expires_at < ${opts.now} and ${skip}
      order by lease_expires_at
      limit ${scan}${forUpdate}
    ) as lapsed${others}`.execute(executor);
  // The arms may overlap.
  const seen = new Set<string>();
  return inQueueOrder(result.rows.filter((row) => !seen.has(row.check_slug) && seen.add(row.check_slug)));
}

/**
 * Jobs leased and not lapsed, per host, across every worker on this database (this one's included): what the
 * per-host cap counts. A finished job still waiting for its worker's batched delete counts for those few
 * milliseconds too, which errs on the polite side.
 */
async function leasedPerHost(executor: Kysely<Database>, now: string): Promise<Map<string, number>> {
  const rows = await executor
    .selectFrom('jobs')
    .select(['host', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('status', '=', 'running')
    .where('lease_expires_at', '>=', now)
    .groupBy('host')
    .execute();
  return new Map(rows.map((row) => [row.host, Number(row.n)]));
}

/** The claim's per-host room: the worker's own view, narrowed by what every worker holds. */
function withGlobalLoad(opts: ClaimOptions, perHost: number, leased: Map<string, number>): ClaimOptions {
  const skipHosts = new Set(opts.skipHosts);
  const hostSlots: Record<string, number> = { ...opts.hostSlots };
  for (const [host, n] of leased) {
    const free = Math.min(hostSlots[host] ?? perHost, perHost - n);
    if (free > 0) hostSlots[host] = free;
    else skipHosts.add(host);
  }
  return { ...opts, skipHosts: [...skipHosts], hostSlots };
}

/** Capped claims on PostgreSQL take this transaction lock in turn: two workers never both fill one host's last slots. */
const CLAIM_LOCK = sql`select pg_advisory_xact_lock(hashtext('trackcheck:jobs:claim'))`;

/**
 * Up to `limit` candidates with no host over its free slots: the jobs of requesters who are not busy first, in
 * queue order, then the busy requesters' jobs in what room is left (nobody else wants it).
 */
function pickWithinSlots(candidates: Candidate[], limit: number, perHost: number, opts: ClaimOptions): string[] {
  const busy = new Set(opts.busyRequesters ?? []);
  const ordered = [...candidates.filter((c) => !busy.has(c.requester)), ...candidates.filter((c) => busy.has(c.requester))];
  const taken = new Map<string, number>();
  const picked: string[] = [];
  for (const { check_slug, host } of ordered) {
    if (picked.length >= limit) break;
    const n = taken.get(host) ?? 0;
    if (n >= (opts.hostSlots?.[host] ?? perHost)) continue;
    taken.set(host, n + 1);
    picked.push(check_slug);
  }
  return picked;
}

/** Leases the picked jobs to `owner`, each only if it is still queued-and-due or its lease has lapsed. */
async function lease(executor: Kysely<Database>, owner: string, slugs: string[], opts: ClaimOptions): Promise<JobRow[]> {
  if (slugs.length === 0) return [];
  const rows = await executor
    .updateTable('jobs')
    .set({ status: 'running', lease_owner: owner, lease_expires_at: opts.leaseUntil, attempts: sql<number>`attempts + 1` })
    .where('check_slug', 'in', slugs)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', opts.now)]),
        eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', opts.now)]),
      ]),
    )
    .returningAll()
    .execute();
  return inQueueOrder(rows);
}

export function createJobsRepo(db: Kysely<Database>, dialect: Dialect) {
  /** The claim without per-host limits: the first `limit` runnable jobs in priority order. */
  function claimInOrder(owner: string, limit: number, opts: ClaimOptions): Promise<JobRow[]> {
    let candidates = db
      .selectFrom('jobs')
      .select('check_slug')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', opts.now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', opts.now)]),
        ]),
      )
      .orderBy('priority')
      .orderBy('run_after')
      .orderBy('created_at')
      .limit(limit);
    if (opts.skipHosts.length > 0) candidates = candidates.where('host', 'not in', opts.skipHosts);
    if (dialect.locksReadRows) candidates = candidates.forUpdate().skipLocked();
    return db
      .updateTable('jobs')
      .set({ status: 'running', lease_owner: owner, lease_expires_at: opts.leaseUntil, attempts: sql<number>`attempts + 1` })
      .where('check_slug', 'in', candidates)
      .returningAll()
      .execute()
      .then(inQueueOrder);
  }

  return {
    /**
     * Leases up to `limit` runnable jobs to `owner`: queued ones that are due, and running ones whose lease
     * expired (their worker died), in priority order. No job is ever leased twice: on PostgreSQL the candidates
     * are locked with SKIP LOCKED until the lease is written, so concurrent workers pass each other by; on
     * SQLite the lease re-checks each job in its own write, so a job another process took in between is not
     * returned.
     *
     * With `perHost`, no host gets more than its free slots (`hostSlots[host]`, else `perHost`) in one claim:
     * a worker never leases 32 links to one host only to hold 28 of them back while other hosts wait. On
     * PostgreSQL, the scale-out store, the slots are counted across every worker on the database (`perHost`
     * leases per host in all) and such claims take turns under a transaction lock, so the cap is exact. On
     * SQLite, the single-instance store, they are the worker's own (`hostSlots`): counting every worker's
     * leases on each claim cost a 500-link batch a quarter more CPU there (880 ms instead of 700 ms), for a
     * setup that rarely has two workers.
     */
    async claim(owner: string, limit: number, opts: ClaimOptions): Promise<JobRow[]> {
      if (limit <= 0) return [];
      const perHost = opts.perHost;
      if (perHost === undefined) return claimInOrder(owner, limit, opts);
      // The scan window bounds the work per claim. Hosts at their cap are excluded before it, so every row
      // in it belongs to a host with a free slot; a host with more rows than slots fills the window only
      // until the worker's next claim, which skips it.
      const scan = Math.max(32, limit * perHost);
      const claimWith = async (executor: Kysely<Database>, room: ClaimOptions) => {
        const candidates = await selectCandidates(executor, dialect, room, scan);
        return lease(executor, owner, pickWithinSlots(candidates, limit, perHost, room), room);
      };
      // SQLite holds the per-host cap per worker process (src/jobs/README.md, "Per-host cap"): no global count.
      if (dialect.name === 'sqlite') return claimWith(db, opts);
      return db.transaction().execute(async (trx) => {
        await CLAIM_LOCK.execute(trx);
        return claimWith(trx, withGlobalLoad(opts, perHost, await leasedPerHost(trx, opts.now)));
      });
    },

    /** Removes a finished job; only its current lease holder may. */
    async complete(checkSlug: string, owner: string): Promise<void> {
      await db.deleteFrom('jobs').where('check_slug', '=', checkSlug).where('lease_owner', '=', owner).execute();
    },

    /** Removes several finished jobs in one statement per 200 (one commit instead of one each). */
    async completeMany(checkSlugs: string[], owner: string): Promise<void> {
      for (let i = 0; i < checkSlugs.length; i += 200) {
        await db
          .deleteFrom('jobs')
          .where('check_slug', 'in', checkSlugs.slice(i, i + 200))
          .where('lease_owner', '=', owner)
          .execute();
      }
    },

    /** Puts a job back in the queue to run again after `runAfter`. */
    async retry(checkSlug: string, owner: string, error: string, runAfter: string): Promise<void> {
      await db
        .updateTable('jobs')
        .set({ status: 'queued', run_after: runAfter, lease_owner: null, lease_expires_at: null, last_error: error })
        .where('check_slug', '=', checkSlug)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Hands back a leased job that was never started (shutdown): its claim does not count as an attempt. */
    async release(checkSlug: string, owner: string): Promise<void> {
      await db
        .updateTable('jobs')
        .set({ status: 'queued', lease_owner: null, lease_expires_at: null, attempts: sql<number>`attempts - 1` })
        .where('check_slug', '=', checkSlug)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Keeps this worker's leases alive while its checks run (a dead worker's leases lapse and are reclaimed). */
    async extendLeases(owner: string, checkSlugs: string[], leaseUntil: string): Promise<void> {
      for (let i = 0; i < checkSlugs.length; i += 200) {
        await db
          .updateTable('jobs')
          .set({ lease_expires_at: leaseUntil })
          .where('lease_owner', '=', owner)
          .where('check_slug', 'in', checkSlugs.slice(i, i + 200))
          .execute();
      }
    },

    /** Jobs waiting or running, for /health and metrics. */
    async depth(): Promise<{ queued: number; running: number }> {
      const rows = await db
        .selectFrom('jobs')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { queued: count('queued'), running: count('running') };
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;
