// End to end, as a user: `npm start`, then HTTP and the CLI only. Page scans of a local publisher site
// (test/fixtures/scan-site.ts) behind TRACKCHECK_RESOLVE: an article with every link kind, a sitemap index with a
// gzipped urlset, render true/false, the CSV, ownership, the unfinished-scan limit, a refused loopback URL, and
// `trackcheck scan`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { installScanSite, type ScanSite } from '../fixtures/scan-site.js';
import { CHROMIUM, SKIP_REASON } from '../checker/browser/browser-helpers.js';
import { runNpx, startUserService, type UserService } from './user-service.js';

type Scan = Record<string, unknown> & {
  id: string;
  status: string;
  links: { page: string; url: string; text: string; slug: string; status: string }[];
  findings: { code: string }[];
  error: { code: string } | null;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(CHROMIUM === null)(`page scans through npm start${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let site: ScanSite;
  let service: UserService;
  let key: string;
  let slowPage: string;

  async function submit(body: unknown, token = key): Promise<Scan> {
    const res = await service.request('POST', '/v1/scans', { body, token });
    expect(res.status, res.text).toBe(202);
    return res.json<{ data: Scan }>().data;
  }

  async function finished(id: string, token = key): Promise<Scan> {
    for (let i = 0; ; i += 1) {
      const scan = (await service.request('GET', `/v1/scans/${id}`, { token })).json<{ data: Scan }>().data;
      if (scan.status === 'completed' || scan.status === 'failed') return scan;
      if (i > 600) throw new Error(`scan ${id} still ${scan.status}`);
      await sleep(100);
    }
  }

  beforeAll(async () => {
    web = await startAffiliateWeb();
    site = installScanSite(web);
    web.page('www.slow-blog.example', '/post', { html: '<title>Slow</title>', delayMs: 6000 });
    slowPage = web.url('www.slow-blog.example', '/post');
    service = await startUserService(web);
    key = await service.apiKey('e2e-scans');
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await web?.close();
  });

  it('scans an article: each link kind, the contract counts, findings and the CSV', async () => {
    const created = await submit({ url: site.article });
    expect(created).toMatchObject({ status: 'queued', render: false, pagesScanned: 0, linksFound: 0, total: 0, completed: 0, failed: 0 });
    const scan = await finished(created.id);
    expect(scan).toMatchObject({
      status: 'completed',
      pagesScanned: 1,
      linksFound: 6,
      total: 4,
      completed: 4,
      failed: 0,
      summary: { willTrack: 3, wontTrack: 1, couldNotVerify: 0, noTrackingFound: 0 },
      error: null,
    });
    // Relative + cloaked, absolute network (its #fragment duplicate dropped), a second network, an <area>; never
    // mailto:, javascript:, #top, /about or the external article; not the script-inserted link without render.
    expect(scan.links.map((l) => l.url)).toEqual([site.links.cloaked, site.links.awin, site.links.shareasale, site.links.brokenArea]);
    expect(scan.links.every((l) => l.page === site.article && l.status === 'completed')).toBe(true);
    expect(scan.findings.map((f) => f.code).sort()).toEqual(['merchant_multiple_networks', 'sponsored_rel_missing']);

    const csv = await service.request('GET', `/v1/scans/${created.id}/results.csv`, { token: key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = csv.text.trimEnd().split('\r\n');
    expect(rows[0]).toBe('page,url,text,slug,status,willTrack,healthScore,network,finalUrl,criticalIssues');
    expect(rows).toHaveLength(5);
    expect(rows[1]).toBe(
      [site.article, site.links.cloaked, 'Pegasus 41', scan.links[0]?.slug, 'completed', 'true'].join(',') +
        rows[1]?.slice(rows[1].indexOf(',true,') + 5),
    );
    expect(rows[4]).toMatch(/,completed,false,\d+,,.*,landing_error_status$/);
  }, 90_000);

  it('reads a script-inserted link with render: true, and only then', async () => {
    const scan = await finished((await submit({ url: site.article, render: true })).id);
    expect(scan).toMatchObject({ status: 'completed', render: true, linksFound: 7, total: 5 });
    expect(scan.links.map((l) => l.url)).toContain(site.links.jsInserted);
    expect(scan.links.find((l) => l.url === site.links.jsInserted)?.text).toBe('Deal of the day');
  }, 120_000);

  it('scans the pages of a sitemap index (gzipped urlset), links de-duplicated across pages', async () => {
    const scan = await finished((await submit({ url: site.sitemap })).id);
    expect(scan).toMatchObject({ status: 'completed', pagesScanned: 2, linksFound: 7, total: 5 });
    expect(scan.links.at(-1)).toMatchObject({ page: site.secondArticle, url: site.links.recommends, text: 'Our tent' });
  }, 90_000);

  it('refuses a loopback page URL, hides scans from other users, and allows 3 unfinished scans', async () => {
    const refused = await service.request('POST', '/v1/scans', { body: { url: 'http://127.0.0.1:3000/admin' }, token: key });
    expect(refused.status).toBe(400);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('url_not_allowed');

    const mine = await submit({ url: site.article });
    const other = await service.apiKey('e2e-someone-else');
    for (const path of [`/v1/scans/${mine.id}`, `/v1/scans/${mine.id}/results.csv`]) {
      const res = await service.request('GET', path, { token: other });
      expect(res.status, path).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('not_found');
    }
    expect((await service.request('GET', '/v1/scans', { token: other })).json<{ data: unknown[] }>().data).toEqual([]);
    await finished(mine.id);

    const slow = [await submit({ url: slowPage }, other), await submit({ url: slowPage }, other), await submit({ url: slowPage }, other)];
    const fourth = await service.request('POST', '/v1/scans', { body: { url: site.article }, token: other });
    expect(fourth.status).toBe(409);
    expect(fourth.json<{ error: { code: string; type: string } }>().error).toMatchObject({
      code: 'too_many_scans',
      type: 'invalid_request_error',
    });
    // The slow page has no link to check: each scan completes with none.
    for (const s of slow)
      expect(await finished(s.id, other)).toMatchObject({ status: 'completed', pagesScanned: 1, linksFound: 0, total: 0 });
  }, 90_000);

  it('trackcheck scan: progress on stderr, the results in the chosen format, exit 1 when a link will not track', async () => {
    const env = { ...service.env, TRACKCHECK_API_KEY: key };
    const csv = await runNpx(['scan', site.article, '--format', 'csv', '--interval', '200'], env);
    expect(csv.code, csv.stderr).toBe(1);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues,page,text',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      site.links.cloaked,
      site.links.awin,
      site.links.shareasale,
      site.links.brokenArea,
    ]);
    expect(lines[1]).toContain(',will_track,true,');
    expect(csv.stderr).toContain('1 page scanned, 6 links found, 4 affiliate links checked');

    const json = await runNpx(['scan', site.article, '--render', '--format', 'json', '--no-progress', '--interval', '200'], env);
    expect(json.code, json.stderr).toBe(1);
    const results = JSON.parse(json.stdout) as { url: string; verdict: string; fields: { page: string; text: string } }[];
    expect(results.map((r) => r.url)).toContain(site.links.jsInserted);
    expect(results[0]).toMatchObject({ verdict: 'will_track', fields: { page: site.article, text: 'Pegasus 41' } });

    const failed = await runNpx(['scan', site.deadPage, '--interval', '200'], env);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('page_unreachable');
    const refused = await runNpx(['scan', 'http://127.0.0.1/post'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('url_not_allowed');
  }, 180_000);
});
