// Affiliate-web chains for the report, evidence and page tests. Every cookie carries a distinctive value that
// must never appear in any response, page or evidence file.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

export const COOKIE_VALUES = ['AWIN-SECRET-7f3a9c11', 'MERCHANT-SECRET-41d2e8aa', 'SESSION-SECRET-99bb0c'];

export interface ReportWeb {
  web: AffiliateWeb;
  /** Awin → merchant, click id kept, cookies on both: will track. */
  trackingLink: string;
  /** Awin → merchant redirect that drops the click id: will not track. */
  strippedLink: string;
  /** A landing page that answers slowly (for progress pages). */
  slowLink: string;
  /** Slower than the web form's wait, so the browser sees the progress page first. */
  verySlowLink: string;
  /** Bot protection answers instead of the shop: could not verify. */
  walledLink: string;
}

export async function startReportWeb(): Promise<ReportWeb> {
  const web = await startAffiliateWeb();
  const landing = web.url('www.example-shoes.co.uk', '/trainers/air-zoom');
  const broken = web.url('www.broken-shop.example', '/go');
  web.route('www.awin1.com', '/cread.php', (_req, res, ctx) => {
    const stripped = ctx.query.get('awinmid') === '999';
    res.statusCode = 302;
    res.setHeader('set-cookie', [
      `aw12345=${COOKIE_VALUES[0]}; Max-Age=2592000; Path=/; Domain=.awin1.com; HttpOnly`,
      `awsess=${COOKIE_VALUES[2]}; Path=/`,
    ]);
    res.setHeader('location', `${stripped ? broken : landing}?awc=12345_1700000000_abcdef&utm_source=aw`);
    res.end();
  });
  web.page('www.example-shoes.co.uk', '/trainers/air-zoom', {
    html: '<html><head><title>Air Zoom</title></head><body>Trainers</body></html>',
    setCookies: [`_aw_m_12345=${COOKIE_VALUES[1]}; Max-Age=31536000; Path=/; SameSite=Lax`],
  });
  web.redirect('www.broken-shop.example', '/go', web.url('www.broken-shop.example', '/p/1'), { status: 301 });
  web.page('www.broken-shop.example', '/p/1', '<html><head><title>Shop</title></head><body>Product</body></html>');
  web.page('slow.example-merchant.com', '/', { html: '<title>slow</title>', delayMs: 1500 });
  web.page('www.walled-shop.example', '/p/1', {
    status: 403,
    html: '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
    headers: { 'cf-mitigated': 'challenge' },
  });
  web.page('slow.example-merchant.com', '/very', { html: '<title>very slow</title>', delayMs: 4500 });
  const deepLink = encodeURIComponent(landing);
  return {
    web,
    trackingLink: web.url('www.awin1.com', `/cread.php?awinmid=12345&awinaffid=678&clickref=dispute-42&ued=${deepLink}`),
    strippedLink: web.url('www.awin1.com', `/cread.php?awinmid=999&awinaffid=678&ued=${encodeURIComponent(broken)}`),
    slowLink: web.url('slow.example-merchant.com', '/'),
    verySlowLink: web.url('slow.example-merchant.com', '/very'),
    walledLink: web.url('www.walled-shop.example', '/p/1'),
  };
}

/** A labelled evidence field's value, with wrapped continuation lines joined back together. */
/**
 * Inside a describe: the report fixture web, started once for the suite, and a fresh app on `database` for each
 * test that resolves the fixture's hosts and names `publicUrl` as its own.
 */
export function useReportApp(database: DatabaseKind, publicUrl: string): { readonly fixture: ReportWeb; readonly t: TestApp } {
  const suite = {} as { fixture: ReportWeb; t: TestApp };
  beforeAll(async () => {
    suite.fixture = await startReportWeb();
  });
  afterAll(async () => {
    await suite.fixture.web.close();
  });
  beforeEach(async () => {
    suite.t = await startTestApp({
      database,
      env: { TRACKCHECK_RESOLVE: suite.fixture.web.resolveSpec, TRACKCHECK_PUBLIC_URL: publicUrl },
    });
  });
  afterEach(async () => {
    await suite.t.close();
  });
  return suite;
}

export function evidenceField(text: string, label: string, indent = 2, labelWidth = 16): string {
  const lines = text.split('\n');
  // A URL field: the label alone, the URL verbatim on the next line (trackcheck-evidence/2).
  const urlAt = lines.indexOf(`${' '.repeat(indent)}${label}`);
  if (urlAt >= 0) return (lines[urlAt + 1] ?? '').trim();
  const start = lines.findIndex((l) => l.startsWith(`${' '.repeat(indent)}${label.padEnd(labelWidth)}`));
  if (start < 0) throw new Error(`no field ${label}`);
  const prefix = ' '.repeat(indent + labelWidth);
  let value = (lines[start] ?? '').slice(indent + labelWidth);
  for (let i = start + 1; i < lines.length && (lines[i] ?? '').startsWith(prefix) && (lines[i] ?? '').trim() !== ''; i += 1) {
    value += ` ${(lines[i] ?? '').slice(prefix.length)}`; // wrapped prose (URLs are never wrapped)
  }
  return value;
}
