import type { Kysely } from 'kysely';

// Written against Kysely's schema builder only, so the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_user_created').on('api_keys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('checks')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('batch_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('check_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('result', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('checks_user_created').on('checks').columns(['user_id', 'created_at', 'slug']).execute();
  await db.schema.createIndex('checks_batch').on('checks').columns(['batch_id', 'created_at']).execute();

  await db.schema
    .createTable('anonymous_usage')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('check_type', 'text', (c) => c.notNull())
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('anonymous_usage_pk', ['ip', 'check_type', 'week'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('anonymous_usage').execute();
  await db.schema.dropTable('checks').execute();
  await db.schema.dropTable('api_keys').execute();
}
