// POST/GET /v1/scans and results.csv on a real app and database (SQLite, and PostgreSQL when configured), against
// a local publisher site (test/fixtures/scan-site.ts) behind TRACKCHECK_RESOLVE.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { installScanSite, type ScanSite } from '../fixtures/scan-site.js';
import { waitForEmptyQueue } from '../jobs/batch-fixtures.js';

const SCAN_FIELDS = [
  'id',
  'url',
  'status',
  'render',
  'checkType',
  'pagesScanned',
  'linksFound',
  'total',
  'completed',
  'failed',
  'createdAt',
  'completedAt',
  'summary',
  'links',
  'findings',
  'error',
].sort();

interface ScanBody {
  id: string;
  status: string;
  pagesScanned: number;
  linksFound: number;
  total: number;
  completed: number;
  failed: number;
  completedAt: string | null;
  summary: Record<string, number>;
  links: { page: string; url: string; text: string; slug: string; status: string; rel: string[]; verdict: string | null }[];
  findings: { page: string; code: string; severity: string; links: string[] }[];
  error: { code: string; message: string } | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForScan(
  app: FastifyInstance,
  headers: Record<string, string>,
  id: string,
  timeoutMs = 30_000,
): Promise<ScanBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/v1/scans/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET scan: ${res.statusCode} ${res.body}`);
    const scan = (res.json() as { data: ScanBody }).data;
    if (scan.status === 'completed' || scan.status === 'failed' || Date.now() > deadline) return scan;
    await sleep(50);
  }
}

describe.each(DATABASES)('scans on $name', (database) => {
  let web: AffiliateWeb;
  let site: ScanSite;
  const apps: TestApp[] = [];

  async function start(env: Record<string, string> = {}, worker = true): Promise<TestApp> {
    const t = await startTestApp({
      database,
      worker,
      env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_RATE_LIMIT: '100000', ...env },
    });
    apps.push(t);
    return t;
  }

  beforeAll(async () => {
    web = await startAffiliateWeb();
    site = installScanSite(web);
  });
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()?.close();
  });
  afterAll(async () => {
    await web.close();
  });

  it('scans an article: every link kind told apart, the affiliate ones checked, counts and findings', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.article } });
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json().data as ScanBody;
    expect(Object.keys(created).sort()).toEqual(SCAN_FIELDS);
    expect(res.headers.location).toBe(`/v1/scans/${created.id}`);
    expect(created).toMatchObject({ status: 'queued', render: false, checkType: 'link', total: 0, links: [], error: null });

    const done = await waitForScan(t.app, bearer(key), created.id);
    expect(done).toMatchObject({ status: 'completed', pagesScanned: 1, total: 4, completed: 4, failed: 0, error: null });
    // /go/pegasus, awin (its #deal twin de-duplicated), shareasale, /out/watch (an area), /about, wikipedia; not
    // mailto:, javascript: nor #top; not the link a script inserts (render is false).
    expect(done.linksFound).toBe(6);
    expect(done.links.map((l) => l.url)).toEqual([site.links.cloaked, site.links.awin, site.links.shareasale, site.links.brokenArea]);
    expect(done.links.map((l) => l.text)).toEqual([
      'Pegasus 41',
      'Buy the Pegasus at Trail Shop',
      'Trail Shop through ShareASale',
      'A watch that is sold out',
    ]);
    expect(done.links[1]?.rel).toEqual(['sponsored', 'nofollow']);
    expect(new Set(done.links.map((l) => l.page))).toEqual(new Set([site.article]));
    expect(done.summary).toEqual({ willTrack: 3, wontTrack: 1, couldNotVerify: 0, noTrackingFound: 0 });
    expect(done.links.map((l) => l.verdict)).toEqual(['will_track', 'will_track', 'will_track', 'will_not_track']);
    expect(done.completedAt).not.toBeNull();
    const codes = done.findings.map((f) => f.code).sort();
    expect(codes).toEqual(['merchant_multiple_networks', 'sponsored_rel_missing']);
    const sponsored = done.findings.find((f) => f.code === 'sponsored_rel_missing');
    expect(sponsored).toMatchObject({ page: site.article, severity: 'info', links: [site.links.cloaked, site.links.shareasale] });
    // The scan's checks are the owner's checks; a scan is not a batch.
    const check = await t.app.inject({ method: 'GET', url: `/v1/checks/${done.links[0]?.slug}` });
    expect(check.json().data).toMatchObject({ url: site.links.cloaked, networkId: 'awin', verdict: 'will_track' });
    const batches = await t.app.inject({ method: 'GET', url: '/v1/batches', headers: bearer(key) });
    expect(batches.json().data).toEqual([]);
    const list = await t.app.inject({ method: 'GET', url: '/v1/scans', headers: bearer(key) });
    expect(list.json().data.map((s: ScanBody) => s.id)).toEqual([created.id]);
    expect(list.json().nextCursor).toBeNull();
    expect(await waitForEmptyQueue(() => t.ctx.store.jobs.depth())).toEqual({ queued: 0, running: 0 });

    const csv = await t.app.inject({ method: 'GET', url: `/v1/scans/${created.id}/results.csv`, headers: bearer(key) });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="scan-${created.id}-results.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('page,url,text,slug,status,willTrack,healthScore,network,finalUrl,criticalIssues');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain(',completed,false,');
    expect(lines[4]).toMatch(/landing_error_status$/);
    expect(lines[2]).toContain(`,Buy the Pegasus at Trail Shop,${done.links[1]?.slug},completed,true,`);
  }, 60_000);

  it('scans a sitemap index with a gzipped urlset: each page once, links de-duplicated across pages', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.sitemap } });
    const done = await waitForScan(t.app, bearer(key), res.json().data.id);
    expect(done).toMatchObject({ status: 'completed', pagesScanned: 2, total: 5, error: null });
    expect(done.linksFound).toBe(7);
    expect(done.links.map((l) => [l.page, l.url])).toEqual([
      [site.article, site.links.cloaked],
      [site.article, site.links.awin],
      [site.article, site.links.shareasale],
      [site.article, site.links.brokenArea],
      [site.secondArticle, site.links.recommends],
    ]);
    expect(web.hits('www.elsewhere.example')).toBe(0);
  }, 60_000);

  it('stops at TRACKCHECK_SCAN_MAX_PAGES pages of a sitemap', async () => {
    const t = await start({ TRACKCHECK_SCAN_MAX_PAGES: '1' });
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.sitemap } });
    const done = await waitForScan(t.app, bearer(key), res.json().data.id);
    expect(done).toMatchObject({ status: 'completed', pagesScanned: 1, total: 4 });
  }, 60_000);

  it('reads the links a script inserts only with render: true', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/scans',
      headers: bearer(key),
      payload: { url: site.article, render: true },
    });
    expect(res.json().data.render).toBe(true);
    const done = await waitForScan(t.app, bearer(key), res.json().data.id, 60_000);
    expect(done).toMatchObject({ status: 'completed', pagesScanned: 1, linksFound: 7, total: 5, error: null });
    expect(done.links.at(-1)).toMatchObject({ url: site.links.jsInserted, text: 'Deal of the day', verdict: 'will_track' });
  }, 90_000);

  it('reads an accepted scan whose worker died mid-read once its lease lapses, and queues its links once', async () => {
    const t = await start({}, false);
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.article } });
    const id = res.json().data.id as string;
    // A worker claims the page-fetch job and dies (its lease is never renewed).
    const now = t.clock.now();
    const claimed = await t.ctx.store.jobs.claim('worker-that-died', 10, {
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + 5000).toISOString(),
      skipHosts: [],
    });
    expect(claimed.map((j) => j.check_slug)).toEqual([`scan:${id}`]);
    t.clock.advance(10_000);
    t.ctx.worker.start();
    const done = await waitForScan(t.app, bearer(key), id);
    expect(done).toMatchObject({ status: 'completed', total: 4, completed: 4 });
    const checks = await t.ctx.store.checks.listByBatch(id);
    expect(checks).toHaveLength(4);
    expect(await waitForEmptyQueue(() => t.ctx.store.jobs.depth())).toEqual({ queued: 0, running: 0 });
  }, 60_000);

  it('fails a scan whose page cannot be read, with the reason', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.deadPage } });
    expect(res.statusCode).toBe(202);
    const done = await waitForScan(t.app, bearer(key), res.json().data.id);
    expect(done).toMatchObject({ status: 'failed', pagesScanned: 0, total: 0, links: [] });
    expect(done.error?.code).toBe('page_unreachable');
    expect(done.completedAt).not.toBeNull();
  });

  it('refuses bad input with a 400 and creates nothing', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const cases: [unknown, string][] = [
      [{ url: 'http://127.0.0.1:8080/post' }, 'url_not_allowed'],
      [{ url: 'http://[::1]/post' }, 'url_not_allowed'],
      [{ url: 'ftp://www.runner-blog.example/' }, 'url_not_allowed'],
      [{ url: 'not a url' }, 'invalid_url'],
      [{}, 'missing_parameter'],
      [{ url: site.article, render: 'yes' }, 'invalid_parameter'],
      [{ url: site.article, check_type: 'full' }, 'invalid_parameter'],
      [{ url: site.article, check_type: 'link', checkType: 'cmp' }, 'invalid_parameter'],
      [{ url: site.article, extra: 1 }, 'invalid_parameter'],
    ];
    for (const [payload, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const count = await t.ctx.store.db
      .selectFrom('scans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('counts a scan as one request for the rate limit, however many links it checks', async () => {
    const t = await start({ TRACKCHECK_RATE_LIMIT: '2' });
    const { key } = await t.createKey('alice');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(key), payload: { url: site.article } })).statusCode,
      );
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('keeps scans to their owner and allows 3 unfinished scans per user', async () => {
    const t = await start({ TRACKCHECK_WORKER_CONCURRENCY: '0' });
    const alice = (await t.createKey('alice')).key;
    const bob = (await t.createKey('bob')).key;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(alice), payload: { url: site.article } });
      expect(res.statusCode).toBe(202);
      ids.push(res.json().data.id);
      t.clock.advance(1000);
    }
    const fourth = await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(alice), payload: { url: site.article } });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error).toMatchObject({ type: 'invalid_request_error', code: 'too_many_scans' });
    // Bob has his own allowance, and sees none of Alice's scans.
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/scans', headers: bearer(bob), payload: { url: site.article } })).statusCode,
    ).toBe(202);
    for (const url of [`/v1/scans/${ids[0]}`, `/v1/scans/${ids[0]}/results.csv`, '/v1/scans/not-a-uuid']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(bob) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const listed = await t.app.inject({ method: 'GET', url: '/v1/scans?limit=2', headers: bearer(alice) });
    expect(listed.json().data.map((s: ScanBody) => s.id)).toEqual([ids[2], ids[1]]);
    const next = await t.app.inject({ method: 'GET', url: `/v1/scans?limit=2&cursor=${listed.json().nextCursor}`, headers: bearer(alice) });
    expect(next.json().data.map((s: ScanBody) => s.id)).toEqual([ids[0]]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/scans' })).json().error.code).toBe('authentication_required');
  });
});
