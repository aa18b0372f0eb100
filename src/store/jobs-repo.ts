import { sql, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from './db.js';
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
}

/** RETURNING follows the physical update order (PostgreSQL): put the claim back in queue order. */
function inQueueOrder(rows: JobRow[]): JobRow[] {
  const key = (j: JobRow) => `${j.priority}|${j.run_after}|${j.created_at}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function createJobsRepo(db: Kysely<Database>, dialect: DialectName) {
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
    if (dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
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
     * expired (their worker died), in priority order. One statement; on PostgreSQL the candidates are locked
     * with SKIP LOCKED so concurrent workers never take the same job, on SQLite the write lock serialises claims.
     *
     * With `perHost`, no host gets more than its free slots (`hostSlots[host]`, else `perHost`) in one claim:
     * a worker never leases 32 links to one host only to hold 28 of them back while other hosts wait.
     */
    async claim(owner: string, limit: number, opts: ClaimOptions): Promise<JobRow[]> {
      if (limit <= 0) return [];
      if (opts.perHost === undefined) return claimInOrder(owner, limit, opts);
      const skip = opts.skipHosts.length > 0 ? sql` and host not in (${sql.join(opts.skipHosts)})` : sql``;
      const lock = dialect === 'postgres' ? sql` for update skip locked` : sql``;
      const slotEntries = Object.entries(opts.hostSlots ?? {});
      const slots =
        slotEntries.length > 0
          ? sql`case host ${sql.join(slotEntries.map(([host, n]) => sql`when ${host} then cast(${n} as integer)`), sql` `)} else cast(${opts.perHost} as integer) end`
          : sql`cast(${opts.perHost} as integer)`;
      // The scan window bounds the work per claim. Hosts at their cap are excluded before it, so every row
      // in it belongs to a host with a free slot; a host with more rows than slots fills the window only
      // until the worker's next claim, which skips it.
      const scan = Math.max(32, limit * opts.perHost);
      const columns = sql`check_slug, host, priority, run_after, created_at`;
      // Two index-ordered arms (jobs_ready, jobs_lease) rather than one OR, which would sort the whole queue.
      const result = await sql<JobRow>`
        update jobs
        set status = 'running', lease_owner = ${owner}, lease_expires_at = ${opts.leaseUntil}, attempts = attempts + 1
        where check_slug in (
          select check_slug from (
            select check_slug, priority, run_after, created_at,
              row_number() over (partition by host order by priority, run_after, created_at) as host_rank,
              ${slots} as host_slots
            from (
              select * from (
                select ${columns} from jobs
                where status = 'queued' and run_after <= ${opts.now}${skip}
                order by priority, run_after, created_at
                limit ${scan}${lock}
              ) as due
              union all
              select * from (
                select ${columns} from jobs
                where status = 'running' and lease_expires_at < ${opts.now}${skip}
                order by lease_expires_at
                limit ${scan}${lock}
              ) as lapsed
            ) as candidates
          ) as ranked
          where host_rank <= host_slots
          order by priority, run_after, created_at
          limit ${limit}
        )
        returning *`.execute(db);
      return inQueueOrder(result.rows);
    },

    /** Removes a finished job; only its current lease holder may. */
    async complete(checkSlug: string, owner: string): Promise<void> {
      await db.deleteFrom('jobs').where('check_slug', '=', checkSlug).where('lease_owner', '=', owner).execute();
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
      const rows = await db.selectFrom('jobs').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { queued: count('queued'), running: count('running') };
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;
