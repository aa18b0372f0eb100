import type { Kysely } from 'kysely';

/** Ids of web tokens that must not work again: a one-time sign-in link once used, a session once signed out. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_spent_tokens')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_spent_tokens_expires_at').ifNotExists().on('web_spent_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_spent_tokens').execute();
}
