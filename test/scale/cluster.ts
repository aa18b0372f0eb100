// The scale-out topology as real processes: 2 API instances (`serve`, TRACKCHECK_WORKER_CONCURRENCY=0) and
// 2 `worker` processes on one fresh PostgreSQL schema and one Redis, each reached through a TCP proxy the test
// can stop, restart or freeze. The machine's own PostgreSQL and Redis are never touched: other suites use them.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SignJWT } from 'jose';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';
import { startTcpProxy, type TcpProxy } from '../rate-limit/tcp-proxy.js';
import { spawnTrackcheck, type TrackcheckProcess } from './processes.js';

export const PG_URL = process.env.TRACKCHECK_TEST_DATABASE_URL;
export const REDIS_URL = process.env.TRACKCHECK_TEST_REDIS_URL;
/** The scale suite needs both services; CI sets both URLs. */
export const SCALE_ENABLED = Boolean(PG_URL && REDIS_URL);

/** Every simulator host of the suite lives under this suffix, so one TRACKCHECK_RESOLVE entry covers them all. */
export const SIM_SUFFIX = 'scale.example';

export interface ClusterOptions {
  apis?: number;
  workers?: number;
  /** Checks one worker runs at once. */
  workerConcurrency?: number;
  /** TRACKCHECK_JOB_LEASE_MS: short, so a killed worker's jobs come back within the test. */
  jobLeaseMs?: number;
  /** Extra environment for every process. */
  env?: Record<string, string>;
}

export interface Cluster {
  apis: TrackcheckProcess[];
  workers: TrackcheckProcess[];
  /** In front of PostgreSQL / Redis: stop() = the service is unreachable, start() = it is back. */
  pgProxy: TcpProxy;
  redisProxy: TcpProxy;
  web: AffiliateWeb;
  /** A direct connection to the cluster's schema (not through the proxy), for looking behind the API. */
  sql: pg.Pool;
  env: Record<string, string>;
  /** A session token (HS256, the cluster's shared secret) for `userId`. */
  token(userId: string): Promise<string>;
  /** Starts one more worker process with the cluster's configuration. */
  addWorker(): Promise<TrackcheckProcess>;
  /** Writes every process's output to a file (for a failed test) and returns its path. */
  dumpOutput(label: string): string;
  close(): Promise<void>;
}

function proxiedUrl(raw: string, port: number): string {
  const url = new URL(raw);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  if (!PG_URL || !REDIS_URL) throw new Error('the scale suite needs TRACKCHECK_TEST_DATABASE_URL and TRACKCHECK_TEST_REDIS_URL');
  const pgTarget = new URL(PG_URL);
  const redisTarget = new URL(REDIS_URL);
  const [database, pgProxy, redisProxy, web] = await Promise.all([
    postgresDatabase.create(),
    startTcpProxy(pgTarget.hostname, Number(pgTarget.port || 5432)),
    startTcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379)),
    startAffiliateWeb(),
  ]);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-scale-'));
  const secret = randomBytes(32).toString('hex');
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    TMPDIR: os.tmpdir(),
    TRACKCHECK_DATA_DIR: dataDir,
    TRACKCHECK_DATABASE_URL: proxiedUrl(database.url, pgProxy.port),
    TRACKCHECK_REDIS_URL: proxiedUrl(REDIS_URL, redisProxy.port),
    TRACKCHECK_JWT_SECRET: secret,
    TRACKCHECK_TRUST_PROXY: 'true',
    TRACKCHECK_METRICS_TOKEN: METRICS_TOKEN,
    TRACKCHECK_RESOLVE: `*.${SIM_SUFFIX}=127.0.0.1`,
    TRACKCHECK_JOB_LEASE_MS: String(opts.jobLeaseMs ?? 3000),
    TRACKCHECK_SYNC_WAIT_MS: '10000',
    TRACKCHECK_CHROMIUM_PATH: '/nonexistent/chromium',
    TRACKCHECK_LOG_LEVEL: 'info',
    ...opts.env,
  };
  const workerEnv = { ...env, TRACKCHECK_WORKER_CONCURRENCY: String(opts.workerConcurrency ?? 4) };
  const sql = new pg.Pool({ connectionString: database.url, max: 4 });
  sql.on('error', () => undefined);
  const started: TrackcheckProcess[] = [];
  let workerCount = 0;
  const addWorker = async (): Promise<TrackcheckProcess> => {
    const proc = await spawnTrackcheck(`worker-${++workerCount}`, 'worker', workerEnv);
    started.push(proc);
    return proc;
  };

  async function close(): Promise<void> {
    await Promise.all(started.map((p) => p.stop('SIGTERM')));
    await sql.end().catch(() => undefined);
    await Promise.all([pgProxy.stop(), redisProxy.stop(), web.close()]);
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    // All at once: the processes also race each other through the migrations, which must be safe.
    const apiCount = opts.apis ?? 2;
    const [apis, workers] = await Promise.all([
      Promise.all(
        Array.from({ length: apiCount }, async (_, i) => {
          const proc = await spawnTrackcheck(`api-${i + 1}`, 'serve', { ...env, TRACKCHECK_WORKER_CONCURRENCY: '0' });
          started.push(proc);
          return proc;
        }),
      ),
      Promise.all(Array.from({ length: opts.workers ?? 2 }, addWorker)),
    ]);
    const key = new TextEncoder().encode(secret);
    return {
      apis,
      workers,
      pgProxy,
      redisProxy,
      web,
      sql,
      env,
      token: (userId) =>
        new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setIssuedAt().setExpirationTime('15m').sign(key),
      addWorker,
      dumpOutput(label) {
        const file = path.join(os.tmpdir(), `trackcheck-scale-${label.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}-${Date.now()}.log`);
        writeFileSync(file, started.map((p) => `===== ${p.name} (${p.alive ? 'alive' : 'exited'})\n${p.output()}`).join('\n'));
        return file;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A user id no other run has used, so Redis counters from earlier runs never collide. */
/** What the instances' /metrics asks for (TRACKCHECK_METRICS_TOKEN). */
export const METRICS_TOKEN = 'scale-metrics-token-0123456789';

export const uniqueUser = (label: string): string => `scale-${label}-${randomUUID()}`;

/** A client address no other run has used (2001:db8::/32 is documentation space: only ever a header value). */
export function uniqueIp(): string {
  const groups = [...randomBytes(8)].reduce<string[]>((acc, byte, i) => {
    if (i % 2 === 0) acc.push(byte.toString(16).padStart(2, '0'));
    else acc[acc.length - 1] += byte.toString(16).padStart(2, '0');
    return acc;
  }, []);
  return `2001:db8:${groups.join(':')}:0:1`;
}

export type { TestDatabase };
