// Every difference between SQLite and PostgreSQL that a repository meets, in one object. Repositories ask it;
// none of them tests the adapter's class or the dialect's name itself.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /**
   * Appended to a claim's candidate sub-select. PostgreSQL: the candidates are row-locked and concurrent claimers
   * skip them (`for update skip locked`). SQLite: nothing — the claim is a write, and SQLite serialises writers.
   */
  readonly skipLocked: RawBuilder<unknown>;
  /** A read that a write in the same transaction depends on takes row locks (PostgreSQL `for update`); SQLite needs none. */
  readonly locksReadRows: boolean;
  /**
   * Serialises the transactions that name the same key (a user's "at most n unfinished" counts). PostgreSQL: a
   * transaction-scoped advisory lock. SQLite: nothing to do, the transaction's first write takes the database's
   * write lock before the count runs.
   */
  lockKey(trx: Kysely<Database>, key: string): Promise<void>;
  /** `column not in (<the strings of one JSON array parameter>)`: the statement's text never changes with the list. */
  notInJsonArray(column: string, values: readonly string[]): RawBuilder<boolean>;
  /**
   * Whether a one-statement write may skip waiting for its WAL flush (PostgreSQL `synchronous_commit` off for that
   * transaction). SQLite has nothing comparable.
   */
  readonly asyncCommit: boolean;
  /** The schema Kysely's migration tables live in: PostgreSQL's current schema (one per test run or tenant). */
  migrationSchema(db: Kysely<Database>): Promise<string | undefined>;
}

const sqlite: Dialect = {
  name: 'sqlite',
  skipLocked: sql``,
  locksReadRows: false,
  lockKey: async () => {},
  notInJsonArray: (column, values) => sql<boolean>`${sql.ref(column)} not in (select value from json_each(${JSON.stringify(values)}))`,
  asyncCommit: false,
  migrationSchema: async () => undefined,
};

const postgres: Dialect = {
  name: 'postgres',
  skipLocked: sql` for update skip locked`,
  locksReadRows: true,
  lockKey: async (trx, key) => {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  },
  notInJsonArray: (column, values) =>
    sql<boolean>`${sql.ref(column)} not in (select jsonb_array_elements_text(cast(${JSON.stringify(values)} as jsonb)))`,
  asyncCommit: true,
  migrationSchema: async (db) => (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema,
};

export const DIALECTS: Record<DialectName, Dialect> = { sqlite, postgres };
