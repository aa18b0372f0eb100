import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { ChecksTable, Database } from './schema.js';

export type CheckRow = Selectable<ChecksTable>;
export type NewCheckRow = Insertable<ChecksTable>;

export interface CheckCursor {
  createdAt: string;
  slug: string;
}

export function createChecksRepo(db: Kysely<Database>) {
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
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('slug', '<', after.slug)]),
          ]),
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
      outcome: { status: 'completed' | 'failed'; result: string | null; errorCode: string | null; errorMessage: string | null },
      completedAt: string,
    ): Promise<boolean> {
      const res = await db
        .updateTable('checks')
        .set({
          status: outcome.status,
          result: outcome.result,
          error_code: outcome.errorCode,
          error_message: outcome.errorMessage,
          completed_at: completedAt,
        })
        .where('slug', '=', slug)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

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
