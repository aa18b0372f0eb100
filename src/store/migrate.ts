import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './db.js';
import * as initial from './migrations/001-initial.js';
import * as jobsBatches from './migrations/002-jobs-batches.js';
import * as webSpentTokens from './migrations/003-web-spent-tokens.js';

// Migrations are imported statically (not read from disk) so they work the same from sources, tests and bundles.
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-jobs-batches': jobsBatches,
  '003-web-spent-tokens': webSpentTokens,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; safe to call from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(store: Pick<Db, 'db' | 'dialect'>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema; pin them to ours so several schemas (one per
  // test run, or per tenant) in one PostgreSQL database never see each other's.
  const migrationTableSchema =
    store.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db: store.db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
