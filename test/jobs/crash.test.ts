// Crash safety with real processes: kill -9 mid-batch and restart (SQLite), two workers sharing a batch and
// one of them killed (PostgreSQL), and a link that kills its worker on every attempt.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { postgresDatabase, type TestDatabase } from '../helpers/databases.js';
import type { RunningService } from '../helpers/spawn-service.js';
import { openStore } from '../../src/store/index.js';
import { addLinkFarm, pollBatch, waitForEmptyQueue, type BatchBody } from './batch-fixtures.js';
import { bearerFor, killHard, postBatch, startServe, startWorker, type RunningWorker } from './processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = '1500';
// The tests poll far more often than a client would; the rate limit is not what they test.
const BASE_ENV = { TRACKCHECK_JOB_LEASE_MS: LEASE_MS, TRACKCHECK_RATE_LIMIT: '100000' };

let web: AffiliateWeb;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  web = await startAffiliateWeb();
});
afterEach(async () => {
  while (cleanups.length > 0)
    await cleanups
      .pop()?.()
      .catch(() => undefined);
});
afterAll(async () => {
  await web.close();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-crash-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Finished checks as stored: slug → completed_at and a digest of the outcome. */
async function finishedRows(databaseUrl: string, batchId: string): Promise<Map<string, string>> {
  const store = await openStore(databaseUrl, { migrate: false });
  try {
    const rows = await store.db
      .selectFrom('checks')
      .select(['slug', 'status', 'completed_at', 'result'])
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['completed', 'failed'])
      .execute();
    return new Map(rows.map((r) => [r.slug, `${r.status}|${r.completed_at}|${r.result?.length}`]));
  } finally {
    await store.close();
  }
}

describe('kill -9 of trackcheck serve mid-batch (SQLite)', () => {
  it('completes every link exactly once after a restart', async () => {
    const dataDir = tempDir();
    const farm = addLinkFarm(web, { count: 120, hosts: 12, prefix: 'kill9', delayMs: 250 });
    const env = {
      TRACKCHECK_DATA_DIR: dataDir,
      TRACKCHECK_RESOLVE: web.resolveSpec,
      TRACKCHECK_WORKER_CONCURRENCY: '16',
      ...BASE_ENV,
    };
    const databaseUrl = `sqlite:${path.join(dataDir, 'trackcheck.db')}`;
    const headers = await bearerFor(dataDir);
    let service: RunningService = await startServe(env);
    cleanups.push(() => killHard(service.child));
    const batch = await postBatch(service.url, headers, farm.urls);
    await pollBatch(service.url, headers, batch.id, (b) => b.completed >= 30);
    await killHard(service.child);

    const hitAtKill = farm.urls.map((_, i) => web.hits(farm.firstHop(i).host, farm.firstHop(i).path));
    const doneAtKill = await finishedRows(databaseUrl, batch.id);
    const slugs = batch.checks.map((c) => c.slug);
    const inFlight = slugs.filter((slug, i) => !doneAtKill.has(slug) && (hitAtKill[i] ?? 0) > 0);
    expect(doneAtKill.size).toBeGreaterThanOrEqual(30);
    expect(doneAtKill.size).toBeLessThan(120);
    expect(inFlight.length).toBeGreaterThan(0);

    service = await startServe(env);
    const done = await pollBatch(service.url, headers, batch.id, (b) => b.status === 'completed', 60_000);
    expect(done).toMatchObject({ total: 120, completed: 120, failed: 0 });

    // None duplicated: links finished before the kill never ran again; the ones in flight ran at most twice.
    farm.urls.forEach((_, i) => {
      const hits = web.hits(farm.firstHop(i).host, farm.firstHop(i).path);
      const slug = slugs[i] ?? '';
      if (doneAtKill.has(slug)) expect(hits, `link ${i} finished before the kill`).toBe(1);
      else if (inFlight.includes(slug)) expect([1, 2], `link ${i} in flight at the kill`).toContain(hits);
      else expect(hits, `link ${i} not started before the kill`).toBe(1);
    });
    // And each check row was completed once: the outcomes stored before the kill are untouched.
    const doneAfter = await finishedRows(databaseUrl, batch.id);
    for (const [slug, outcome] of doneAtKill) expect(doneAfter.get(slug)).toBe(outcome);
    const store = await openStore(databaseUrl, { migrate: false });
    expect(await waitForEmptyQueue(() => store.jobs.depth())).toEqual({ queued: 0, running: 0 });
    await store.close();
  }, 120_000);
});

describe('a link that kills its worker every time (SQLite)', () => {
  it('is marked failed after its attempts while the rest of the batch completes', async () => {
    const dataDir = tempDir();
    const farm = addLinkFarm(web, { count: 5, hosts: 5, prefix: 'poison' });
    let current: RunningService | null = null;
    let poisonHits = 0;
    web.route('crash.poison.example', '/boom', (_req, res: ServerResponse) => {
      poisonHits++;
      const victim = current;
      // Whatever the checker does with this page kills the process (think: a native crash in a parser).
      setTimeout(() => {
        if (victim) void killHard(victim.child);
        res.destroy();
      }, 300);
    });
    const poison = web.url('crash.poison.example', '/boom');
    const env = { TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_RESOLVE: web.resolveSpec, ...BASE_ENV };
    const headers = await bearerFor(dataDir);
    current = await startServe(env);
    cleanups.push(async () => current && killHard(current.child));
    const batch = await postBatch(current.url, headers, [...farm.urls.slice(0, 2), poison, ...farm.urls.slice(2)]);
    let restarts = 0;
    let done: BatchBody | null = null;
    while (!done) {
      const running: RunningService = current;
      const gone = running.child.exitCode !== null || running.child.signalCode !== null;
      const exited = gone ? Promise.resolve() : new Promise((resolve) => running.child.once('exit', resolve));
      const finished = pollBatch(running.url, headers, batch.id, (b) => b.status === 'completed', 20_000).catch(() => null);
      const winner = await Promise.race([finished, exited.then(() => 'died' as const)]);
      if (winner !== 'died' && winner !== null) {
        done = winner;
        break;
      }
      expect(restarts++, 'restarts').toBeLessThan(5);
      current = await startServe(env);
    }
    expect(done).toMatchObject({ status: 'completed', total: 6, completed: 5, failed: 1 });
    expect(done.checks[2]?.status).toBe('failed');
    // Three attempts, each killing its process; the fourth claim gives up without running it.
    expect(poisonHits).toBe(3);
    expect(restarts).toBe(3);
    const check = (await (await fetch(`${current.url}/v1/checks/${done.checks[2]?.slug}`)).json()) as { data: { error: { code: string } } };
    expect(check.data.error.code).toBe('check_crashed');
  }, 120_000);
});

describe.skipIf(!process.env.TRACKCHECK_TEST_DATABASE_URL)('two worker processes on one batch (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await postgresDatabase.create();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('never run a job twice, and reclaim the leases of a worker killed with -9', async () => {
    const dataDir = tempDir();
    const farm = addLinkFarm(web, { count: 160, hosts: 16, prefix: 'pgworkers', delayMs: 150 });
    const env = { TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_DATABASE_URL: database.url, TRACKCHECK_RESOLVE: web.resolveSpec, ...BASE_ENV };
    const api = await startServe({ ...env, TRACKCHECK_WORKER_CONCURRENCY: '0' });
    cleanups.push(() => killHard(api.child));
    const workers: RunningWorker[] = [];
    for (let w = 0; w < 2; w++) {
      const worker = await startWorker({ ...env, TRACKCHECK_WORKER_CONCURRENCY: '6' });
      workers.push(worker);
      cleanups.push(() => killHard(worker.child));
    }
    const [a, b] = workers as [RunningWorker, RunningWorker];
    const headers = await bearerFor(dataDir);
    const store = await openStore(database.url, { migrate: false });
    cleanups.push(() => store.close());
    const owners = async (slugs?: string[]) => {
      let q = store.db.selectFrom('jobs').select(['check_slug', 'lease_owner']).where('status', '=', 'running');
      if (slugs) q = q.where('check_slug', 'in', slugs);
      return q.execute();
    };

    // Round 1: both workers share the first 80 links; each link runs exactly once.
    const first = await postBatch(api.url, headers, farm.urls.slice(0, 80));
    const seenOwners = new Set<string>();
    for (;;) {
      for (const row of await owners()) if (row.lease_owner) seenOwners.add(row.lease_owner);
      const batch = await pollBatch(api.url, headers, first.id, () => true);
      if (batch.status === 'completed') break;
      await sleep(30);
    }
    expect(seenOwners).toEqual(new Set([a.id, b.id]));
    for (let i = 0; i < 80; i++) expect(web.hits(farm.firstHop(i).host, farm.firstHop(i).path), `link ${i}`).toBe(1);

    // Round 2: kill worker A while it holds leases; B takes them over once they lapse.
    const second = await postBatch(api.url, headers, farm.urls.slice(80));
    const slugOf = new Map(second.checks.map((c, i) => [c.slug, 80 + i]));
    for (;;) {
      const held = (await owners()).filter((r) => r.lease_owner === a.id);
      const progress = await pollBatch(api.url, headers, second.id, () => true);
      if (held.length > 0 && progress.completed >= 10) break;
      await sleep(20);
    }
    await killHard(a.child);
    const orphaned = (await owners()).filter((r) => r.lease_owner === a.id).map((r) => r.check_slug);
    expect(orphaned.length).toBeGreaterThan(0);
    let takenOver = false;
    for (;;) {
      if ((await owners(orphaned)).some((r) => r.lease_owner === b.id)) takenOver = true;
      const batch = await pollBatch(api.url, headers, second.id, () => true);
      if (batch.status === 'completed') {
        expect(batch).toMatchObject({ total: 80, completed: 80, failed: 0 });
        break;
      }
      await sleep(25);
    }
    expect(takenOver).toBe(true);
    for (const [slug, i] of slugOf) {
      const hits = web.hits(farm.firstHop(i).host, farm.firstHop(i).path);
      if (orphaned.includes(slug)) expect([1, 2], `orphaned link ${i}`).toContain(hits);
      else expect(hits, `link ${i}`).toBe(1);
    }
    expect(await waitForEmptyQueue(() => store.jobs.depth())).toEqual({ queued: 0, running: 0 });
  }, 120_000);
});
