import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './db.js';
import * as initial from './migrations/001-initial.js';

// Migrations are imported statically (not read from disk) so they work the same from sources, tests and bundles.
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; safe to call from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(store: Pick<Db, 'db'>): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
