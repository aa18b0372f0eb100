// The browser inside the service: /health reports it (and stays 200), link checks escalate through the API,
// cmp checks complete with `consent` — or fail with browser_unavailable when TRACKCHECK_CHROMIUM_PATH
// points nowhere, while the rest of the service carries on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { startTestApp, type TestApp } from '../../helpers/test-app.js';
import { CHROMIUM, SKIP_REASON } from './browser-helpers.js';

interface CheckBody {
  data: {
    status: string;
    mode: string | null;
    error: { code: string; message: string } | null;
    consent: unknown;
    willTrack: boolean | null;
  };
}

function installSite(web: AffiliateWeb): { jsLink: string; cmpLink: string } {
  const landing = web.url('www.shop.example', '/p/1?awc=12345_svc');
  web.page('go.cloak.example', '/r', { html: `<script>var to = [${JSON.stringify(landing)}][0]; location.href = to;</script>` });
  web.page('www.shop.example', '/p/1', '<title>Shoe</title>');
  web.redirect('www.awin1.com', '/cread.php', web.url('www.banner-shop.example', '/p/1?awc=12345_svc'));
  web.page('www.banner-shop.example', '/p/1', {
    html: `<title>Shoe</title><div class="cookie-banner" role="dialog"><button id="a">Accept all</button><button id="r">Reject all</button></div>
      <script>
        document.getElementById('a').onclick = function () { document.cookie = '_aw_m_12345=' + new URLSearchParams(location.search).get('awc') + '; max-age=86400; path=/'; this.parentNode.remove(); };
        document.getElementById('r').onclick = function () { this.parentNode.remove(); };
      </script>`,
  });
  return { jsLink: web.url('go.cloak.example', '/r'), cmpLink: web.url('www.awin1.com', '/cread.php?awinmid=12345&awinaffid=1') };
}

async function submit(t: TestApp, url: string, checkType: 'link' | 'cmp'): Promise<CheckBody['data']> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url, check_type: checkType } });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as CheckBody).data;
}

async function health(t: TestApp): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe('service without Chromium', () => {
  let web: AffiliateWeb;
  let t: TestApp;
  let links: ReturnType<typeof installSite>;
  beforeAll(async () => {
    web = await startAffiliateWeb();
    links = installSite(web);
    t = await startTestApp({ env: { TRACKCHECK_CHROMIUM_PATH: '/nonexistent/chromium', TRACKCHECK_RESOLVE: web.resolveSpec } });
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it('says the browser is unavailable, fails cmp checks clearly, and keeps link checks in HTTP mode', async () => {
    expect((await health(t))['browser']).toBe('unavailable');
    const cmp = await submit(t, links.cmpLink, 'cmp');
    expect(cmp.status).toBe('failed');
    expect(cmp.error?.code).toBe('browser_unavailable');
    expect(cmp.error?.message).toContain('/nonexistent/chromium');
    const link = await submit(t, links.jsLink, 'link');
    expect(link).toMatchObject({ status: 'completed', mode: 'http' });
    expect((await health(t))['browser']).toBe('unavailable');
  });
});

describe.skipIf(CHROMIUM === null)(`service with Chromium${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let t: TestApp;
  let links: ReturnType<typeof installSite>;
  beforeAll(async () => {
    web = await startAffiliateWeb();
    links = installSite(web);
    t = await startTestApp({ env: { TRACKCHECK_RESOLVE: web.resolveSpec } });
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it('starts Chromium only when a check needs it, then reports it available', async () => {
    expect((await health(t))['browser']).toBe('not started');
    const link = await submit(t, links.jsLink, 'link');
    expect(link).toMatchObject({ status: 'completed', mode: 'browser', finalStatus: 200 });
    expect((await health(t))['browser']).toBe('available');
    expect(t.ctx.browser.stats().launches).toBe(1);
  });

  it('completes a cmp check with its consent scenarios', async () => {
    const cmp = await submit(t, links.cmpLink, 'cmp');
    expect(cmp).toMatchObject({ status: 'completed', mode: 'browser', error: null });
    expect(cmp.consent).toEqual({
      platform: null,
      scenarios: [
        { scenario: 'no_interaction', clickIdPresent: true, attributionCookies: [] },
        { scenario: 'accept_all', clickIdPresent: true, attributionCookies: ['_aw_m_12345'] },
        { scenario: 'reject_all', clickIdPresent: true, attributionCookies: [] },
      ],
    });
    expect(t.ctx.browser.stats().launches).toBe(1);
  });
});
