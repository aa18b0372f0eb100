import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from './schema.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function createKeysRepo(db: Kysely<Database>) {
  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },

    findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    },

    /** The user's unrevoked keys, newest first. */
    listActive(userId: string): Promise<ApiKeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Revokes one of the user's unrevoked keys; undefined when there is no such key. */
    async revoke(userId: string, id: string, revokedAt: string): Promise<{ id: string; revoked_at: string } | undefined> {
      const row = await db
        .updateTable('api_keys')
        .set({ revoked_at: revokedAt })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning(['id', 'revoked_at'])
        .executeTakeFirst();
      return row && row.revoked_at !== null ? { id: row.id, revoked_at: row.revoked_at } : undefined;
    },

    async touch(id: string, usedAt: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: usedAt }).where('id', '=', id).execute();
    },
  };
}

export type KeysRepo = ReturnType<typeof createKeysRepo>;
