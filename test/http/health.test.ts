// /health tells the rate-limit store's real state (issue 13): with Redis gone the limits fail open, and the
// instance stays in the load balancer (200, the database is fine) but says "degraded" instead of "ok".
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startTcpProxy } from '../rate-limit/tcp-proxy.js';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('/health and the rate-limit store', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const health = async (app: TestApp) => {
    const started = performance.now();
    const res = await app.app.inject({ method: 'GET', url: '/health' });
    return { res, body: res.json() as Record<string, unknown>, ms: performance.now() - started };
  };

  it('says ok with in-process counters', async () => {
    t = await startTestApp({ worker: false });
    const { res, body } = await health(t);
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({ status: 'ok', database: 'ok', rateLimitStore: 'memory' });
  });

  it('says degraded, still 200, when Redis is not there; requests are served uncounted meanwhile', async () => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    const { res, body, ms } = await health(t);
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', database: 'ok', rateLimitStore: 'unavailable' });
    expect(ms).toBeLessThan(1500);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const read = await t.app.inject({ method: 'GET', url: '/v1/checks/abcdefghijkl' });
    expect(read.statusCode).toBe(404); // fail open: served, not 429 or 503
    // The database decides 503, as before.
    await t.ctx.store.close();
    expect((await health(t)).res.statusCode).toBe(503);
  });

  it.runIf(REDIS_URL)('follows Redis going away, hanging and coming back', async () => {
    const target = new URL(REDIS_URL ?? 'redis://127.0.0.1:6379');
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    try {
      t = await startTestApp({ worker: false, env: { TRACKCHECK_REDIS_URL: `redis://127.0.0.1:${proxy.port}` } });
      expect((await health(t)).body).toMatchObject({ status: 'ok', rateLimitStore: 'redis' });
      proxy.setFrozen(true); // accepts, never answers: the connection still looks ready
      const hung = await health(t);
      expect(hung.body).toMatchObject({ status: 'degraded', rateLimitStore: 'unavailable' });
      expect(hung.ms).toBeLessThan(1500);
      proxy.setFrozen(false);
      await proxy.stop();
      expect((await health(t)).body).toMatchObject({ status: 'degraded', rateLimitStore: 'unavailable' });
      await proxy.start();
      let back: Record<string, unknown> = {};
      for (let i = 0; i < 40 && back['status'] !== 'ok'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        back = (await health(t)).body;
      }
      expect(back).toMatchObject({ status: 'ok', rateLimitStore: 'redis' });
    } finally {
      await proxy.stop();
    }
  });
});
