import type { Kysely } from 'kysely';

/**
 * Monitors (CONTRACT.md section 8). `due_at` is the next run time, null while paused or deleted: the scheduler's
 * claim reads the `monitors_due` index from its start, so a tick costs O(due monitors), never O(all).
 * `monitor_pending_runs` holds each queued run until it is evaluated (deleted in the evaluating transaction: a
 * run is evaluated once). `monitor_events.next_delivery_at` is the earliest pending delivery's attempt time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('check_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('interval_minutes', 'integer', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('memory', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_run_at', 'text')
    .addColumn('due_at', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('monitors_user_created').on('monitors').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('monitors_due').on('monitors').columns(['due_at']).execute();

  await db.schema
    .createTable('monitor_pending_runs')
    .addColumn('check_slug', 'text', (c) => c.primaryKey())
    .addColumn('monitor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitor_pending_runs_monitor').on('monitor_pending_runs').columns(['monitor_id']).execute();

  await db.schema
    .createTable('monitor_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('monitor_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('check_slug', 'text', (c) => c.notNull())
    .addColumn('previous_check_slug', 'text')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('deliveries', 'text', (c) => c.notNull())
    .addColumn('next_delivery_at', 'text')
    .addColumn('delivery_lease', 'text')
    .execute();
  await db.schema.createIndex('monitor_events_monitor_created').on('monitor_events').columns(['monitor_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('monitor_events_next_delivery').on('monitor_events').columns(['next_delivery_at']).execute();

  await db.schema.alterTable('checks').addColumn('monitor_id', 'text').execute();
  await db.schema.createIndex('checks_monitor_created').on('checks').columns(['monitor_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('checks_monitor_created').execute();
  await db.schema.alterTable('checks').dropColumn('monitor_id').execute();
  await db.schema.dropTable('monitor_events').execute();
  await db.schema.dropTable('monitor_pending_runs').execute();
  await db.schema.dropTable('monitors').execute();
}
