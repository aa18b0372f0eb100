// End to end, as a user: `npm start`, then HTTP only. A network link checked over HTTP, a link whose merchant
// page navigates by a computed script (the browser engine), the report page in Chromium, the evidence file,
// and a batch with its results CSV.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { CHROMIUM, SKIP_REASON } from '../checker/browser/browser-helpers.js';
import { startUserService, type UserService } from './user-service.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

type Check = Record<string, unknown> & {
  hops: Array<{ url: string; location: string | null; kind: string; timeMs: number }>;
  issues: Array<{ code: string }>;
};

function installLinks(web: AffiliateWeb) {
  const landing = web.url('www.trail-shop.example', '/p/pegasus-41?awc=12345_e2e&source=aw');
  web.redirect('www.awin1.com', '/cread.php', landing, { setCookies: ['aw12345=clk; Max-Age=2592000; Path=/'] });
  web.page('www.trail-shop.example', '/p/pegasus-41', {
    html: '<!doctype html><title>Pegasus 41 – Trail Shop</title><h1>Pegasus 41</h1>',
    setCookies: ['_aw_m_12345=12345_e2e; Max-Age=31536000; Path=/; Secure; SameSite=Lax'],
  });
  // A cloaking page that computes the destination: only a browser can follow it.
  web.page('go.deals-blog.example', '/go/pegasus', {
    html: `<!doctype html><title>Redirecting…</title><script>var parts = [${JSON.stringify(web.url('www.awin1.com', '/cread.php?awinmid=12345&awinaffid=998877&clickref=js'))}]; location.href = parts.join('');</script>`,
  });
  web.page('www.closed-shop.example', '/gone', { status: 404, html: '<title>Not found</title>' });
  return {
    awin: web.url(
      'www.awin1.com',
      '/cread.php?awinmid=12345&awinaffid=998877&ued=' + encodeURIComponent(web.url('www.trail-shop.example', '/p/pegasus-41')),
    ),
    js: web.url('go.deals-blog.example', '/go/pegasus'),
    broken: web.url('www.closed-shop.example', '/gone'),
  };
}

describe.skipIf(CHROMIUM === null)(`links through npm start${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let service: UserService;
  let links: ReturnType<typeof installLinks>;
  let key: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    links = installLinks(web);
    service = await startUserService(web);
    key = await service.apiKey('e2e-links');
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await web?.close();
  });

  it('serves the compiled build and reports itself healthy', async () => {
    const res = await service.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json<{ status: string }>().status).toBe('ok');
    expect(service.output()).not.toMatch(/tsx|ExperimentalWarning/);
  });

  it('checks a network link over HTTP: 201 with the verdict', async () => {
    const res = await service.request('POST', '/v1/checks', { body: { url: links.awin } });
    expect(res.status, res.text).toBe(201);
    const check = res.json<{ data: Check }>().data;
    expect(check).toMatchObject({ status: 'completed', mode: 'http', willTrack: true, networkId: 'awin', finalStatus: 200 });
    expect(check.hops.map((hop) => hop.kind)).toEqual(['http', 'http']);
    expect((await service.request('GET', `/v1/checks/${String(check['slug'])}`)).json<{ data: Check }>().data).toEqual(check);
  });

  it('follows a computed JavaScript redirect in the browser, without counting the checker\u2019s start-up as a slow hop', async () => {
    const res = await service.request('POST', '/v1/checks', { body: { url: links.js }, token: key });
    expect(res.status, res.text).toBe(201);
    const check = res.json<{ data: Check }>().data;
    expect(check).toMatchObject({ status: 'completed', mode: 'browser', networkId: 'awin', willTrack: true });
    expect(check.hops.map((hop) => hop.kind)).toEqual(['http', 'javascript', 'http']);
    expect(check.issues.map((issue) => issue.code)).not.toContain('slow_redirect_chain');
    // The first browser check of a process launches Chromium: none of that may show in a hop's time.
    for (const hop of check.hops) expect(hop.timeMs, hop.url).toBeLessThan(1000);
  });

  it('shows the report page in Chromium and serves the evidence file with every URL on a line of its own', async () => {
    const created = (await service.request('POST', '/v1/checks', { body: { url: links.awin }, token: key })).json<{ data: Check }>().data;
    const slug = String(created['slug']);
    const report = (await service.request('GET', `/v1/reports/${slug}`)).json<{
      data: Check & { reportUrl: string; evidenceUrl: string; viewCount: number };
    }>().data;
    expect(report.viewCount).toBe(1);

    const profile = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-e2e-browser-'));
    const context = await launchVisitor(CHROMIUM as string, profile);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const response = await page.goto(report.reportUrl);
      expect(response?.status()).toBe(200);
      await expect.poll(() => page.locator('body').innerText()).toMatch(/will track/i);
      expect(await page.locator('body').innerText()).toContain('Awin');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
    expect((await service.request('GET', `/v1/reports/${slug}`)).json<{ data: { viewCount: number } }>().data.viewCount).toBe(3);

    const evidence = await service.request('GET', `/v1/reports/${slug}/evidence`);
    expect(evidence.status).toBe(200);
    expect(evidence.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = evidence.text.split('\n').map((line) => line.trim());
    for (const url of [
      links.awin,
      ...report.hops.map((hop) => hop.url),
      ...report.hops.flatMap((hop) => (hop.location === null ? [] : [hop.location])),
    ]) {
      expect(lines, url).toContain(url);
    }
  });

  it('scores 24 copies of one JavaScript-redirect link in one batch alike: the checker\u2019s load is no merchant\u2019s delay', async () => {
    const urls = Array.from({ length: 24 }, (_, i) => `${links.js}?copy=${i}`);
    const res = await service.request('POST', '/v1/batches', { body: { urls }, token: key });
    expect(res.status, res.text).toBe(202);
    const slugs = res.json<{ data: { checks: Array<{ slug: string }> } }>().data.checks.map((c) => c.slug);
    const checks = await Promise.all(
      slugs.map((slug) => service.finishedCheck(slug, { token: key, timeoutMs: 120_000 }) as Promise<Check>),
    );
    const scores = new Set(checks.map((check) => check['healthScore']));
    expect([...scores], JSON.stringify(checks.map((c) => [c['healthScore'], c.hops.map((h) => h.timeMs)]))).toHaveLength(1);
    for (const check of checks) expect(check.issues.map((issue) => issue.code)).not.toContain('slow_redirect_chain');
  }, 150_000);

  it('runs a batch and gives its results as CSV, one row per link in order', async () => {
    const res = await service.request('POST', '/v1/batches', { body: { urls: [links.awin, links.broken, links.js] }, token: key });
    expect(res.status, res.text).toBe(202);
    const id = String(res.json().data['id']);
    let batch: Record<string, unknown> = {};
    for (let i = 0; i < 300 && batch['status'] !== 'completed'; i += 1) {
      batch = (await service.request('GET', `/v1/batches/${id}`, { token: key })).json().data;
      if (batch['status'] !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(batch).toMatchObject({ status: 'completed', total: 3, completed: 3, failed: 0 });
    const csv = await service.request('GET', `/v1/batches/${id}/results.csv`, { token: key });
    expect(csv.status).toBe(200);
    const rows = csv.text.trim().split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(links.awin);
    expect(rows[1]).toContain(',true,');
    expect(rows[2]).toContain(links.broken);
    expect(rows[2]).toContain(',false,');
    expect(rows[3]).toContain(links.js);
  });
});
