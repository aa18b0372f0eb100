// Monitors and their queued runs. Every write that queues a run does it in the same transaction as the
// monitor's schedule change (store/check-queue.ts insertChecksAndJobs), so a run is never lost nor made twice.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Database, MonitorsTable } from './schema.js';
import { insertChecksAndJobs, type QueuedCheck } from './check-queue.js';

export type MonitorRow = Selectable<MonitorsTable>;

/** The user already has the most monitors allowed; nothing was created. */
export class MonitorLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} monitors per user`);
    this.name = 'MonitorLimitReached';
  }
}

export interface MonitorCursor {
  createdAt: string;
  id: string;
}

/** A run to queue for a claimed monitor, and the monitor's next due time. */
export interface PlannedRun {
  run: QueuedCheck;
  dueAt: string | null;
}

export function createMonitorsRepo(db: Kysely<Database>, dialect: Dialect) {
  async function queueRuns(trx: Transaction<Database>, runs: { monitorId: string; run: QueuedCheck }[], now: string): Promise<void> {
    if (runs.length === 0) return;
    await insertChecksAndJobs(
      trx,
      runs.map((r) => r.run),
      now,
    );
    await trx
      .insertInto('monitor_pending_runs')
      .values(runs.map((r) => ({ check_slug: r.run.check.slug, monitor_id: r.monitorId, created_at: r.run.check.created_at })))
      .execute();
  }

  return {
    /** Inserts the monitor with its first run queued, unless its owner would have more than `limit`. */
    async create(row: MonitorRow, firstRun: QueuedCheck, limit: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // As for batches: PostgreSQL serialises one user's creations with a lock; on SQLite the insert takes the
        // write lock before the count.
        await dialect.lockKey(trx, `trackcheck:monitors:${row.user_id}`);
        await trx.insertInto('monitors').values(row).execute();
        const { n } = await trx
          .selectFrom('monitors')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', row.user_id)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) > limit) throw new MonitorLimitReached(limit);
        await queueRuns(trx, [{ monitorId: row.id, run: firstRun }], row.created_at);
      });
    },

    get(id: string, opts: { includeDeleted?: boolean } = {}): Promise<MonitorRow | undefined> {
      let query = db.selectFrom('monitors').selectAll().where('id', '=', id);
      if (opts.includeDeleted !== true) query = query.where('deleted_at', 'is', null);
      return query.executeTakeFirst();
    },

    /** The user's monitors, newest first, strictly after the cursor. */
    listByUser(userId: string, limit: number, after: MonitorCursor | null): Promise<MonitorRow[]> {
      let query = db.selectFrom('monitors').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    async update(
      id: string,
      fields: Partial<Pick<MonitorRow, 'name' | 'interval_minutes' | 'paused' | 'channels' | 'due_at'>>,
    ): Promise<void> {
      await db.updateTable('monitors').set(fields).where('id', '=', id).where('deleted_at', 'is', null).execute();
    },

    /** Soft delete: the monitor stops running and disappears; its checks stay readable by slug. */
    async remove(id: string, deletedAt: string): Promise<boolean> {
      const res = await db
        .updateTable('monitors')
        .set({ deleted_at: deletedAt, due_at: null })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Queues a run now unless one is already waiting to be evaluated; true when one was queued. */
    async queueRunNow(monitorId: string, run: QueuedCheck): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const waiting = await trx
          .selectFrom('monitor_pending_runs')
          .select('check_slug')
          .where('monitor_id', '=', monitorId)
          .executeTakeFirst();
        if (waiting) return false;
        await trx.updateTable('monitors').set({ last_run_at: run.check.created_at }).where('id', '=', monitorId).execute();
        await queueRuns(trx, [{ monitorId, run }], run.check.created_at);
        return true;
      });
    },

    /**
     * Claims up to `limit` due monitors and, in the same transaction, moves each one's due time on and queues
     * its run: each due run exactly once across every worker. PostgreSQL: the due rows are locked `SKIP LOCKED`,
     * so concurrent schedulers take disjoint monitors. SQLite: the claim is the transaction's first statement, a
     * write, so the database's write lock serialises schedulers (across processes too).
     */
    async claimDue(now: string, limit: number, plan: (row: MonitorRow) => PlannedRun): Promise<MonitorRow[]> {
      return db.transaction().execute(async (trx) => {
        const claimed = await sql<MonitorRow>`
          update monitors set last_run_at = ${now}
          where id in (select id from monitors where due_at <= ${now} order by due_at limit ${limit}${dialect.skipLocked})
          returning *`.execute(trx);
        const rows = claimed.rows;
        if (rows.length === 0) return [];
        const plans = rows.map((row) => ({ row, ...plan(row) }));
        const cases = sql.join(
          plans.map((p) => sql`when ${p.row.id} then ${p.dueAt}`),
          sql` `,
        );
        await sql`update monitors set due_at = case id ${cases} end where id in (${sql.join(rows.map((r) => r.id))})`.execute(trx);
        await queueRuns(
          trx,
          plans.map((p) => ({ monitorId: p.row.id, run: p.run })),
          now,
        );
        return rows;
      });
    },

    /** Runs whose check has finished but that were never evaluated (a crash between the two): the repair sweep. */
    async finishedPendingRuns(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('monitor_pending_runs')
        .innerJoin('checks', 'checks.slug', 'monitor_pending_runs.check_slug')
        .select('monitor_pending_runs.check_slug')
        .where('checks.status', 'in', ['completed', 'failed'])
        .limit(limit)
        .execute();
      return rows.map((r) => r.check_slug);
    },

    /** Runs queued and not evaluated yet (tests, health of the scheduler). */
    async pendingRuns(monitorId: string): Promise<string[]> {
      const rows = await db.selectFrom('monitor_pending_runs').select('check_slug').where('monitor_id', '=', monitorId).execute();
      return rows.map((r) => r.check_slug);
    },
  };
}

export type MonitorsRepo = ReturnType<typeof createMonitorsRepo>;
