// Migration 005 on a database migrated to 004 with checks in every state: each finished check gets the verdict
// its stored result gives (CONTRACT.md section 7), more rows than one backfill round holds, on both dialects.
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASES, type TestDatabase } from '../helpers/databases.js';
import { openDb, type Db } from '../../src/store/db.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrate.js';
import type { NewCheckRow } from '../../src/store/checks-repo.js';

const network = { id: 'awin', name: 'Awin', role: 'network' };
const result = (willTrack: boolean, issues: { code: string; severity: string }[], networks: unknown[] = [network]) =>
  JSON.stringify({ willTrack, issues, networks, healthScore: 50 });

function row(slug: string, status: string, stored: string | null): NewCheckRow {
  return {
    slug,
    user_id: 'u',
    batch_id: null,
    url: `https://x.example/${slug}`,
    check_type: 'link',
    status,
    created_at: '2026-11-01T00:00:00.000Z',
    started_at: null,
    completed_at: status === 'completed' || status === 'failed' ? '2026-11-01T00:00:01.000Z' : null,
    result: stored,
    error_code: status === 'failed' ? 'browser_unavailable' : null,
    error_message: null,
  };
}

describe.each(DATABASES)('verdict backfill on $name', (kind) => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    await database?.drop();
  });

  it('stores the verdict of every check finished before the column existed', async () => {
    database = await kind.create();
    db = await openDb(database.url);
    await migrateTo(db, '004-job-requesters');
    const cases: [NewCheckRow, string | null][] = [
      [row('a-tracks', 'completed', result(true, [])), 'will_track'],
      [row('b-broken', 'completed', result(false, [{ code: 'landing_error_status', severity: 'critical' }])), 'will_not_track'],
      [row('c-walled', 'completed', result(false, [{ code: 'could_not_verify', severity: 'warning' }])), 'could_not_verify'],
      [row('d-nothing', 'completed', result(false, [{ code: 'no_network_detected', severity: 'info' }], [])), 'no_tracking_found'],
      [row('e-lost', 'completed', result(false, [], [network])), 'will_not_track'],
      [row('f-failed', 'failed', null), 'could_not_verify'],
      [row('g-queued', 'queued', null), null],
      [row('h-running', 'running', null), null],
      [row('i-unreadable', 'completed', '{not json'), null],
    ];
    // Over two backfill rounds of 500 rows: slugs sort after the cases above.
    const many = Array.from({ length: 1234 }, (_, i) => row(`z-${String(i).padStart(5, '0')}`, 'completed', result(i % 2 === 0, [])));
    const rows = [...cases.map(([r]) => r), ...many];
    for (let i = 0; i < rows.length; i += 200)
      await db.db
        .insertInto('checks')
        .values(rows.slice(i, i + 200))
        .execute();

    expect((await migrateToLatest(db))[0]).toBe('005-batch-inputs-verdicts');
    const stored = new Map((await db.db.selectFrom('checks').select(['slug', 'verdict']).execute()).map((r) => [r.slug, r.verdict]));
    for (const [r, verdict] of cases) expect(stored.get(r.slug), r.slug).toBe(verdict);
    many.forEach((r, i) => expect(stored.get(r.slug), r.slug).toBe(i % 2 === 0 ? 'will_track' : 'will_not_track'));
    const batch = await db.db.selectFrom('batches').select(['name', 'input_columns']).execute();
    expect(batch).toEqual([]);
  });
});
