import { sql, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from './db.js';
import type { Database, JobsTable } from './schema.js';

export type JobRow = Selectable<JobsTable>;

export function createJobsRepo(db: Kysely<Database>, dialect: DialectName) {
  return {
    /**
     * Leases up to `limit` runnable jobs to `owner`: queued ones that are due, and running ones whose lease
     * expired (their worker died). One statement; on PostgreSQL the candidates are locked with SKIP LOCKED so
     * concurrent workers never take the same job, on SQLite the write lock serialises claims.
     */
    async claim(owner: string, limit: number, opts: { now: string; leaseUntil: string; skipHosts: string[] }): Promise<JobRow[]> {
      if (limit <= 0) return [];
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
        .execute();
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
