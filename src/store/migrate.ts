import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './db.js';
import * as initial from './migrations/001-initial.js';
import * as jobsBatches from './migrations/002-jobs-batches.js';
import * as webSpentTokens from './migrations/003-web-spent-tokens.js';
import * as jobRequesters from './migrations/004-job-requesters.js';
import * as batchInputsVerdicts from './migrations/005-batch-inputs-verdicts.js';
import * as scans from './migrations/006-scans.js';
import * as monitors from './migrations/007-monitors.js';

// Migrations are imported statically (not read from disk) so they work the same from sources, tests and bundles.
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-jobs-batches': jobsBatches,
  '003-web-spent-tokens': webSpentTokens,
  '004-job-requesters': jobRequesters,
  '005-batch-inputs-verdicts': batchInputsVerdicts,
  '006-scans': scans,
  '007-monitors': monitors,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The database holds a migration this version does not know: it was upgraded by a newer trackcheck. */
export class SchemaNewerThanCode extends Error {
  override readonly name = 'SchemaNewerThanCode';

  constructor(readonly migration: string) {
    super(
      `the database was migrated by a newer trackcheck (it has migration ${migration}, unknown to this version); ` +
        'run the newer version, or restore the backup taken before the upgrade (docs/operations.md)',
    );
  }
}

async function migratorFor(store: Pick<Db, 'db' | 'dialect'>): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema; pin them to ours so several schemas (one per
  // test run, or per tenant) in one PostgreSQL database never see each other's.
  const migrationTableSchema = await store.dialect.migrationSchema(store.db);
  return new Migrator({ db: store.db, provider, migrationTableSchema });
}

/** Brings the schema to exactly this migration (tests of a migration's data changes start one step before it). */
export async function migrateTo(store: Pick<Db, 'db' | 'dialect'>, name: string): Promise<void> {
  const { error } = await (await migratorFor(store)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Brings the schema up to date; safe to call from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(store: Pick<Db, 'db' | 'dialect'>): Promise<string[]> {
  const migrator = await migratorFor(store);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    // Kysely's wording for an executed migration that is not in our list.
    const unknown = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message)?.[1] : undefined;
    if (unknown !== undefined) throw new SchemaNewerThanCode(unknown);
    throw error instanceof Error ? error : new Error(String(error));
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
