// kill -9 of a real `trackcheck serve` in the middle of a monitor's confirming run (SQLite): after the restart
// the run is made again from its queued job (the lease lapses), evaluated once, and raises one monitor.broken.
// Two `trackcheck worker` processes on PostgreSQL, both scheduling: every due monitor runs once.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import type { RunningService } from '../helpers/spawn-service.js';
import { openStore, type Store } from '../../src/store/index.js';
import { bearerFor, killHard, startServe, startWorker } from './processes.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe('kill -9 of trackcheck serve during a monitor run (SQLite)', () => {
  let web: AffiliateWeb;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    while (cleanups.length > 0)
      await cleanups
        .pop()?.()
        .catch(() => undefined);
    await web?.close();
  });

  it('makes the run once more after the restart and raises at most one event', async () => {
    web = await startAffiliateWeb();
    // Broken, and slow enough to be killed in the middle of a run.
    web.page('www.gone-shop.example', '/p/1', { status: 404, html: '<title>Not found</title>', delayMs: 2500 });
    const link = web.url('www.gone-shop.example', '/p/1');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-monitor-crash-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      TRACKCHECK_DATA_DIR: dataDir,
      TRACKCHECK_RESOLVE: web.resolveSpec,
      TRACKCHECK_JOB_LEASE_MS: '1500',
      TRACKCHECK_MONITOR_CONFIRM_MS: '500',
      TRACKCHECK_RATE_LIMIT: '100000',
    };
    const headers = { ...(await bearerFor(dataDir)), 'content-type': 'application/json' };
    let service: RunningService = await startServe(env);
    cleanups.push(() => killHard(service.child));
    const res = await fetch(`${service.url}/v1/monitors`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: link, interval_minutes: 60 }),
    });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: string } }).data;
    const store: Store = await openStore(`sqlite:${path.join(dataDir, 'trackcheck.db')}`, { migrate: false });
    cleanups.push(() => store.close());
    const hits = () => Promise.resolve(web.hits('www.gone-shop.example', '/p/1'));

    // The first run finds it broken; the confirming run starts 0.5 s later: kill while it waits for the page.
    await until('the confirming run reaching the link', hits, (n) => n >= 2);
    await killHard(service.child);
    const runsAtKill = await store.db.selectFrom('checks').select(['slug', 'status']).where('monitor_id', '=', id).execute();
    expect(runsAtKill).toHaveLength(2);
    expect(runsAtKill.filter((r) => r.status === 'completed')).toHaveLength(1);

    service = await startServe(env);
    const events = () => store.db.selectFrom('monitor_events').selectAll().where('monitor_id', '=', id).execute();
    await until('the monitor.broken event', events, (rows) => rows.length >= 1);
    await until(
      'no run left to evaluate',
      () => store.monitors.pendingRuns(id),
      (slugs) => slugs.length === 0,
    );
    await sleep(3000); // a duplicate run or event would show by now

    const runs = await store.db.selectFrom('checks').select(['slug', 'status']).where('monitor_id', '=', id).execute();
    expect(runs.map((r) => r.slug).sort()).toEqual(runsAtKill.map((r) => r.slug).sort());
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const raised = await events();
    expect(raised.map((e) => e.type)).toEqual(['monitor.broken']);
    // The interrupted run asked the link again (once); nothing else did.
    expect(await hits()).toBe(3);
    const monitor = (await (await fetch(`${service.url}/v1/monitors/${id}`, { headers })).json()) as {
      data: { state: string; nextRunAt: string };
    };
    expect(monitor.data.state).toBe('broken');
    expect(Date.parse(monitor.data.nextRunAt) - Date.now()).toBeGreaterThan(20 * 60_000);
  }, 90_000);
});

describe.runIf(process.env.TRACKCHECK_TEST_DATABASE_URL)('two trackcheck worker processes scheduling on PostgreSQL', () => {
  let web: AffiliateWeb;
  let database: TestDatabase;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    while (cleanups.length > 0)
      await cleanups
        .pop()?.()
        .catch(() => undefined);
    await database?.drop();
    await web?.close();
  });

  it('runs each due monitor exactly once', async () => {
    web = await startAffiliateWeb();
    database = await postgresDatabase.create();
    const links = Array.from({ length: 60 }, (_, i) => {
      web.page(`shop${i % 6}.pg-monitors.example`, `/p/${i}`, { html: '<title>ok</title>', delayMs: 50 });
      return web.url(`shop${i % 6}.pg-monitors.example`, `/p/${i}`);
    });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-monitor-pg-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      TRACKCHECK_DATA_DIR: dataDir,
      TRACKCHECK_DATABASE_URL: database.url,
      TRACKCHECK_RESOLVE: web.resolveSpec,
      TRACKCHECK_RATE_LIMIT: '100000',
    };
    const api = await startServe({ ...env, TRACKCHECK_WORKER_CONCURRENCY: '0' });
    cleanups.push(() => killHard(api.child));
    const headers = { ...(await bearerFor(dataDir)), 'content-type': 'application/json' };
    const ids: string[] = [];
    for (const url of links) {
      const res = await fetch(`${api.url}/v1/monitors`, { method: 'POST', headers, body: JSON.stringify({ url, interval_minutes: 15 }) });
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    const store = await openStore(database.url, { migrate: false });
    cleanups.push(() => store.close());
    // Every monitor due now (as after downtime), then two schedulers start at once.
    await store.db
      .updateTable('monitors')
      .set({ due_at: new Date(Date.now() - 60_000).toISOString() })
      .execute();
    const workers = await Promise.all([
      startWorker({ ...env, TRACKCHECK_WORKER_CONCURRENCY: '8' }),
      startWorker({ ...env, TRACKCHECK_WORKER_CONCURRENCY: '8' }),
    ]);
    for (const w of workers) cleanups.push(() => killHard(w.child));
    const runs = () => store.db.selectFrom('checks').select(['monitor_id', 'status']).where('monitor_id', 'is not', null).execute();
    await until('every run finished', runs, (rows) => rows.length >= 120 && rows.every((r) => r.status === 'completed'), 60_000);
    await until(
      'every run evaluated',
      () => store.db.selectFrom('monitor_pending_runs').select('check_slug').execute(),
      (rows) => rows.length === 0,
    );
    await sleep(2500); // two more ticks of each scheduler: nothing else is due
    const perMonitor = new Map<string, number>();
    for (const row of await runs()) perMonitor.set(String(row.monitor_id), (perMonitor.get(String(row.monitor_id)) ?? 0) + 1);
    expect(perMonitor.size).toBe(60);
    expect([...new Set(perMonitor.values())]).toEqual([2]);
    for (let i = 0; i < 60; i += 1) expect(web.hits(`shop${i % 6}.pg-monitors.example`, `/p/${i}`), `link ${i}`).toBe(2);
  }, 120_000);
});
