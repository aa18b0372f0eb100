// A monitor run's evaluation (exactly once) and the events it raises, with their deliveries' progress.
import type { Dialect } from './dialect.js';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, MonitorEventsTable } from './schema.js';
import type { MonitorRow } from './monitors-repo.js';
import type { CheckRow } from './checks-repo.js';

export type MonitorEventRow = Selectable<MonitorEventsTable>;

/** What one evaluation writes: the monitor's new memory and schedule, and maybe an event. */
export interface Evaluation {
  monitor: Pick<MonitorRow, 'state' | 'memory'> & { due_at?: string | null };
  event: Insertable<MonitorEventsTable> | null;
}

export interface EventCursor {
  createdAt: string;
  id: string;
}

export function createMonitorEventsRepo(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Evaluates the run whose check is `slug`, once: the run's pending row is deleted in the same transaction
     * that stores the outcome, so a second evaluation (another worker, the repair sweep) finds nothing to do.
     * `decide` gets the (not deleted) monitor and the finished check; returns the run's monitor id, or null
     * when it was already evaluated, its check is not finished, or its monitor is gone.
     */
    async evaluateRun(
      slug: string,
      decide: (monitor: MonitorRow, check: CheckRow) => Evaluation,
    ): Promise<{ monitorId: string; event: MonitorEventRow | null } | null> {
      return db.transaction().execute(async (trx) => {
        const check = await trx.selectFrom('checks').selectAll().where('slug', '=', slug).executeTakeFirst();
        if (!check || (check.status !== 'completed' && check.status !== 'failed')) return null;
        const taken = await trx
          .deleteFrom('monitor_pending_runs')
          .where('check_slug', '=', slug)
          .returning('monitor_id')
          .executeTakeFirst();
        if (!taken) return null;
        let query = trx.selectFrom('monitors').selectAll().where('id', '=', taken.monitor_id).where('deleted_at', 'is', null);
        // Two runs of one monitor evaluated at once must not both read the same memory.
        if (dialect.locksReadRows) query = query.forUpdate();
        const monitor = await query.executeTakeFirst();
        if (!monitor) return null;
        const outcome = decide(monitor, check);
        await trx.updateTable('monitors').set(outcome.monitor).where('id', '=', monitor.id).execute();
        if (outcome.event) await trx.insertInto('monitor_events').values(outcome.event).execute();
        const event = outcome.event ? ({ delivery_lease: null, ...outcome.event } as MonitorEventRow) : null;
        return { monitorId: monitor.id, event };
      });
    },

    /** A monitor's events, newest first, strictly after the cursor. */
    list(monitorId: string, limit: number, after: EventCursor | null): Promise<MonitorEventRow[]> {
      let query = db.selectFrom('monitor_events').selectAll().where('monitor_id', '=', monitorId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    get(id: string): Promise<MonitorEventRow | undefined> {
      return db.selectFrom('monitor_events').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Leases up to `limit` events with a delivery due: their next_delivery_at moves to `leaseUntil` and the lease
     * token is set, in one statement (PostgreSQL: SKIP LOCKED), so two workers never make the same attempt. A
     * worker that dies mid-attempt leaves the lease to lapse, and the attempt is made again (same delivery id).
     */
    async claimDeliveries(now: string, leaseUntil: string, token: string, limit: number): Promise<MonitorEventRow[]> {
      const res = await sql<MonitorEventRow>`
        update monitor_events set next_delivery_at = ${leaseUntil}, delivery_lease = ${token}
        where id in (select id from monitor_events where next_delivery_at <= ${now} order by next_delivery_at limit ${limit}${dialect.skipLocked})
        returning *`.execute(db);
      return res.rows;
    },

    /** Stores the deliveries' progress, only while the lease is still ours. */
    async saveDeliveries(id: string, token: string, deliveries: string, nextDeliveryAt: string | null): Promise<boolean> {
      const res = await db
        .updateTable('monitor_events')
        .set({ deliveries, next_delivery_at: nextDeliveryAt, delivery_lease: null })
        .where('id', '=', id)
        .where('delivery_lease', '=', token)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
  };
}

export type MonitorEventsRepo = ReturnType<typeof createMonitorEventsRepo>;
