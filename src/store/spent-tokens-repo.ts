// The spent web tokens (table web_spent_tokens): ids of a one-time sign-in link once used, of a session once signed
// out, kept until they expire (web/spent-tokens.ts says what for and when to prune). Spending is one INSERT … ON
// CONFLICT DO NOTHING, so of two concurrent uses of the same link (even on two instances sharing the database)
// exactly one wins.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type SpentKind = 'login_link' | 'session';

export interface SpentTokensRepo {
  /** Records the id as spent; false when it already was (the caller lost the race, or it is a replay). */
  spend(kind: SpentKind, id: string, expiresAtMs: number): Promise<boolean>;
  isSpent(kind: SpentKind, id: string): Promise<boolean>;
  /** Forgets the ids that expired before `nowMs`: they no longer work anyway. */
  deleteExpired(nowMs: number): Promise<void>;
}

const key = (kind: SpentKind, id: string) => `${kind}:${id}`;

export function createSpentTokensRepo(db: Kysely<Database>): SpentTokensRepo {
  return {
    async spend(kind, id, expiresAtMs) {
      const result = await db
        .insertInto('web_spent_tokens')
        .values({ id: key(kind, id), kind, expires_at: new Date(expiresAtMs).toISOString() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async isSpent(kind, id) {
      const row = await db.selectFrom('web_spent_tokens').select('id').where('id', '=', key(kind, id)).executeTakeFirst();
      return row !== undefined;
    },

    async deleteExpired(nowMs) {
      await db.deleteFrom('web_spent_tokens').where('expires_at', '<', new Date(nowMs).toISOString()).execute();
    },
  };
}
