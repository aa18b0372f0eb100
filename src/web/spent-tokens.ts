// Ids of web tokens that must not work again before they expire: a one-time sign-in link once used, a session
// once signed out. Spending is one INSERT … ON CONFLICT DO NOTHING, so of two concurrent uses of the same link
// (even on two instances sharing the database) exactly one wins.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Clock } from '../rate-limit/window.js';

export type SpentKind = 'login_link' | 'session';

export interface SpentTokens {
  /** Records the id as spent; false when it already was (the caller lost the race, or it is a replay). */
  spend(kind: SpentKind, id: string, expiresAtMs: number): Promise<boolean>;
  isSpent(kind: SpentKind, id: string): Promise<boolean>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

const key = (kind: SpentKind, id: string) => `${kind}:${id}`;

export function createSpentTokens(db: Kysely<Database>, clock: Clock): SpentTokens {
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await db.deleteFrom('web_spent_tokens').where('expires_at', '<', new Date(now).toISOString()).execute();
  }

  return {
    async spend(kind, id, expiresAtMs) {
      const now = clock.now();
      const result = await db
        .insertInto('web_spent_tokens')
        .values({ id: key(kind, id), kind, expires_at: new Date(expiresAtMs).toISOString() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      await prune(now).catch(() => undefined); // housekeeping must never fail a sign-in
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async isSpent(kind, id) {
      const row = await db.selectFrom('web_spent_tokens').select('id').where('id', '=', key(kind, id)).executeTakeFirst();
      return row !== undefined;
    },
  };
}
