import { openDb, type Db } from './db.js';
import { migrateToLatest } from './migrate.js';
import { createChecksRepo, type ChecksRepo } from './checks-repo.js';
import { createKeysRepo, type KeysRepo } from './keys-repo.js';
import { createUsageRepo, type UsageRepo } from './usage-repo.js';
import { createJobsRepo, type JobsRepo } from './jobs-repo.js';
import { createBatchesRepo, type BatchesRepo } from './batches-repo.js';
import { createCheckQueue, type CheckQueue } from './check-queue.js';
import { createScansRepo, type ScansRepo } from './scans-repo.js';
import { createMonitorsRepo, type MonitorsRepo } from './monitors-repo.js';
import { createMonitorEventsRepo, type MonitorEventsRepo } from './monitor-events-repo.js';
import { createSpentTokensRepo, type SpentTokensRepo } from './spent-tokens-repo.js';

export interface Store extends Db {
  keys: KeysRepo;
  checks: ChecksRepo;
  usage: UsageRepo;
  jobs: JobsRepo;
  batches: BatchesRepo;
  queue: CheckQueue;
  scans: ScansRepo;
  monitors: MonitorsRepo;
  monitorEvents: MonitorEventsRepo;
  spentTokens: SpentTokensRepo;
}

/** Opens the database and brings its schema up to date. */
export async function openStore(databaseUrl: string, opts: { migrate?: boolean } = {}): Promise<Store> {
  const base = await openDb(databaseUrl);
  try {
    if (opts.migrate !== false) await migrateToLatest(base);
  } catch (err) {
    await base.close();
    throw err;
  }
  return {
    ...base,
    keys: createKeysRepo(base.db),
    checks: createChecksRepo(base.db, base.dialect),
    usage: createUsageRepo(base.db),
    jobs: createJobsRepo(base.db, base.dialect),
    batches: createBatchesRepo(base.db),
    queue: createCheckQueue(base.db, base.dialect),
    scans: createScansRepo(base.db, base.dialect),
    monitors: createMonitorsRepo(base.db, base.dialect),
    monitorEvents: createMonitorEventsRepo(base.db, base.dialect),
    spentTokens: createSpentTokensRepo(base.db),
  };
}

export { migrateToLatest };
