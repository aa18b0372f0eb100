// The read paths the load benchmark leans on: a finished check's body is served from a per-process cache, and a
// hot report's concurrent views share one UPDATE. Neither may change what a client sees.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { DATABASES } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe.each(DATABASES)('hot reads on $name', (database) => {
  let web: AffiliateWeb;
  let t: TestApp;
  let link: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    web.page('www.shop.example', '/p/1', { html: '<!doctype html><title>Shoe</title>', setCookies: ['_ref=1; Max-Age=2592000; Path=/'] });
    link = web.url('www.shop.example', '/p/1');
  });
  afterAll(async () => {
    await web.close();
  });
  beforeEach(async () => {
    t = await startTestApp({
      database,
      worker: false,
      env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_ANON_RATE_LIMIT: '100000', TRACKCHECK_SYNC_WAIT_MS: '0' },
    });
  });
  afterEach(async () => {
    await t.close();
  });

  async function submit(): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: link } });
    expect(res.statusCode, res.body).toBe(202);
    return (res.json() as { data: { slug: string } }).data.slug;
  }

  async function finish(slug: string): Promise<void> {
    t.ctx.worker.start();
    for (let i = 0; i < 400; i++) {
      const row = await t.ctx.store.checks.get(slug);
      if (row?.status === 'completed') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`check ${slug} did not finish`);
  }

  const read = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves an unfinished check fresh, then the finished one from cache, byte for byte the same each time', async () => {
    const slug = await submit();
    const queued = await read(`/v1/checks/${slug}`);
    expect(queued.json().data.status).toBe('queued');
    await finish(slug);
    const first = await read(`/v1/checks/${slug}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json().data).toMatchObject({ slug, status: 'completed', willTrack: expect.any(Boolean) });
    const again = await Promise.all(Array.from({ length: 5 }, () => read(`/v1/checks/${slug}`)));
    for (const res of again) {
      expect(res.body).toBe(first.body);
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    }
    expect(new Set(again.map((r) => r.headers['x-request-id'])).size).toBe(5);
  });

  it('counts every view of a hot report exactly once, each reader getting its own count', async () => {
    const slug = await submit();
    // Views of a check still running are counted too, and never cached.
    const early = await read(`/v1/reports/${slug}`);
    expect(early.json().data).toMatchObject({ status: 'queued', viewCount: 1 });
    await finish(slug);
    const first = await read(`/v1/reports/${slug}`);
    expect(first.json().data).toMatchObject({ status: 'completed', viewCount: 2 });
    const reads = await Promise.all(Array.from({ length: 120 }, () => read(`/v1/reports/${slug}`)));
    expect(reads.every((r) => r.statusCode === 200)).toBe(true);
    const counts = reads.map((r) => (r.json() as { data: { viewCount: number } }).data.viewCount).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 120 }, (_, i) => i + 3));
    // The spliced body is the serialized report with only the count changed.
    const { viewCount: _ignored, ...rest } = reads[0]?.json().data as Record<string, unknown>;
    const { viewCount: _also, ...firstRest } = first.json().data as Record<string, unknown>;
    expect(rest).toEqual(firstRest);
    const row = await t.ctx.store.checks.get(slug);
    expect(row?.view_count).toBe(122);
    // HEAD is not a view; the evidence file shows the stored count.
    expect((await t.app.inject({ method: 'HEAD', url: `/v1/reports/${slug}` })).statusCode).toBe(200);
    expect((await t.ctx.store.checks.get(slug))?.view_count).toBe(122);
    expect((await read('/v1/reports/nosuchreport00')).statusCode).toBe(404);
  });
});
