// Issue 7: several API instances and several workers on one PostgreSQL and one Redis, as real processes.
// Exactness across instances first, then faults (a worker killed, Redis down, PostgreSQL down), each of
// which leaves the cluster healthy again for the next test.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_TOKEN, SCALE_ENABLED, SIM_SUFFIX, startCluster, uniqueIp, uniqueUser, type Cluster } from './cluster.js';
import { call, callSpread, dataOf, errorOf, sleep, waitFor, windowOf, type Reply } from './http.js';
import { addGatedLinks } from './gated-links.js';
import { logLines } from './processes.js';

const RATE_LIMIT = 60;

interface CheckBody {
  slug: string;
  status: string;
  willTrack: boolean | null;
}

describe.skipIf(!SCALE_ENABLED)('scale-out: 2 API instances + 2 workers on PostgreSQL and Redis', () => {
  let cluster: Cluster;
  let landingUrl: string;

  beforeAll(async () => {
    cluster = await startCluster();
    const host = `shop.base.${SIM_SUFFIX}`;
    cluster.web.page(host, '*', { html: '<!doctype html><title>Product</title>', setCookies: ['_ref=1; Max-Age=2592000; Path=/'] });
    landingUrl = cluster.web.url(host, '/p/1');
    // An instance serves requests before its Redis connection is up (uncounted: fail open); exactness is
    // only promised once it is, so wait for that rather than race it.
    await waitFor('Redis counting on every instance', countingLive, 20_000, 200);
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  afterEach(({ task }) => {
    if (task.result?.state === 'fail' && cluster) console.error(`process output: ${cluster.dumpOutput(task.name)}`);
  });

  const api = (i: number) => {
    const proc = cluster.apis[i];
    if (!proc) throw new Error(`no API instance ${i}`);
    return proc;
  };

  /** True once a fresh user's two requests, one per instance, are counted as positions 1 and 2. */
  async function countingLive(): Promise<true | undefined> {
    const probe = await cluster.token(uniqueUser('probe'));
    const a = await call(api(0), '/v1/checks?limit=1', { token: probe });
    const b = await call(api(1), '/v1/checks?limit=1', { token: probe });
    const seen = [a, b].map((r) => r.headers.get('x-ratelimit-remaining'));
    return seen[0] === String(RATE_LIMIT - 1) && seen[1] === String(RATE_LIMIT - 2) ? true : undefined;
  }

  /** `count` authenticated requests at once, split over both instances, inside one rate-limit window. */
  async function burst(count: number): Promise<{ ok: Reply[]; limited: Reply[] }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = await cluster.token(uniqueUser('burst'));
      const started = Date.now();
      const replies = await callSpread(cluster.apis, count, '/v1/checks?limit=1', { token });
      // Straddling a UTC minute would be two windows (up to 2 × 60 may pass): redo with a fresh user.
      if (windowOf(started) !== windowOf(Date.now())) continue;
      const unexpected = replies.filter((r) => r.status !== 200 && r.status !== 429);
      expect(unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      return { ok: replies.filter((r) => r.status === 200), limited: replies.filter((r) => r.status === 429) };
    }
    throw new Error('three bursts in a row straddled a minute boundary');
  }

  it('starts every process from one command line, all sharing the schema they migrated concurrently', async () => {
    expect(cluster.apis).toHaveLength(2);
    expect(cluster.workers).toHaveLength(2);
    for (const api of cluster.apis) {
      const health = await call(api, '/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', database: 'ok', rateLimitStore: 'redis' });
    }
    const { rows } = await cluster.sql.query<{ name: string }>('select name from kysely_migration order by name');
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['001-initial', '002-jobs-batches']));
  });

  it('rate limits are exact across instances: 80 concurrent requests, exactly 60 pass', async () => {
    const { ok, limited } = await burst(80);
    expect(ok).toHaveLength(RATE_LIMIT);
    expect(limited).toHaveLength(80 - RATE_LIMIT);
    // Count-then-decide: the passing requests hold the positions 1..60, one each.
    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => i));
    for (const r of limited) {
      expect(errorOf(r).code).toBe('rate_limited');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // Both instances let some through: one shared counter, not two halves.
    expect(new Set(ok.map((r) => r.instance))).toEqual(new Set(['api-1', 'api-2']));
  });

  it('shares the anonymous weekly cap: 10 concurrent anonymous checks from one address, exactly 3 created', async () => {
    const ip = uniqueIp();
    const replies = await callSpread(cluster.apis, 10, '/v1/checks', { ip, json: { url: landingUrl } });
    const created = replies.filter((r) => r.status === 201 || r.status === 202);
    const capped = replies.filter((r) => r.status === 429);
    expect(created).toHaveLength(3);
    expect(capped).toHaveLength(7);
    for (const r of capped) {
      expect(errorOf(r).code).toBe('anonymous_check_limit_reached');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const { rows } = await cluster.sql.query<{ n: number }>('select count(*)::int as n from checks where user_id is null and url = $1', [
      landingUrl,
    ]);
    expect(rows[0]?.n).toBe(3);
    // Another address is not affected, whichever instance it reaches.
    const other = await call(api(1), '/v1/checks', { ip: uniqueIp(), json: { url: landingUrl } });
    expect([201, 202]).toContain(other.status);
  });

  it('counts report views exactly across instances: 50 concurrent reads → +50, every count once', async () => {
    const token = await cluster.token(uniqueUser('views'));
    const submitted = await call(api(0), '/v1/checks', { token, json: { url: landingUrl } });
    expect(submitted.status).toBe(201); // the sync wait sees a result written by a worker process
    const slug = dataOf<CheckBody>(submitted).slug;
    const first = await call(api(1), `/v1/reports/${slug}`, { token });
    expect(first.status).toBe(200);
    const base = dataOf<{ viewCount: number }>(first).viewCount;
    const reads = await callSpread(cluster.apis, 50, `/v1/reports/${slug}`, { token });
    expect(reads.map((r) => r.status)).toEqual(new Array(50).fill(200));
    const counts = reads.map((r) => dataOf<{ viewCount: number }>(r).viewCount).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => base + 1 + i));
    const last = await call(api(0), `/v1/reports/${slug}`, { token });
    expect(dataOf<{ viewCount: number }>(last).viewCount).toBe(base + 51);
  });

  it('a worker killed (SIGKILL) mid-batch: its leases lapse, the other worker finishes, every link exactly once', async () => {
    const links = addGatedLinks(cluster.web, { prefix: 'kill', count: 24, hosts: 4 });
    const token = await cluster.token(uniqueUser('kill'));
    const created = await call(api(0), '/v1/batches', { token, json: { urls: links.urls } });
    expect(created.status).toBe(202);
    const batchId = dataOf<{ id: string }>(created).id;
    // Both workers at their concurrency (4 each), every one of those checks waiting on its first hop.
    await waitFor('both workers holding leased checks', async () => (links.held() === 8 ? true : undefined));
    const [victim, survivor] = cluster.workers;
    if (!victim || !survivor) throw new Error('the cluster has two workers');
    const victimSlugs = new Set(
      (await cluster.sql.query<{ check_slug: string }>('select check_slug from jobs where lease_owner = $1', [victim.workerId])).rows.map(
        (r) => r.check_slug,
      ),
    );
    expect(victimSlugs.size).toBeGreaterThanOrEqual(1);
    expect(await victim.stop('SIGKILL')).toBe('SIGKILL');
    const killedAt = Date.now();
    try {
      // Both were at their concurrency cap of 4, so exactly 4 requests belong to the victim: once they have
      // hung up, nothing still waiting at the gate can be the dead worker's.
      await waitFor("the victim's 4 connections to drop", async () => (links.hungUp() === 4 ? true : undefined));
      links.open();

      const done = await waitFor(
        'the batch to complete',
        async () => {
          const res = await call(api(1), `/v1/batches/${batchId}`, { token });
          const batch = dataOf<{
            status: string;
            total: number;
            completed: number;
            failed: number;
            checks: { url: string; slug: string; status: string }[];
          }>(res);
          return batch.status === 'completed' ? batch : undefined;
        },
        30_000,
        200,
      );
      expect(done).toMatchObject({ total: 24, completed: 24, failed: 0 });
      expect(done.checks.every((c) => c.status === 'completed')).toBe(true);
      // The victim's checks could only come back once their leases lapsed.
      expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1000);
      const victimLinks = done.checks.filter((c) => victimSlugs.has(c.slug)).map((c) => links.urls.indexOf(c.url));
      expect(victimLinks).toHaveLength(victimSlugs.size);
      for (let i = 0; i < 24; i++) {
        // Every chain ran to its end exactly once; a link the victim had started was requested once more, by the
        // dead worker, whose request never got an answer.
        const maxHits = victimLinks.includes(i) ? 2 : 1;
        expect({ link: i, answered: links.answered(i), landings: links.landings(i) }).toEqual({ link: i, answered: 1, landings: 1 });
        expect(links.trackerHits(i)).toBeGreaterThanOrEqual(1);
        expect(links.trackerHits(i)).toBeLessThanOrEqual(maxHits);
      }
      expect(victimLinks.filter((i) => links.trackerHits(i) === 2)).toHaveLength(4);
      // A job row goes once its worker has stored the outcome, a moment after the batch shows it finished.
      await waitFor(
        'the queue to empty',
        async () => ((await cluster.sql.query('select 1 from jobs')).rows.length === 0 ? true : undefined),
        10_000,
      );
    } finally {
      // Back to two workers for the tests that follow.
      cluster.workers[0] = await cluster.addWorker();
    }
  });

  it('Redis stopped: requests are still served (fail open), the outage is logged loudly, counting resumes when it returns', async () => {
    const token = await cluster.token(uniqueUser('redis'));
    await cluster.redisProxy.stop();
    try {
      const started = Date.now();
      const during = await callSpread(cluster.apis, 10, '/v1/checks?limit=1', { token });
      expect(during.map((r) => r.status)).toEqual(new Array(10).fill(200));
      expect(Date.now() - started).toBeLessThan(5000); // fail fast: no request waits on a dead Redis
      for (const r of during) expect(r.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
      for (const proc of cluster.apis) {
        await waitFor(`${proc.name} to log the outage`, async () =>
          logLines(proc).some(
            (l) => l.level === 40 && /rate-limit counter store failed; requests are let through uncounted/.test(l.msg ?? ''),
          )
            ? true
            : undefined,
        );
      }
      // …and counted for monitoring.
      for (const proc of cluster.apis) {
        const metrics = await call(proc, '/metrics', { token: METRICS_TOKEN });
        const failures = /^trackcheck_rate_limit_store_failures_total (\d+)/m.exec(String(metrics.body))?.[1];
        expect(Number(failures)).toBeGreaterThan(0);
      }
      // A longer outage: the instances keep failing to reconnect in the background and keep serving.
      await sleep(Math.max(0, started + 2000 - Date.now()));
      const later = await callSpread(cluster.apis, 4, '/v1/checks?limit=1', { token });
      expect(later.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await cluster.redisProxy.start();
    }
    // Counting resumes on its own (the client reconnects in the background): two requests, two positions.
    await waitFor('counting to resume', countingLive, 15_000, 200);
    for (const proc of cluster.apis) {
      await waitFor(`${proc.name} to log the recovery`, async () =>
        logLines(proc).some((l) => /rate-limit store \(Redis\) reachable again/.test(l.msg ?? '')) ? true : undefined,
      );
    }
    const { ok } = await burst(70);
    expect(ok).toHaveLength(RATE_LIMIT);
  });

  it('PostgreSQL unreachable: 503 with the envelope, /health 503, and recovery without a restart', async () => {
    const token = await cluster.token(uniqueUser('pg'));
    const before = await call(api(0), '/v1/checks', { token, json: { url: landingUrl } });
    expect(before.status).toBe(201);
    const slug = dataOf<CheckBody>(before).slug;
    const pids = [...cluster.apis, ...cluster.workers].map((p) => p.child.pid);

    await cluster.pgProxy.stop();
    try {
      for (const proc of cluster.apis) {
        const started = Date.now();
        const health = await call(proc, '/health');
        expect(health.status).toBe(503);
        expect(errorOf(health)).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
        for (const path of [`/v1/checks/${slug}`, `/v1/reports/${slug}`, '/v1/checks']) {
          const res = await call(proc, path, { token });
          expect({ path, status: res.status }).toEqual({ path, status: 503 });
          const error = errorOf(res);
          expect(error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
          expect(error.request_id).toBe(res.headers.get('x-request-id'));
          expect(error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|at .*\.ts/);
        }
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    } finally {
      await cluster.pgProxy.start();
    }

    for (const proc of cluster.apis) {
      await waitFor(
        `${proc.name} /health to recover`,
        async () => ((await call(proc, '/health')).status === 200 ? true : undefined),
        15_000,
        200,
      );
      const again = await call(proc, `/v1/checks/${slug}`, { token });
      expect(again.status).toBe(200);
    }
    // The workers recovered too: a new check is run to completion.
    const after = await call(api(1), '/v1/checks', { token, json: { url: landingUrl } });
    expect(after.status).toBe(201);
    expect(dataOf<CheckBody>(after).status).toBe('completed');
    // Nobody was restarted.
    expect([...cluster.apis, ...cluster.workers].every((p) => p.alive)).toBe(true);
    expect([...cluster.apis, ...cluster.workers].map((p) => p.child.pid)).toEqual(pids);
  });

  it('PostgreSQL hanging (connections accepted, nothing answered): /health is 503 within seconds, then recovers', async () => {
    cluster.pgProxy.setFrozen(true);
    try {
      const started = Date.now();
      const replies = await Promise.all(cluster.apis.map((proc) => call(proc, '/health')));
      expect(replies.map((r) => r.status)).toEqual([503, 503]);
      for (const r of replies) expect(errorOf(r).code).toBe('service_unavailable');
      // Well inside a load balancer's health-check timeout, not the 15 s query timeout.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      cluster.pgProxy.setFrozen(false);
    }
    for (const proc of cluster.apis) {
      await waitFor(
        `${proc.name} /health to recover`,
        async () => ((await call(proc, '/health')).status === 200 ? true : undefined),
        20_000,
        200,
      );
    }
    expect([...cluster.apis, ...cluster.workers].every((p) => p.alive)).toBe(true);
  });
});
