// Read throughput under load: autocannon against GET /v1/checks/:slug, GET /v1/reports/:slug and a bare Fastify
// route, in one run, with the service on SQLite, on PostgreSQL, and on PostgreSQL + Redis when configured.
// Run: npx tsx bench/load.ts [--write] [--seconds N] [--rounds N] [--connections N] [--only sqlite|postgres|postgres+redis]
// PostgreSQL: TRACKCHECK_BENCH_DATABASE_URL or TRACKCHECK_TEST_DATABASE_URL; Redis: TRACKCHECK_BENCH_REDIS_URL or
// TRACKCHECK_TEST_REDIS_URL. --write puts the table into bench/README.md between the load markers; BENCH_CPU_PROF=<dir>
// profiles the service.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { startAffiliateWeb, type AffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { addNetworkChain } from './network-chain.js';
import { updateReadme } from './readme-markers.js';

interface CannonResult {
  latency: { p99: number; p50: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number | string }>;
}
type Cannon = (
  opts: { url: string; connections: number; amount?: number; workers?: number },
  done: (err: Error | null, result: CannonResult) => void,
) => { on(event: 'response', listener: () => void): void };
// autocannon ships no type declarations; this is the slice of its programmatic API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

const TARGETS = { checks: 0.5, reports: 0.3 } as const;
const PG_URL = process.env.TRACKCHECK_BENCH_DATABASE_URL ?? process.env.TRACKCHECK_TEST_DATABASE_URL;
const REDIS_URL = process.env.TRACKCHECK_BENCH_REDIS_URL ?? process.env.TRACKCHECK_TEST_REDIS_URL;
/** The targets hold on SQLite and on PostgreSQL; with Redis the figures are reported, not enforced. */
const ENFORCED: ReadonlySet<string> = new Set(['sqlite', 'postgres']);
const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');

// ---- the reference: a bare Fastify route, in its own process like the service ----------------------------------
if (process.argv.includes('--bare-server')) {
  const app = Fastify();
  app.get('/bare', async () => ({ data: { status: 'ok' } }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  await new Promise<never>(() => undefined);
}

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** Spawns a server on a chosen port and resolves once `readyPath` answers 200 (its logs go to `logFile`). */
async function startProcess(args: string[], env: Record<string, string>, logFile: string, readyPath: string): Promise<Server> {
  const port = await freePort();
  const out = openSync(logFile, 'a');
  // Standard output goes through a pipe to a separate reader (`cat`, appending to the log file), as a container
  // runtime or journald would take it, rather than straight into a file on this machine's disk.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', out],
  });
  if (child.stdout) spawn('cat', [], { stdio: [child.stdout, out, out] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`did not start:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    const ok = await fetch(`${url}${readyPath}`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface Database {
  /** `postgres+redis`: the scale-out configuration, rate-limit counters in Redis (one more round trip a request). */
  name: 'sqlite' | 'postgres' | 'postgres+redis';
  url: string;
  redisUrl: string | null;
  drop(): Promise<void>;
}

async function createDatabase(kind: Database['name'], scratch: string): Promise<Database> {
  if (kind === 'sqlite')
    return { name: kind, url: `sqlite:${path.join(scratch, 'bench.db')}`, redisUrl: null, drop: async () => undefined };
  const base = PG_URL;
  if (!base) throw new Error('PostgreSQL: set TRACKCHECK_BENCH_DATABASE_URL (or TRACKCHECK_TEST_DATABASE_URL)');
  const schema = `tc_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const redisUrl = kind === 'postgres+redis' ? (REDIS_URL ?? null) : null;
  return { name: kind, url: url.toString(), redisUrl, drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

interface Measured {
  rps: number;
  /** Server process CPU time (user + system) per response, in microseconds; null where /proc is missing. */
  cpuUs: number | null;
  p50: number;
  p99: number;
  ok: number;
  limited: number;
  otherNon2xx: number;
  errors: number;
}

const readText = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** CPU seconds a process has used so far (Linux /proc), or null. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function measure(url: string, amount: number, connections: number, serverPid?: number, workers?: number): Promise<Measured> {
  const cpuBefore = cpuSeconds(serverPid);
  // autocannon notices the end of a fixed amount on its 1 s tick, so its own duration is rounded up to whole
  // seconds: time the first request to the last response instead.
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<CannonResult>((resolve, reject) => {
    const instance = autocannon({ url, connections, amount, workers }, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', () => {
      lastResponse = performance.now();
    });
  });
  const seconds = (lastResponse - started) / 1000;
  const cpuAfter = cpuSeconds(serverPid);
  const count = (code: string) => Number(result.statusCodeStats[code]?.count ?? 0);
  const all = Object.values(result.statusCodeStats).reduce((sum, s) => sum + Number(s.count), 0);
  const twoXx = Object.keys(result.statusCodeStats)
    .filter((code) => code.startsWith('2'))
    .reduce((sum, code) => sum + count(code), 0);
  return {
    rps: all / seconds,
    cpuUs: cpuBefore === null || cpuAfter === null || all === 0 ? null : ((cpuAfter - cpuBefore) * 1e6) / all,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: count('200'),
    limited: count('429'),
    otherNon2xx: all - twoXx - count('429'),
    errors: result.errors + result.timeouts,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Rates and latencies: the median over the rounds; counts: the sums. */
function medianRun(runs: Measured[]): Measured {
  const sum = (pick: (m: Measured) => number) => runs.reduce((total, m) => total + pick(m), 0);
  return {
    rps: median(runs.map((m) => m.rps)),
    cpuUs: runs.some((m) => m.cpuUs === null) ? null : median(runs.map((m) => m.cpuUs ?? 0)),
    p50: median(runs.map((m) => m.p50)),
    p99: median(runs.map((m) => m.p99)),
    ok: sum((m) => m.ok),
    limited: sum((m) => m.limited),
    otherNon2xx: sum((m) => m.otherNon2xx),
    errors: sum((m) => m.errors),
  };
}

interface Row {
  database: string;
  target: string;
  m: Measured;
  ratio: number | null;
  /** Lowest and highest per-round ratio. */
  spread: [number, number] | null;
  goal: number | null;
}

async function benchDatabase(
  kind: Database['name'],
  bare: Server,
  web: AffiliateWeb,
  opts: { seconds: number; rounds: number; connections: number; scratch: string },
): Promise<{ rows: Row[]; problems: string[] }> {
  const db = await createDatabase(kind, opts.scratch);
  const logFile = path.join(opts.scratch, `serve-${kind}.log`);
  const env: Record<string, string> = {
    TRACKCHECK_DATA_DIR: path.join(opts.scratch, `data-${kind}`),
    TRACKCHECK_DATABASE_URL: db.url,
    TRACKCHECK_RESOLVE: web.resolveSpec,
    // Every caller here is one anonymous address: lift the limits so nothing is a 429 by design.
    TRACKCHECK_RATE_LIMIT: '1000000',
    TRACKCHECK_ANON_RATE_LIMIT: '1000000',
    TRACKCHECK_LOG_LEVEL: process.env.TRACKCHECK_LOG_LEVEL ?? 'info',
  };
  if (db.redisUrl) env.TRACKCHECK_REDIS_URL = db.redisUrl;
  // BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const service = await startProcess([...profile, path.join(ROOT, 'bin/trackcheck.js'), 'serve'], env, logFile, '/health');
  const problems: string[] = [];
  try {
    const created = await fetch(`${service.url}/v1/checks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: addNetworkChain(web).start }),
    });
    const check = ((await created.json()) as { data: { slug: string; status: string; hops: unknown[] } }).data;
    if (created.status !== 201 || check.status !== 'completed')
      throw new Error(`seeding the check failed: ${created.status} ${JSON.stringify(check)}`);
    const targets = {
      bare: `${bare.url}/bare`,
      checks: `${service.url}/v1/checks/${check.slug}`,
      reports: `${service.url}/v1/reports/${check.slug}`,
    };
    // Warm up (JIT, pools, caches) and size each run to about `seconds` at the warm rate; a fixed amount (not a
    // duration) means every request sent is answered and counted, which the view-count check relies on.
    // Interleaved rounds, the median of each: load from anything else on the machine hits all three alike.
    const names = Object.keys(targets) as Array<keyof typeof targets>;
    const pids: Record<string, number | undefined> = { bare: bare.child.pid, checks: service.child.pid, reports: service.child.pid };
    const runs: Record<string, Measured[]> = { bare: [], checks: [], reports: [] };
    const warmRate: Record<string, number> = {};
    let reportOks = 0;
    const record = (target: string, run: Measured): void => {
      if (target === 'reports') reportOks += run.ok;
      if (run.otherNon2xx > 0 || run.errors > 0)
        problems.push(`${kind} ${target}: ${run.otherNon2xx} non-2xx (not 429) responses, ${run.errors} errors`);
    };
    for (const target of names) {
      const warm = await measure(targets[target], 2000, opts.connections, pids[target]);
      record(target, warm);
      warmRate[target] = warm.rps;
    }
    for (let round = 0; round < opts.rounds; round++) {
      for (const target of names) {
        const amount = Math.max(1000, Math.round(((warmRate[target] ?? 1000) * opts.seconds) / opts.rounds));
        const run = await measure(targets[target], amount, opts.connections, pids[target]);
        record(target, run);
        runs[target]?.push(run);
      }
    }
    const rows: Row[] = names.map((target) => ({
      database: kind,
      target,
      m: medianRun(runs[target] ?? []),
      ratio: null,
      spread: null,
      goal: target === 'checks' ? TARGETS.checks : target === 'reports' ? TARGETS.reports : null,
    }));
    // The ratio of each round (measured seconds apart) first, then their median: steadier than a ratio of
    // medians when the machine's other load comes and goes.
    for (const row of rows) {
      if (row.target === 'bare') continue;
      const mine = runs[row.target] ?? [];
      const perRound = mine.map((m, i) => m.rps / (runs.bare?.[i]?.rps ?? Number.POSITIVE_INFINITY));
      row.ratio = median(perRound);
      row.spread = [Math.min(...perRound), Math.max(...perRound)];
      console.log(`${kind} ${row.target}: per-round ratios ${perRound.map((r) => r.toFixed(2)).join(' ')}`);
    }
    for (const row of rows) {
      if (ENFORCED.has(kind) && row.goal !== null && row.ratio !== null && row.ratio < row.goal)
        problems.push(`${kind} ${row.target}: ${(row.ratio * 100).toFixed(0)}% of the bare route, target ${row.goal * 100}%`);
    }
    // Every 200 report response was exactly one view; this last read adds one more.
    const last = await fetch(targets.reports);
    const views = ((await last.json()) as { data: { viewCount: number } }).data.viewCount;
    if (views !== reportOks + 1) problems.push(`${kind}: viewCount ${views - 1} after ${reportOks} report responses with status 200`);
    else console.log(`${kind}: viewCount ${views - 1} = ${reportOks} report responses with status 200`);
    const peak = /VmHWM:\s+(\d+) kB/.exec(readText(`/proc/${service.child.pid}/status`))?.[1];
    if (peak) console.log(`${kind}: service peak memory (VmHWM) ${Math.round(Number(peak) / 1024)} MB`);
    return { rows, problems };
  } finally {
    await service.stop();
    await db.drop();
  }
}

function formatTable(rows: Row[], connections: number, rounds: number): string {
  const lines = [
    '| Database | Endpoint | req/s | p50 | p99 | Server CPU per request | Ratio to bare route (rounds: min–max) | Target | Met | non-2xx (429) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const names: Record<string, string> = { bare: 'bare Fastify route', checks: 'GET /v1/checks/:slug', reports: 'GET /v1/reports/:slug' };
  for (const r of rows) {
    const ratio =
      r.ratio === null ? '1.00 (reference)' : `**${r.ratio.toFixed(2)}** (${r.spread?.map((x) => x.toFixed(2)).join('–') ?? ''})`;
    const enforced = ENFORCED.has(r.database);
    const goal = r.goal === null ? '' : enforced ? `≥ ${r.goal.toFixed(2)}` : `(≥ ${r.goal.toFixed(2)})`;
    const met = r.goal === null || r.ratio === null ? '' : `${r.ratio >= r.goal ? 'yes' : 'no'}${enforced ? '' : ' (not enforced)'}`;
    const cpu = r.m.cpuUs === null ? 'n/a' : `${Math.round(r.m.cpuUs)} µs`;
    lines.push(
      `| ${r.database} | ${names[r.target] ?? r.target} | ${Math.round(r.m.rps)} | ${r.m.p50} ms | ${r.m.p99} ms | ${cpu} | ${ratio} | ${goal} | ${met} | ${r.m.otherNon2xx} (${r.m.limited}) |`,
    );
  }
  return `${lines.join('\n')}\n\nMedians of ${rounds} interleaved rounds after a warm-up of each (the ratio: median of the per-round ratios); ${connections} connections, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load generator and server on the same machine.`;
}

function writeReadme(table: string): void {
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)} at the end.`;
  updateReadme('load', `${stamp}\n\n${table}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      write: { type: 'boolean' },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const seconds = Number(values.seconds ?? 14);
  const connections = Number(values.connections ?? 50);
  const rounds = Number(values.rounds ?? 7);
  const available = { sqlite: true, postgres: Boolean(PG_URL), 'postgres+redis': Boolean(PG_URL && REDIS_URL) };
  const kinds = (['sqlite', 'postgres', 'postgres+redis'] as const).filter(
    (k) => available[k] && (values.only === undefined || values.only === k),
  );
  if (!available.postgres) console.log('PostgreSQL skipped: set TRACKCHECK_BENCH_DATABASE_URL or TRACKCHECK_TEST_DATABASE_URL');
  else if (!available['postgres+redis'])
    console.log('PostgreSQL + Redis skipped: set TRACKCHECK_BENCH_REDIS_URL or TRACKCHECK_TEST_REDIS_URL');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-load-'));
  const web = await startAffiliateWeb();
  const bare = await startProcess([...process.execArgv, SELF, '--bare-server'], {}, path.join(scratch, 'bare.log'), '/bare');
  const rows: Row[] = [];
  const problems: string[] = [];
  try {
    for (const kind of kinds) {
      const result = await benchDatabase(kind, bare, web, { seconds, rounds, connections, scratch });
      rows.push(...result.rows);
      problems.push(...result.problems);
    }
  } finally {
    await bare.stop();
    await web.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const table = formatTable(rows, connections, rounds);
  console.log(`\n${table}\n`);
  if (values.write) writeReadme(table);
  for (const p of problems) console.error(`MISSED: ${p}`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
