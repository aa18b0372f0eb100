import type { Kysely } from 'kysely';

/**
 * Page scans (CONTRACT.md section 9). A scan's link checks are ordinary checks whose `batch_id` is the scan's id;
 * its page-fetch phase is a job on the queue whose `check_slug` is `scan:<id>` (jobs/scan-runner.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('render', 'integer', (c) => c.notNull())
    .addColumn('check_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pages_scanned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('links_found', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('links', 'text')
    .addColumn('findings', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('scans_user_created').on('scans').columns(['user_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scans').execute();
}
