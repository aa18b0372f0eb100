// Ids of web tokens that must not work again before they expire: a one-time sign-in link once used, a session
// once signed out. Spending is one INSERT … ON CONFLICT DO NOTHING, so of two concurrent uses of the same link
// (even on two instances sharing the database) exactly one wins.
//
// The table belongs to the web layer and is created here with Kysely's schema builder (IF NOT EXISTS, both
// dialects); it holds only ids and expiry times, and rows are pruned once their token could no longer be used.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Clock } from '../rate-limit/window.js';

export type SpentKind = 'login_link' | 'session';

interface SpentTokensTable {
  id: string;
  kind: string;
  expires_at: string;
}

type WebDatabase = Database & { web_spent_tokens: SpentTokensTable };

export interface SpentTokens {
  /** Records the id as spent; false when it already was (the caller lost the race, or it is a replay). */
  spend(kind: SpentKind, id: string, expiresAtMs: number): Promise<boolean>;
  isSpent(kind: SpentKind, id: string): Promise<boolean>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

const key = (kind: SpentKind, id: string) => `${kind}:${id}`;

/** Creates the table when missing. Two processes starting at once may race on it: the loser finds it there. */
export async function ensureSpentTokensTable(db: Kysely<Database>): Promise<void> {
  try {
    await db.schema
      .createTable('web_spent_tokens')
      .ifNotExists()
      .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_spent_tokens_expires_at').ifNotExists().on('web_spent_tokens').column('expires_at').execute();
  } catch (err) {
    // PostgreSQL's CREATE … IF NOT EXISTS is not atomic against a concurrent creator; accept what it made.
    const probe = await db.withTables<{ web_spent_tokens: SpentTokensTable }>().selectFrom('web_spent_tokens').select('id').limit(1).execute().catch(() => null);
    if (probe === null) throw err;
  }
}

export function createSpentTokens(base: Kysely<Database>, clock: Clock): SpentTokens {
  const db = base.withTables<{ web_spent_tokens: SpentTokensTable }>() as Kysely<WebDatabase>;
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
