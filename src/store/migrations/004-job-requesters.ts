import { sql, type Kysely } from 'kysely';

/** Who a job runs for (`user:<id>` or `ip:<address>`): no caller may hold every worker slot (jobs/README.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('requester', 'text', (c) => c.notNull().defaultTo(sql`''`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('requester').execute();
}
