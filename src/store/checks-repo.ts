import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { ChecksTable, Database } from './schema.js';
import type { Verdict } from '../contract/verdict.js';

export type CheckRow = Selectable<ChecksTable>;
export type NewCheckRow = Insertable<ChecksTable>;

export interface CheckCursor {
  createdAt: string;
  slug: string;
}

type ViewWaiter = { resolve(count: number | undefined): void; reject(err: unknown): void };

/**
 * Concurrent views of one report share one `UPDATE … + n` and split the range it returns, so a hot report costs
 * one round trip per batch instead of one row-lock wait per reader, and every reader still gets its own count.
 */
function createViewCounter(db: Kysely<Database>, dialect: Dialect): (slug: string) => Promise<number | undefined> {
  // On PostgreSQL a view does not wait for its WAL flush: `set_config(…, true)` turns synchronous_commit off for
  // this one-statement transaction only. A database crash (not a restart) may lose the last fraction of a second
  // of view counts; in exchange a hot report is not capped at one disk flush per batch of readers.
  const waiting = new Map<string, ViewWaiter[]>();
  const inFlight = new Set<string>();
  async function flush(slug: string): Promise<void> {
    const batch = waiting.get(slug) ?? [];
    waiting.delete(slug);
    try {
      let update = db
        .updateTable('checks')
        .set({ view_count: sql<number>`view_count + ${batch.length}` })
        .where('slug', '=', slug);
      if (dialect.asyncCommit) update = update.where(sql<boolean>`set_config('synchronous_commit', 'off', true) is not null`);
      const row = await update.returning('view_count').executeTakeFirst();
      batch.forEach((w, i) => w.resolve(row === undefined ? undefined : row.view_count - batch.length + 1 + i));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      if (waiting.has(slug)) void flush(slug);
      else inFlight.delete(slug);
    }
  }
  return (slug) =>
    new Promise((resolve, reject) => {
      const batch = waiting.get(slug);
      if (batch) batch.push({ resolve, reject });
      else waiting.set(slug, [{ resolve, reject }]);
      if (inFlight.has(slug)) return;
      inFlight.add(slug);
      // The first update waits for the rest of this turn's requests: on SQLite an update completes within the
      // turn, so without this every reader would still pay for a write transaction of its own.
      setImmediate(() => void flush(slug));
    });
}

/**
 * The newest unfinished check of a batch or a scan (checks.batch_id), as a subquery: "is the group done?" is
 * "does this find nothing?". Newest first: a group's last links are the last to finish, so the probe stops at
 * once instead of walking every finished check, as it would from the oldest on every completion.
 */
export function unfinishedCheckOf(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('checks')
    .select('slug')
    .where('batch_id', '=', groupId)
    .where('status', 'in', ['queued', 'running'])
    .orderBy('created_at', 'desc')
    .limit(1);
}

export function createChecksRepo(db: Kysely<Database>, dialect: Dialect) {
  const addView = createViewCounter(db, dialect);
  return {
    async insert(row: NewCheckRow): Promise<void> {
      await db.insertInto('checks').values(row).execute();
    },

    get(slug: string): Promise<CheckRow | undefined> {
      return db.selectFrom('checks').selectAll().where('slug', '=', slug).executeTakeFirst();
    },

    /** The user's checks, newest first, strictly after the cursor. */
    listByUser(userId: string, limit: number, after: CheckCursor | null): Promise<CheckRow[]> {
      let query = db.selectFrom('checks').selectAll().where('user_id', '=', userId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('slug', '<', after.slug)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('slug', 'desc').limit(limit).execute();
    },

    listByBatch(batchId: string): Promise<CheckRow[]> {
      return db.selectFrom('checks').selectAll().where('batch_id', '=', batchId).orderBy('created_at').orderBy('slug').execute();
    },

    async markRunning(slug: string, startedAt: string): Promise<void> {
      await db
        .updateTable('checks')
        .set({ status: 'running', started_at: startedAt })
        .where('slug', '=', slug)
        .where('status', 'in', ['queued', 'running'])
        .execute();
    },

    /** Stores the outcome once: a check that already finished is never overwritten. Returns whether it was. */
    async finish(
      slug: string,
      outcome: {
        status: 'completed' | 'failed';
        result: string | null;
        /** CONTRACT.md section 7, stored beside the result so listings need not parse it. */
        verdict: Verdict | null;
        errorCode: string | null;
        errorMessage: string | null;
      },
      completedAt: string,
    ): Promise<boolean> {
      const res = await db
        .updateTable('checks')
        .set({
          status: outcome.status,
          result: outcome.result,
          verdict: outcome.verdict,
          error_code: outcome.errorCode,
          error_message: outcome.errorMessage,
          completed_at: completedAt,
        })
        .where('slug', '=', slug)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Adds one view and returns this view's count (exact under concurrency); undefined when unknown. */
    addView,

    /** Atomically adds one view and returns the row with the new count (one statement); undefined when unknown. */
    incrementViews(slug: string): Promise<CheckRow | undefined> {
      return db
        .updateTable('checks')
        .set({ view_count: sql<number>`view_count + 1` })
        .where('slug', '=', slug)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type ChecksRepo = ReturnType<typeof createChecksRepo>;
