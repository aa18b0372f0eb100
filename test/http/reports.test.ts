import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../helpers/spawn-service.js';
import { verifyCommands } from '../../src/checker/evidence.js';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp } from '../helpers/test-app.js';
import { COOKIE_VALUES, evidenceField, startReportWeb, useReportApp, type ReportWeb } from '../web/report-fixtures.js';
import { canonicalJson, sha256Hex } from '../../src/lib/canonical-json.js';
import { VERSION } from '../../src/lib/version.js';

const CHECK_FIELDS = [
  'slug',
  'url',
  'checkType',
  'status',
  'createdAt',
  'completedAt',
  'error',
  'verdict',
  'willTrack',
  'privacy',
  'healthScore',
  'network',
  'networkId',
  'networks',
  'finalUrl',
  'finalStatus',
  'redirectCount',
  'totalRedirectTimeMs',
  'hops',
  'trackingParameterPresent',
  'trackingParameters',
  'firstPartyCookieSet',
  'thirdPartyCookieSet',
  'cookieExpiryDays',
  'cookies',
  'issues',
  'mode',
  'consent',
];

function expectNoCookieValues(text: string): void {
  for (const value of COOKIE_VALUES) expect(text).not.toContain(value);
}

describe.each(DATABASES)('reports on $name', (database) => {
  const s = useReportApp(database, 'https://trackcheck.example');

  async function createCheck(url: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await s.t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url }, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.slug as string;
  }

  it('shows the check with viewCount, reportUrl and evidenceUrl, never the owner', async () => {
    const { key } = await s.t.createKey('owner-user-8c1f');
    const slug = await createCheck(s.fixture.trackingLink, bearer(key));
    const res = await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const report = res.json().data;
    expect(Object.keys(report).sort()).toEqual([...CHECK_FIELDS, 'viewCount', 'reportUrl', 'evidenceUrl'].sort());
    expect(report).toMatchObject({
      slug,
      url: s.fixture.trackingLink,
      status: 'completed',
      networkId: 'awin',
      willTrack: true,
      viewCount: 1,
      reportUrl: `https://trackcheck.example/r/${slug}`,
      evidenceUrl: `https://trackcheck.example/v1/reports/${slug}/evidence`,
    });
    expect(res.body).not.toContain('owner-user-8c1f');
    expectNoCookieValues(res.body);
    // The same check fields as GET /v1/checks/:slug.
    const check = (await s.t.app.inject({ method: 'GET', url: `/v1/checks/${slug}` })).json().data;
    const { viewCount, reportUrl, evidenceUrl, ...fields } = report;
    expect(fields).toEqual(check);
    expect([viewCount, reportUrl, evidenceUrl].every((v) => v !== undefined)).toBe(true);
  });

  it('adds exactly one view per 200: not on evidence, checks, HEAD or 404', async () => {
    const slug = await createCheck(s.fixture.trackingLink);
    const read = async () => (await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` })).json().data.viewCount as number;
    expect(await read()).toBe(1);
    expect(await read()).toBe(2);
    await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}/evidence` });
    await s.t.app.inject({ method: 'GET', url: `/v1/checks/${slug}` });
    const head = await s.t.app.inject({ method: 'HEAD', url: `/v1/reports/${slug}` });
    expect(head.statusCode).toBe(200);
    expect(await read()).toBe(3);
    const missing = await s.t.app.inject({ method: 'GET', url: '/v1/reports/nosuchslug0000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
    expect(missing.headers['x-ratelimit-remaining']).toBeDefined();
    const missingEvidence = await s.t.app.inject({ method: 'GET', url: '/v1/reports/nosuchslug0000/evidence' });
    expect(missingEvidence.statusCode).toBe(404);
    expect(missingEvidence.json().error.code).toBe('not_found');
  });

  it('counts 50 concurrent reads exactly: +50, every response a distinct count', async () => {
    const slug = await createCheck(s.fixture.trackingLink);
    const before = (await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` })).json().data.viewCount as number;
    // Fifty different callers so the per-minute limit does not interfere.
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}`, remoteAddress: `198.51.100.${i + 1}` }),
      ),
    );
    const counts = responses.map((r) => {
      expect(r.statusCode).toBe(200);
      return r.json().data.viewCount as number;
    });
    expect(new Set(counts).size).toBe(50);
    expect(Math.min(...counts)).toBe(before + 1);
    expect(Math.max(...counts)).toBe(before + 50);
    const row = await s.t.ctx.store.checks.get(slug);
    expect(row?.view_count).toBe(before + 50);
  });

  it('refuses a bad bearer token with 401 instead of reading anonymously', async () => {
    const slug = await createCheck(s.fixture.trackingLink);
    for (const url of [`/v1/reports/${slug}`, `/v1/reports/${slug}/evidence`]) {
      const res = await s.t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nonsense' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    }
    expect((await s.t.ctx.store.checks.get(slug))?.view_count).toBe(0);
  });

  it('serves the evidence file: every item, URLs verbatim, other lines ≤ 100 columns, stable, no cookie values, digest of the check', async () => {
    const slug = await createCheck(s.fixture.strippedLink);
    const res = await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}/evidence` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="evidence-${slug}.txt"`);
    const text = res.body;
    expectNoCookieValues(text);
    for (const line of text.split('\n')) if (!/^\s*https?:\/\//.test(line)) expect(Array.from(line).length, line).toBeLessThanOrEqual(100);
    const check = (await s.t.app.inject({ method: 'GET', url: `/v1/checks/${slug}` })).json().data;
    expect(evidenceField(text, 'Service')).toBe(`trackcheck ${VERSION}`);
    expect(evidenceField(text, 'Check')).toBe(slug);
    expect(evidenceField(text, 'Report')).toBe(`https://trackcheck.example/r/${slug}`);
    expect(evidenceField(text, 'Submitted URL')).toBe(s.fixture.strippedLink);
    expect(evidenceField(text, 'Check type')).toBe('link');
    expect(evidenceField(text, 'Submitted at')).toBe(check.createdAt);
    expect(evidenceField(text, 'Started at')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(evidenceField(text, 'Finished at')).toBe(check.completedAt);
    expect(evidenceField(text, 'Checked by')).toBe(`trackcheck ${VERSION}`);
    expect(evidenceField(text, 'User agent')).toMatch(/^Mozilla\/5\.0 .*Chrome\/\d+/);
    expect(evidenceField(text, 'Limits')).toBe(
      'at most 20 redirects, 10 s per hop, 30 s per pass, 120 s per check in all, 512 KiB of each page read',
    );
    // The record is for the evidence file: the check the API serves (and the digest covers) does not carry it.
    expect(Object.keys(check)).not.toContain('engine');
    expect(evidenceField(text, 'Final URL')).toBe(check.finalUrl);
    expect(evidenceField(text, 'Final status')).toBe(String(check.finalStatus));
    expect(text).toContain('WILL NOT TRACK');
    expect(evidenceField(text, 'Health score')).toBe(`${check.healthScore}/100`);
    check.hops.forEach((hop: { url: string; status: number }, i: number) => {
      expect(text).toMatch(new RegExp(`^ {2}${i} {2}${hop.status} `, 'm'));
    });
    // Cookies by name, domain and lifetime, never their values.
    expect(text).toMatch(
      /Cookies {5}1\. aw12345 \(third-party\)\n {22}domain \.?awin1\.com, path \/, expires \d{4}-\d\d-\d\dT[^ ]+Z \(30 days\), HttpOnly\n/,
    );
    expect(text).toMatch(/ {19}2\. awsess \(third-party\)\n {22}domain www\.awin1\.com, path \/, session cookie\n/);
    expect(text).toMatch(/Params {6}added awc, utm_source/);
    expect(check.issues.length).toBeGreaterThan(0);
    for (const issue of check.issues) {
      expect(text).toContain(issue.code);
      expect(text).toContain('Fix');
    }
    expect(text).toContain('tracking_parameter_stripped');
    const digest = evidenceField(text, 'SHA-256');
    expect(digest).toBe(sha256Hex(canonicalJson(check)));
    // A pure function of the check: the same bytes every time, and reading it is not a view.
    const again = await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}/evidence` });
    expect(again.body).toBe(text);
    expect((await s.t.ctx.store.checks.get(slug))?.view_count).toBe(0);
    // The digest also matches the report as served, minus its three volatile fields.
    const {
      viewCount: _v,
      reportUrl: _r,
      evidenceUrl: _e,
      ...fields
    } = (await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` })).json().data;
    expect(sha256Hex(canonicalJson(fields))).toBe(digest);
  });

  it('gives a running check an evidence file that says so', async () => {
    const t2 = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: s.fixture.web.resolveSpec, TRACKCHECK_SYNC_WAIT_MS: '50' } });
    try {
      const res = await t2.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: s.fixture.slowLink } });
      expect(res.statusCode).toBe(202);
      const slug = res.json().data.slug as string;
      const evidence = await t2.app.inject({ method: 'GET', url: `/v1/reports/${slug}/evidence` });
      expect(evidence.statusCode).toBe(200);
      expect(evidence.body).toContain('NO VERDICT YET');
      expect(evidenceField(evidence.body, 'Finished at')).toBe('not finished');
      const report = await t2.app.inject({ method: 'GET', url: `/v1/reports/${slug}` });
      expect(report.json().data).toMatchObject({ viewCount: 1, willTrack: null, hops: [] });
      await t2.ctx.waiter.waitFor(slug, 10_000);
    } finally {
      await t2.close();
    }
  });
});

const exec = promisify(execFile);

describe('the documented verification commands, against a running service', () => {
  let fixture: ReportWeb;
  let service: RunningService;
  let dataDir: string;

  beforeAll(async () => {
    fixture = await startReportWeb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-verify-'));
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_RESOLVE: fixture.web.resolveSpec });
  });
  afterAll(async () => {
    await service?.stop();
    await fixture?.web.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const bash = async (script: string, env: Record<string, string> = {}) =>
    (await exec('bash', ['-c', script], { env: { ...process.env, ...env } })).stdout;

  it('the one-liner in docs/evidence.md, the commands printed in the file, and jq all reproduce its digest', async () => {
    const created = await fetch(`${service.url}/v1/checks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: fixture.strippedLink }),
    });
    expect(created.status).toBe(201);
    const slug = ((await created.json()) as { data: { slug: string } }).data.slug;
    const evidence = await (await fetch(`${service.url}/v1/reports/${slug}/evidence`)).text();
    const digest = evidenceField(evidence, 'SHA-256');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    const env = { BASE: service.url, SLUG: slug };

    // The documented one-liner is the one the code knows, verbatim.
    const docs = readFileSync('docs/evidence.md', 'utf8');
    const oneLiner = docs.split('\n').find((line) => line.startsWith('curl -s "$BASE/v1/reports/$SLUG" | node -e'));
    expect(oneLiner).toBe(verifyCommands(service.url, slug).nodeOneLine);
    expect(readFileSync('README.md', 'utf8')).toContain(`  ${oneLiner}\n`);
    expect((await bash(oneLiner ?? 'false', env)).trim()).toBe(`${digest}  -`);

    // The lines the evidence file prints under "Verify", run exactly as printed.
    const lines = evidence.split('\n');
    const start = lines.findIndex((l) => l.startsWith("  BASE='"));
    const end = lines.indexOf('', start);
    const printed = lines
      .slice(start, end)
      .map((l) => l.slice(2))
      .join('\n');
    expect(printed).toContain(`BASE='${service.url}' SLUG='${slug}'`);
    expect((await bash(printed)).trim()).toBe(`${digest}  -`);

    const jqLine = docs.split('\n').find((line) => line.startsWith('curl -s "$BASE/v1/reports/$SLUG" | jq'));
    expect(jqLine).toBe(verifyCommands(service.url, slug).jqOneLine);
    expect((await bash(jqLine ?? 'false', env)).trim()).toBe(`${digest}  -`);

    // The grep form accepts the genuine file and refuses a tampered one.
    const grepLine = (docs.split('\n').find((line) => line.startsWith('grep -q "SHA-256')) ?? 'false').replace(
      "node -e '…the script above…'",
      (oneLiner ?? '').slice(oneLiner?.indexOf('node -e') ?? 0, oneLiner?.lastIndexOf(' | sha256sum')),
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-evidence-'));
    try {
      writeFileSync(path.join(dir, `evidence-${slug}.txt`), evidence);
      expect((await bash(`cd "${dir}" && ${grepLine}`, env)).trim()).toBe('verified');
      writeFileSync(
        path.join(dir, `evidence-${slug}.txt`),
        evidence.replace(
          digest,
          digest.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
        ),
      );
      await expect(bash(`cd "${dir}" && ${grepLine}`, env)).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
