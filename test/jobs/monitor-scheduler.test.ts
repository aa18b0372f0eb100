// The monitor scheduler's guarantees (CONTRACT.md section 8) on every database: each due run exactly once with
// two schedulers claiming at once, one catch-up run after downtime, runs spread over the interval.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startEngineApp, type EngineApp } from './engine-app.js';
import { settled, switchableEngine } from '../monitors/fixtures.js';
import { nextRunAt, phaseMs } from '../../src/services/monitors/schedule.js';
import { monitorRun } from '../../src/services/monitors/views.js';
import { INITIAL_MEMORY } from '../../src/services/monitors/decide.js';
import type { MonitorRow } from '../../src/store/monitors-repo.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Monitor rows due at `dueAt`, inserted directly (no first run): what the scheduler finds after downtime. */
export function dueMonitors(n: number, dueAt: number, intervalMinutes = 60): MonitorRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    user_id: `user-${i % 7}`,
    url: `https://shop${i % 13}.jobs.example/p/${i}`,
    check_type: 'link',
    name: null,
    interval_minutes: intervalMinutes,
    paused: 0,
    channels: '[]',
    state: 'pending',
    memory: JSON.stringify(INITIAL_MEMORY),
    created_at: iso(dueAt - 1000),
    last_run_at: null,
    due_at: iso(dueAt),
    deleted_at: null,
  }));
}

export async function insertMonitors(store: Store, rows: MonitorRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await store.db
      .insertInto('monitors')
      .values(rows.slice(i, i + 200))
      .execute();
}

describe('run spread', () => {
  it('puts 10,000 monitors on phases spread evenly over their interval', () => {
    for (const interval of [60, 1440]) {
      const buckets = new Array<number>(interval).fill(0);
      for (let i = 0; i < 10_000; i += 1) {
        const bucket = Math.floor(phaseMs(randomUUID(), interval) / MINUTE);
        buckets[bucket] = (buckets[bucket] ?? 0) + 1;
      }
      const mean = 10_000 / interval;
      expect(Math.max(...buckets) / mean, `interval ${interval}`).toBeLessThan(interval === 60 ? 1.5 : 3.5);
    }
  });

  it('runs every interval exactly in steady state, and never less than half an interval after any run', () => {
    const id = randomUUID();
    const slot = nextRunAt(id, 60, Date.UTC(2026, 0, 1));
    expect(nextRunAt(id, 60, slot)).toBe(slot + 60 * MINUTE);
    expect(nextRunAt(id, 60, slot + 1500)).toBe(slot + 60 * MINUTE);
    for (const ranAt of [slot + 1, slot + 29 * MINUTE, slot + 31 * MINUTE, slot + 10 * 3600_000 + 7]) {
      const next = nextRunAt(id, 60, ranAt);
      expect(next - ranAt).toBeGreaterThanOrEqual(30 * MINUTE);
      expect(next - ranAt).toBeLessThan(90 * MINUTE);
      expect((next - slot) % (60 * MINUTE)).toBe(0);
    }
  });
});

describe.each(DATABASES)('monitor scheduler on $name', (database) => {
  const apps: EngineApp[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    while (stores.length > 0) await stores.pop()?.close();
    while (apps.length > 0) await apps.pop()?.close();
  });

  // better-sqlite3 is synchronous: two connections in one process would wait for each other's lock with the thread
  // blocked. On SQLite the claim is one write transaction, serialised by the file lock across processes.
  it.runIf(database.name === 'postgres')('queues each due run exactly once with two schedulers claiming at the same time', async () => {
    const links = switchableEngine();
    const t = await startEngineApp({ database, engine: links.engine, worker: false });
    apps.push(t);
    const a = await openStore(t.database.url);
    const b = await openStore(t.database.url);
    stores.push(a, b);
    const now = t.clock.now();
    await insertMonitors(a, dueMonitors(300, now - 5 * MINUTE));
    const drain = async (store: Store) => {
      let claimed = 0;
      for (;;) {
        const rows = await store.monitors.claimDue(iso(now), 7, (row) => ({
          run: monitorRun(row, iso(now)),
          dueAt: iso(nextRunAt(row.id, row.interval_minutes, now)),
        }));
        claimed += rows.length;
        if (rows.length === 0) return claimed;
      }
    };
    const [byA, byB] = await Promise.all([drain(a), drain(b)]);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
    expect(byA + byB).toBe(300);
    const perMonitor = await a.db
      .selectFrom('checks')
      .select(['monitor_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('monitor_id', 'is not', null)
      .groupBy('monitor_id')
      .execute();
    expect(perMonitor).toHaveLength(300);
    expect(new Set(perMonitor.map((r) => Number(r.n)))).toEqual(new Set([1]));
    const jobs = await a.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(jobs.n)).toBe(300);
    // Nothing is due any more: every next run is at least half an interval away.
    expect(await drain(a)).toBe(0);
  });

  it('runs each overdue monitor once after downtime, then goes back to its phase', async () => {
    const links = switchableEngine();
    const t = await startEngineApp({ database, engine: links.engine });
    apps.push(t);
    const m = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/monitors',
        headers: t.headers,
        payload: { url: 'https://shop.jobs.example/x', interval_minutes: 15 },
      })
    ).json().data;
    await settled(t.ctx, m.id);
    expect(links.runs('https://shop.jobs.example/x')).toBe(1);
    // Down for ten hours: 40 slots missed.
    t.clock.advance(10 * 3600_000);
    expect((await t.ctx.scheduler.tick()).queued).toBe(1);
    expect((await t.ctx.scheduler.tick()).queued).toBe(0);
    await settled(t.ctx, m.id);
    expect(links.runs('https://shop.jobs.example/x')).toBe(2);
    const after = (await t.app.inject({ method: 'GET', url: `/v1/monitors/${m.id}`, headers: t.headers })).json().data;
    const next = Date.parse(after.nextRunAt);
    expect(next - t.clock.now()).toBeGreaterThanOrEqual(7.5 * MINUTE);
    expect((next - phaseMs(m.id, 15)) % (15 * MINUTE)).toBe(0);
    t.clock.set(next);
    expect((await t.ctx.scheduler.tick()).queued).toBe(1);
  });

  it('does not queue paused monitors, and reads only due rows', async () => {
    const links = switchableEngine();
    const t = await startEngineApp({ database, engine: links.engine, worker: false });
    apps.push(t);
    const now = t.clock.now();
    const rows = dueMonitors(50, now - MINUTE);
    for (const row of rows.slice(0, 20)) Object.assign(row, { paused: 1, due_at: null });
    await insertMonitors(t.ctx.store, rows);
    expect((await t.ctx.scheduler.tick()).queued).toBe(30);
  });
});
