// Creating checks and their jobs (and a batch) in ONE transaction: a crash never leaves a check nobody will run.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { Dialect } from './dialect.js';
import type { NewCheckRow } from './checks-repo.js';
import type { BatchRow } from './batches-repo.js';

export interface QueuedCheck {
  check: NewCheckRow;
  host: string;
  /** Who it runs for: `user:<id>` or `ip:<address>`. */
  requester: string;
  priority: number;
}

export interface AddOptions {
  /** Refuse the batch (BatchLimitReached, nothing created) when its owner would have more unfinished batches. */
  maxUnfinishedBatches?: number;
}

/** The batch's owner already has the most unfinished batches allowed; nothing was created. */
export class BatchLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} unfinished batches per user`);
    this.name = 'BatchLimitReached';
  }
}

/**
 * Inserts the checks and their jobs inside the caller's transaction (50 rows a statement): scans queue their
 * links, and monitors their runs, in the same transaction that records them.
 */
export async function insertChecksAndJobs(trx: Transaction<Database>, items: QueuedCheck[], now: string): Promise<void> {
  for (let i = 0; i < items.length; i += 50) {
    const chunk = items.slice(i, i + 50);
    await trx
      .insertInto('checks')
      .values(chunk.map((c) => c.check))
      .execute();
    await trx
      .insertInto('jobs')
      .values(
        chunk.map((c) => ({
          check_slug: c.check.slug,
          host: c.host,
          requester: c.requester,
          priority: c.priority,
          status: 'queued',
          attempts: 0,
          // Due from the check's creation; a batch's checks are created a millisecond apart (see
          // services/batches.ts), so the jobs_ready index alone orders the queue.
          run_after: c.check.created_at <= now ? c.check.created_at : now,
          lease_owner: null,
          lease_expires_at: null,
          last_error: null,
          created_at: c.check.created_at,
        })),
      )
      .execute();
  }
}

export function createCheckQueue(db: Kysely<Database>, dialect: Dialect) {
  return {
    async add(items: QueuedCheck[], now: string, batch?: BatchRow, opts: AddOptions = {}): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (batch) {
          // Two submissions of one user must not both pass the limit. PostgreSQL: a per-user transaction lock
          // serialises them. SQLite: the insert below takes the database's write lock before the count, so
          // the count sees every committed batch and no other writer can add one until we commit.
          if (opts.maxUnfinishedBatches !== undefined) await dialect.lockKey(trx, `trackcheck:batches:${batch.user_id}`);
          await trx.insertInto('batches').values(batch).execute();
          if (opts.maxUnfinishedBatches !== undefined) {
            const { n } = await trx
              .selectFrom('batches')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('user_id', '=', batch.user_id)
              .where('status', '!=', 'completed')
              .executeTakeFirstOrThrow();
            // The throw rolls the transaction back: the batch row above is never committed.
            if (Number(n) > opts.maxUnfinishedBatches) throw new BatchLimitReached(opts.maxUnfinishedBatches);
          }
        }
        await insertChecksAndJobs(trx, items, now);
      });
    },
  };
}

export type CheckQueue = ReturnType<typeof createCheckQueue>;
