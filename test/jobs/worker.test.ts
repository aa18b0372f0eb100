// The worker in-process: crashes are retried with backoff then failed, dead workers' jobs are given up after
// their attempts, one host never gets more than its share, single checks overtake queued batches.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, postgresDatabase } from '../helpers/databases.js';
import { createContext } from '../../src/context.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { concurrencyProbe, waitForBatch, waitForEmptyQueue, type BatchBody } from './batch-fixtures.js';
import { fakeResult, startEngineApp, type EngineApp } from './engine-app.js';
import type { Engine } from '../../src/jobs/check-runner.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, test: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** An engine that lands every link, except those containing `/boom`, on which it throws like a crash. */
function crashingEngine(): { engine: Engine; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const engine: Engine = async (url) => {
    calls.set(url, (calls.get(url) ?? 0) + 1);
    if (url.includes('/boom')) throw new Error('the parser blew up');
    return fakeResult(url);
  };
  return { engine, calls };
}

describe.each(DATABASES)('worker on $name', (database) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    while (open.length > 0) await open.pop()?.close();
  });
  const engineApp = async (engine: Engine, worker = true): Promise<EngineApp> => {
    const t = await startEngineApp({ database, engine, worker });
    open.push(t);
    return t;
  };
  const postBatch = async (t: EngineApp, urls: string[]): Promise<BatchBody> => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { urls } });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data as BatchBody;
  };

  it('retries a crashing check with backoff, then marks it failed; the batch still completes', async () => {
    const { engine, calls } = crashingEngine();
    const t = await engineApp(engine);
    const boom = 'http://a.jobs.example/boom';
    const batch = await postBatch(t, ['http://a.jobs.example/1', boom, 'http://b.jobs.example/2']);
    const boomSlug = batch.checks[1]?.slug ?? '';
    // Requeued (not running) after its crash, with the backoff computed from the clock as it was then.
    const requeued = async (attempts: number) => {
      const job = await t.ctx.store.db.selectFrom('jobs').selectAll().where('check_slug', '=', boomSlug).executeTakeFirst();
      return job?.status === 'queued' && job.attempts === attempts;
    };
    await until('the first crash', () => requeued(1));
    await sleep(50);
    expect(calls.get(boom)).toBe(1); // not retried before its backoff
    t.clock.advance(2_001);
    t.ctx.worker.poke();
    await until('the second crash', () => requeued(2));
    expect(calls.get(boom)).toBe(2);
    t.clock.advance(4_001);
    t.ctx.worker.poke();
    await until('the third attempt', () => calls.get(boom) === 3);
    const done = await waitForBatch(t.app, t.headers, batch.id, 5_000);
    expect(done).toMatchObject({ status: 'completed', total: 3, completed: 2, failed: 1 });
    expect(done.checks.map((c) => c.status)).toEqual(['completed', 'failed', 'completed']);
    const failed = (await t.app.inject({ method: 'GET', url: `/v1/checks/${done.checks[1]?.slug}` })).json().data;
    expect(failed.error.code).toBe('check_crashed');
    expect(failed.error.message).toContain('the parser blew up');
    t.clock.advance(60_000);
    t.ctx.worker.poke();
    await sleep(100);
    expect(calls.get(boom)).toBe(3);
    expect(await waitForEmptyQueue(() => t.ctx.store.jobs.depth())).toEqual({ queued: 0, running: 0 });
  });

  it('gives up on a check whose workers died on every attempt, without running it again', async () => {
    const { engine, calls } = crashingEngine();
    const t = await engineApp(engine, false);
    const poison = 'http://a.jobs.example/poison';
    const batch = await postBatch(t, [poison, 'http://b.jobs.example/fine']);
    for (let death = 1; death <= 3; death++) {
      // A worker leases it and dies mid-check: it never reports back, its lease lapses.
      const now = t.clock.now();
      const [job] = await t.ctx.store.jobs.claim(`doomed-${death}`, 1, {
        now: new Date(now).toISOString(),
        leaseUntil: new Date(now + 1_000).toISOString(),
        skipHosts: [],
        perHost: 4,
      });
      expect([job?.check_slug, job?.attempts]).toEqual([batch.checks[0]?.slug, death]);
      t.clock.advance(1_001);
    }
    t.ctx.worker.start();
    const done = await waitForBatch(t.app, t.headers, batch.id, 5_000);
    expect(done).toMatchObject({ status: 'completed', completed: 1, failed: 1 });
    expect(calls.get(poison)).toBeUndefined();
    const failed = (await t.app.inject({ method: 'GET', url: `/v1/checks/${done.checks[0]?.slug}` })).json().data;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'check_crashed' } });
  });

  it('runs single checks ahead of a queued batch', async () => {
    const web = await startAffiliateWeb();
    open.push(web);
    for (let i = 0; i < 6; i++) web.page('slow.priority.example', `/p/${i}`, { html: '<title>slow</title>', delayMs: 150 });
    web.page('fast.priority.example', '/', { html: '<title>fast</title>' });
    const urls = Array.from({ length: 6 }, (_, i) => web.url('slow.priority.example', `/p/${i}`));
    const single = web.url('fast.priority.example', '/');
    const t: TestApp = await startTestApp({
      database,
      env: {
        TRACKCHECK_RESOLVE: web.resolveSpec,
        TRACKCHECK_WORKER_CONCURRENCY: '1',
        TRACKCHECK_SYNC_WAIT_MS: '0',
        TRACKCHECK_RATE_LIMIT: '100000',
      },
    });
    open.push(t);
    const { key } = await t.createKey('alice');
    const batch = (await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls } })).json()
      .data as BatchBody;
    await until('the batch to start', () => web.hits('slow.priority.example') > 0);
    const posted = await t.app.inject({ method: 'POST', url: '/v1/checks', headers: bearer(key), payload: { url: single } });
    expect(posted.statusCode).toBe(202);
    const row = await t.ctx.waiter.waitFor(posted.json().data.slug, 5_000);
    expect(row?.status).toBe('completed');
    // One batch link was running and (with a one-slot worker) at most one more was already leased.
    expect(web.hits('slow.priority.example')).toBeLessThanOrEqual(2);
    const midway = (await t.app.inject({ method: 'GET', url: `/v1/batches/${batch.id}`, headers: bearer(key) })).json().data as BatchBody;
    expect(midway).toMatchObject({ status: 'running', completedAt: null });
    expect(midway.completed).toBeLessThan(6);
    expect(midway.checks.filter((c) => c.status === 'queued').length).toBeGreaterThan(0);
    expect((await waitForBatch(t.app, bearer(key), batch.id)).completed).toBe(6);
  });
});

describe.each(DATABASES)('per-host politeness on $name', (database) => {
  let web: AffiliateWeb;
  let t: TestApp;
  const probe = concurrencyProbe(150);
  const busy = 'www.busy-network.example';
  beforeAll(async () => {
    web = await startAffiliateWeb();
    web.route(busy, '*', probe.handler);
    for (let i = 0; i < 10; i++) web.page(`calm-${i}.example`, '/', { html: '<title>calm</title>' });
    // 8 slots: the 40 busy links alone could fill every slot and lease, were leases not capped per host.
    t = await startTestApp({
      database,
      env: {
        TRACKCHECK_RESOLVE: web.resolveSpec,
        TRACKCHECK_PER_HOST_CONCURRENCY: '4',
        TRACKCHECK_WORKER_CONCURRENCY: '8',
        TRACKCHECK_RATE_LIMIT: '100000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await web.close();
  });

  it('keeps at most TRACKCHECK_PER_HOST_CONCURRENCY requests in flight at one host while other hosts proceed', async () => {
    const { key } = await t.createKey('alice');
    const busyUrls = Array.from({ length: 40 }, (_, i) => web.url(busy, `/click/${i}`));
    const calmUrls = Array.from({ length: 10 }, (_, i) => web.url(`calm-${i}.example`, '/'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [...busyUrls, ...calmUrls] },
    });
    const done = await waitForBatch(t.app, bearer(key), res.json().data.id, 20_000);
    expect(done).toMatchObject({ status: 'completed', completed: 50 });
    expect(probe.peak()).toBe(4);
    expect(web.hits(busy)).toBe(40);
    // The calm hosts did not wait behind the busy one: the 4 slots it could not use went to them at once,
    // while its first four requests were still in flight.
    const order = web.requests.map((r) => (r.host === busy ? 'busy' : 'calm'));
    const fifthBusy = order.map((h, i) => (h === 'busy' ? i : -1)).filter((i) => i >= 0)[4] ?? order.length;
    expect(order.slice(0, fifthBusy).filter((h) => h === 'calm').length).toBeGreaterThanOrEqual(4);
  });
});

describe.skipIf(!DATABASES.includes(postgresDatabase))('per-host politeness across workers on PostgreSQL', () => {
  it('caps one host at TRACKCHECK_PER_HOST_CONCURRENCY across two workers sharing the database', async () => {
    const web = await startAffiliateWeb();
    const probe = concurrencyProbe(120);
    const busy = 'www.busy-network.example';
    web.route(busy, '*', probe.handler);
    const env = {
      TRACKCHECK_RESOLVE: web.resolveSpec,
      TRACKCHECK_PER_HOST_CONCURRENCY: '3',
      TRACKCHECK_WORKER_CONCURRENCY: '8',
      TRACKCHECK_RATE_LIMIT: '100000',
    };
    const t = await startTestApp({ database: postgresDatabase, env });
    // A second worker process's worth: its own context, pool and worker on the same database and clock.
    const other = await createContext(t.config, { clock: t.clock, warn: () => undefined });
    other.worker.start();
    try {
      const { key } = await t.createKey('alice');
      const urls = Array.from({ length: 30 }, (_, i) => web.url(busy, `/click/${i}`));
      const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls } });
      const done = await waitForBatch(t.app, bearer(key), res.json().data.id, 30_000);
      expect(done).toMatchObject({ status: 'completed', completed: 30 });
      expect(web.hits(busy)).toBe(30);
      expect(probe.peak()).toBe(3);
    } finally {
      await other.close();
      await t.close();
      await web.close();
    }
  });
});

describe.each(DATABASES)('fairness between callers on $name', (database) => {
  // Issue 13, point 7: one user's slow checks took every worker slot and another user's ordinary check waited 17 s.
  it('another user\u2019s check takes the next free slot while one user\u2019s slow backlog fills the worker', async () => {
    const web = await startAffiliateWeb();
    for (let i = 0; i < 40; i++) web.page('slow.fair.example', `/p/${i}`, { html: '<title>slow</title>', delayMs: 1_500 });
    web.page('fast.fair.example', '/', { html: '<title>fast</title>' });
    const t: TestApp = await startTestApp({
      database,
      env: {
        TRACKCHECK_RESOLVE: web.resolveSpec,
        TRACKCHECK_WORKER_CONCURRENCY: '4',
        TRACKCHECK_PER_HOST_CONCURRENCY: '8',
        TRACKCHECK_RATE_LIMIT: '100000',
        TRACKCHECK_SYNC_WAIT_MS: '0',
      },
    });
    try {
      const alice = (await t.createKey('alice')).key;
      const bob = (await t.createKey('bob')).key;
      // Alice's 40 slow links as a batch and as single checks (priority 0, the same as bob's).
      const urls = Array.from({ length: 40 }, (_, i) => web.url('slow.fair.example', `/p/${i}`));
      await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(alice), payload: { urls: urls.slice(0, 30) } });
      await Promise.all(
        urls.slice(30).map((url) => t.app.inject({ method: 'POST', url: '/v1/checks', headers: bearer(alice), payload: { url } })),
      );
      await until('alice to hold every slot', () => web.hits('slow.fair.example') >= 4);
      const started = Date.now();
      const posted = await t.app.inject({
        method: 'POST',
        url: '/v1/checks',
        headers: bearer(bob),
        payload: { url: web.url('fast.fair.example', '/') },
      });
      const slug = posted.json().data.slug as string;
      const row = await t.ctx.waiter.waitFor(slug, 10_000);
      expect(row?.status).toBe('completed');
      // One of alice's 1.5 s checks ends and bob's runs in that slot: not after the 10 single checks she queued first (4.5 s).
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await t.close();
      await web.close();
    }
  }, 60_000);
});
