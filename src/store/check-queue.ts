// Creating checks and their jobs (and a batch) in ONE transaction: a crash never leaves a check nobody will run.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { NewCheckRow } from './checks-repo.js';
import type { BatchRow } from './batches-repo.js';

export interface QueuedCheck {
  check: NewCheckRow;
  host: string;
  priority: number;
}

export function createCheckQueue(db: Kysely<Database>) {
  return {
    async add(items: QueuedCheck[], now: string, batch?: BatchRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (batch) await trx.insertInto('batches').values(batch).execute();
        for (let i = 0; i < items.length; i += 50) {
          const chunk = items.slice(i, i + 50);
          await trx.insertInto('checks').values(chunk.map((c) => c.check)).execute();
          await trx
            .insertInto('jobs')
            .values(
              chunk.map((c) => ({
                check_slug: c.check.slug,
                host: c.host,
                priority: c.priority,
                status: 'queued',
                attempts: 0,
                run_after: now,
                lease_owner: null,
                lease_expires_at: null,
                last_error: null,
                created_at: now,
              })),
            )
            .execute();
        }
      });
    },
  };
}

export type CheckQueue = ReturnType<typeof createCheckQueue>;
