// The spent web tokens repository (store/spent-tokens-repo.ts) on every database: an id is spent once (the second
// spend loses), kinds do not collide, and deleteExpired forgets only ids that expired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { DATABASES, type TestDatabase } from '../helpers/databases.js';

describe.each(DATABASES)('spent tokens repository ($name)', (kind) => {
  let db: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    db = await kind.create();
    store = await openStore(db.url);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('spends an id exactly once, per kind', async () => {
    const expires = Date.parse('2030-01-01T00:00:00Z');
    expect(await store.spentTokens.isSpent('login_link', 'a')).toBe(false);
    const both = await Promise.all([
      store.spentTokens.spend('login_link', 'a', expires),
      store.spentTokens.spend('login_link', 'a', expires),
    ]);
    expect(both.sort()).toEqual([false, true]);
    expect(await store.spentTokens.isSpent('login_link', 'a')).toBe(true);
    expect(await store.spentTokens.isSpent('session', 'a')).toBe(false);
    expect(await store.spentTokens.spend('session', 'a', expires)).toBe(true);
  });

  it('deletes only the ids that expired', async () => {
    await store.spentTokens.spend('session', 'old', Date.parse('2020-01-01T00:00:00Z'));
    await store.spentTokens.spend('session', 'new', Date.parse('2030-01-01T00:00:00Z'));
    await store.spentTokens.deleteExpired(Date.parse('2026-01-01T00:00:00Z'));
    expect(await store.spentTokens.isSpent('session', 'old')).toBe(false);
    expect(await store.spentTokens.isSpent('session', 'new')).toBe(true);
  });
});
