import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export function createUsageRepo(db: Kysely<Database>) {
  return {
    /**
     * Counts one anonymous check against (ip, type, week) unless the cap is already reached, in ONE statement:
     * the conditional upsert makes concurrent requests race on the row, never past the cap.
     */
    async consume(ip: string, checkType: string, week: string, cap: number): Promise<boolean> {
      if (cap <= 0) return false;
      const row = await db
        .insertInto('anonymous_usage')
        .values({ ip, check_type: checkType, week, count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['ip', 'check_type', 'week'])
            .doUpdateSet({ count: sql<number>`anonymous_usage.count + 1` })
            .where('anonymous_usage.count', '<', cap),
        )
        .returning('count')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Gives one back, when a counted check could not be created after all. */
    async release(ip: string, checkType: string, week: string): Promise<void> {
      await db
        .updateTable('anonymous_usage')
        .set({ count: sql<number>`count - 1` })
        .where('ip', '=', ip)
        .where('check_type', '=', checkType)
        .where('week', '=', week)
        .where('count', '>', 0)
        .execute();
    },
  };
}

export type UsageRepo = ReturnType<typeof createUsageRepo>;
