// The monitor scheduler at 1,000 / 10,000 / 100,000 monitors, of which 10,000 (or all, when fewer) are due within
// one day's interval; the others are weekly monitors due later. A simulated day: the clock moves one minute per
// tick (1,440 ticks); every run the tick queues is completed at once by a stub engine (the check row is written
// finished, no network) and evaluated as the check runner would. Measured: scheduler CPU and database queries per
// run, the per-minute spread of runs (max / mean bucket), and an idle tick's cost against the number of monitors.
// SQLite always; PostgreSQL too when TRACKCHECK_BENCH_DATABASE_URL (or TRACKCHECK_TEST_DATABASE_URL) is set.
// Run: npm run build && npx tsx bench/monitors.ts [--write] [--sizes 1000,10000]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { KyselyPlugin } from 'kysely';
import { openStore, type Store } from '../dist/store/index.js';
import { createMonitorsRepo } from '../dist/store/monitors-repo.js';
import { createMonitorEventsRepo } from '../dist/store/monitor-events-repo.js';
import { createMonitorScheduler } from '../dist/jobs/monitor-scheduler.js';
import { createAlertDeliverer } from '../dist/jobs/alert-deliveries.js';
import { nextRunAt } from '../dist/services/monitors/schedule.js';
import { INITIAL_MEMORY } from '../dist/services/monitors/decide.js';
import { parseResolveMap } from '../dist/checker/net/address-policy.js';
import { updateReadme } from './readme-markers.js';

const DAY_MIN = 1440;
const WEEK_MIN = 10_080;
const MINUTE = 60_000;
const DUE = 10_000;
const args = process.argv.slice(2);
const sizesArg = args[args.indexOf('--sizes') + 1];
const SIZES = args.includes('--sizes') && sizesArg ? sizesArg.split(',').map(Number) : [1_000, 10_000, 100_000];
const PG_URL = process.env['TRACKCHECK_BENCH_DATABASE_URL'] ?? process.env['TRACKCHECK_TEST_DATABASE_URL'];
const iso = (ms: number) => new Date(ms).toISOString();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Counts every statement the scheduler sends (transactions' begin/commit are counted by claims, below). */
function counter(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: { transformQuery: (a) => ((n += 1), a.node), transformResult: async (a) => a.result },
    count: () => n,
  };
}

async function database(kind: 'sqlite' | 'postgres'): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-bench-monitors-'));
    return { url: `sqlite:${path.join(dir, 'bench.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_monitors_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(PG_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

async function seed(store: Store, total: number, start: number): Promise<void> {
  const due = Math.min(total, DUE);
  const rows = Array.from({ length: total }, (_, i) => {
    const id = randomUUID();
    const daily = i < due;
    const interval = daily ? DAY_MIN : WEEK_MIN;
    // Daily ones fall on their phase within the coming day; weekly ones after it (2–7 days on).
    const dueAt = daily
      ? nextRunAt(id, interval, start - (interval * MINUTE) / 2)
      : start + 2 * DAY_MIN * MINUTE + ((i * 7919) % (5 * DAY_MIN)) * MINUTE;
    return {
      id,
      user_id: `user-${i % 500}`,
      url: `https://shop${i % 97}.bench-monitors.example/p/${i}`,
      check_type: 'link',
      name: null,
      interval_minutes: interval,
      paused: 0,
      channels: '[]',
      state: 'healthy',
      memory: JSON.stringify(INITIAL_MEMORY),
      created_at: iso(start - DAY_MIN * MINUTE),
      last_run_at: null,
      due_at: iso(dueAt),
      deleted_at: null,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await store.db
      .insertInto('monitors')
      .values(rows.slice(i, i + 500))
      .execute();
}

const STUB_RESULT = JSON.stringify({
  willTrack: true,
  healthScore: 100,
  network: null,
  networkId: null,
  networks: [],
  finalUrl: 'https://shop.example/p',
  finalStatus: 200,
  redirectCount: 0,
  totalRedirectTimeMs: 1,
  hops: [],
  trackingParameterPresent: false,
  trackingParameters: { expected: [], present: [], missing: [] },
  firstPartyCookieSet: true,
  thirdPartyCookieSet: false,
  cookieExpiryDays: null,
  cookies: [],
  issues: [],
  mode: 'http',
  consent: null,
  privacy: null,
});

interface Figures {
  db: string;
  total: number;
  runs: number;
  tickCpuMs: number;
  evalCpuMs: number;
  /** Beyond the idle tick's fixed queries: what queuing one run adds. */
  queriesPerRunTick: number;
  queriesPerRunEval: number;
  maxOverMean: number;
  idleTickMs: number;
  idleTickQueries: number;
}

async function measure(kind: 'sqlite' | 'postgres', total: number): Promise<Figures> {
  const db = await database(kind);
  const base = await openStore(db.url);
  const start = Math.floor(Date.now() / MINUTE) * MINUTE;
  let now = start;
  const clock = { now: () => now };
  try {
    await seed(base, total, start);
    const counted = counter();
    const cdb = base.db.withPlugin(counted.plugin);
    const store = {
      ...base,
      db: cdb,
      monitors: createMonitorsRepo(cdb, base.dialect),
      monitorEvents: createMonitorEventsRepo(cdb, base.dialect),
    } as Store;
    const deliverer = createAlertDeliverer({
      store,
      clock,
      smtpUrl: null,
      alertFrom: 'bench@example.test',
      retryFirstDelayMs: 30_000,
      resolve: parseResolveMap(undefined),
      publicUrl: () => 'http://bench',
    });
    const scheduler = createMonitorScheduler({
      store,
      clock,
      deliverer,
      confirmMs: 180_000,
      poke: () => undefined,
      warn: (m, e) => console.error(m, e),
    });

    // An idle tick (nothing due yet: one minute before the first slot is impossible to pick, so step back a day).
    now = start - DAY_MIN * MINUTE;
    const idle: number[] = [];
    const before = counted.count();
    for (let i = 0; i < 20; i += 1) {
      const t0 = performance.now();
      await scheduler.tick();
      idle.push(performance.now() - t0);
    }
    const idleQueries = (counted.count() - before) / 20;
    const idleCpu0 = process.cpuUsage();
    for (let i = 0; i < 20; i += 1) await scheduler.tick();
    const idleCpuUsage = process.cpuUsage(idleCpu0);
    const idleCpuMs = (idleCpuUsage.user + idleCpuUsage.system) / 1000 / 20;

    // Slots fall in (start, start + 1 day]: ticks at minutes 0…1440 see each of them once.
    const buckets = new Array<number>(DAY_MIN + 1).fill(0);
    let runs = 0;
    let tickCpu = 0;
    let evalCpu = 0;
    let tickQueries = 0;
    let evalQueries = 0;
    for (let minute = 0; minute <= DAY_MIN; minute += 1) {
      now = start + minute * MINUTE;
      let c0 = process.cpuUsage();
      let q0 = counted.count();
      const { queued } = await scheduler.tick();
      let c1 = process.cpuUsage(c0);
      tickCpu += (c1.user + c1.system) / 1000;
      tickQueries += counted.count() - q0;
      buckets[minute] = queued;
      runs += queued;
      if (queued === 0) continue;
      // The stub engine: every queued run finishes now (written by the "worker", not counted), then is evaluated.
      const slugs = (await base.db.selectFrom('monitor_pending_runs').select('check_slug').execute()).map((r) => r.check_slug);
      await base.db
        .updateTable('checks')
        .set({ status: 'completed', result: STUB_RESULT, verdict: 'will_track', completed_at: iso(now) })
        .where('slug', 'in', slugs)
        .execute();
      await base.db.deleteFrom('jobs').where('check_slug', 'in', slugs).execute();
      c0 = process.cpuUsage();
      q0 = counted.count();
      for (const slug of slugs) await scheduler.evaluate(slug);
      c1 = process.cpuUsage(c0);
      evalCpu += (c1.user + c1.system) / 1000;
      evalQueries += counted.count() - q0;
    }
    const mean = runs / DAY_MIN;
    return {
      db: kind,
      total,
      runs,
      tickCpuMs: tickCpu - (DAY_MIN + 1) * idleCpuMs,
      evalCpuMs: evalCpu,
      queriesPerRunTick: (tickQueries - (DAY_MIN + 1) * idleQueries) / runs,
      queriesPerRunEval: evalQueries / runs,
      maxOverMean: Math.max(...buckets) / mean,
      idleTickMs: median(idle),
      idleTickQueries: idleQueries,
    };
  } finally {
    await base.close();
    await db.drop();
  }
}

const results: Figures[] = [];
for (const kind of PG_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
  for (const total of SIZES) {
    const f = await measure(kind, total);
    results.push(f);
    console.log(JSON.stringify(f));
  }
}
const lines = [
  '| database | monitors | runs in the day | CPU per 1,000 runs: queuing + evaluating | queries per run: queuing + evaluating | busiest minute / mean minute | a tick with nothing due: time, queries |',
  '|---|---|---|---|---|---|---|',
  ...results.map(
    (f) =>
      `| ${f.db} | ${f.total.toLocaleString('en')} | ${f.runs.toLocaleString('en')} | ${((f.tickCpuMs / f.runs) * 1000).toFixed(0)} + ${((f.evalCpuMs / f.runs) * 1000).toFixed(0)} ms | ` +
      `${f.queriesPerRunTick.toFixed(2)} + ${f.queriesPerRunEval.toFixed(2)} | ${f.maxOverMean.toFixed(2)} | ${f.idleTickMs.toFixed(2)} ms, ${f.idleTickQueries.toFixed(0)} |`,
  ),
];
console.log(lines.join('\n'));
if (args.includes('--write')) updateReadme('monitors', lines.join('\n'));
