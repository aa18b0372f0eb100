import type { Kysely, Selectable } from 'kysely';
import type { BatchesTable, Database } from './schema.js';
import { unfinishedCheckOf } from './checks-repo.js';

export type BatchRow = Selectable<BatchesTable>;

/** What a batch shows of each of its checks. */
export interface BatchCheckRow {
  batch_id: string;
  slug: string;
  url: string;
  status: string;
  verdict: string | null;
}

export interface BatchCounts {
  completed: number;
  failed: number;
  unfinished: number;
}

export function createBatchesRepo(db: Kysely<Database>) {
  return {
    async insert(row: BatchRow): Promise<void> {
      await db.insertInto('batches').values(row).execute();
    },

    get(id: string): Promise<BatchRow | undefined> {
      return db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    },

    countUnfinished(userId: string): Promise<number> {
      return db
        .selectFrom('batches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('status', '!=', 'completed')
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },

    /** The user's batches, newest first, strictly after the cursor. */
    listByUser(userId: string, limit: number, after: { createdAt: string; id: string } | null): Promise<BatchRow[]> {
      let query = db.selectFrom('batches').selectAll().where('user_id', '=', userId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** The checks of these batches in submission order (their creation times increase with the index). */
    checksOf(batchIds: string[]): Promise<BatchCheckRow[]> {
      if (batchIds.length === 0) return Promise.resolve([]);
      return (
        db
          .selectFrom('checks')
          .select(['batch_id', 'slug', 'url', 'status', 'verdict'])
          .where('batch_id', 'in', batchIds)
          // Unique within a batch (see services/batches.ts), so the checks_batch index alone gives the order.
          .orderBy('created_at')
          .execute() as Promise<BatchCheckRow[]>
      );
    },

    async counts(id: string): Promise<BatchCounts> {
      const rows = await db
        .selectFrom('checks')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('batch_id', '=', id)
        .groupBy('status')
        .execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { completed: count('completed'), failed: count('failed'), unfinished: count('queued') + count('running') };
    },

    async markRunning(id: string): Promise<void> {
      await db.updateTable('batches').set({ status: 'running' }).where('id', '=', id).where('status', '=', 'queued').execute();
    },

    /** Marks the batch completed once none of its checks is unfinished; idempotent. */
    async completeIfDone(id: string, now: string): Promise<void> {
      await db
        .updateTable('batches')
        .set({ status: 'completed', completed_at: now })
        .where('id', '=', id)
        .where('status', '!=', 'completed')
        .where((eb) => eb.not(eb.exists(unfinishedCheckOf(db, id))))
        .execute();
    },
  };
}

export type BatchesRepo = ReturnType<typeof createBatchesRepo>;
