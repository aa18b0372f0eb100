import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

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
].sort();

describe.each(DATABASES)('checks on $name', (database) => {
  let web: AffiliateWeb;
  let t: TestApp;
  let awinLink: string;
  let slowLink: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const landing = web.url('www.example-shoes.co.uk', '/trainers/air-zoom');
    web.route('www.awin1.com', '/cread.php', (_req, res, ctx) => {
      res.statusCode = 302;
      res.setHeader('set-cookie', 'aw12345=secret-cookie-value; Max-Age=2592000; Path=/; Domain=.awin1.com');
      res.setHeader('location', `${landing}?awc=12345_1700000000_abc&utm_source=aw`);
      void ctx;
      res.end();
    });
    web.page('www.example-shoes.co.uk', '/trainers/air-zoom', {
      html: '<html><head><title>Air Zoom</title></head><body>Trainers</body></html>',
      setCookies: ['_aw_m_12345=first-party-value; Max-Age=31536000; Path=/'],
    });
    web.page('slow.example-merchant.com', '/', { html: '<title>slow</title>', delayMs: 1500 });
    awinLink = web.url('www.awin1.com', '/cread.php?awinmid=12345&awinaffid=678&ued=' + encodeURIComponent(landing));
    slowLink = web.url('slow.example-merchant.com', '/');
  });
  afterAll(async () => {
    await web.close();
  });

  beforeEach(async () => {
    t = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: web.resolveSpec } });
  });
  afterEach(async () => {
    await t.close();
  });

  it('checks a link synchronously and returns every field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink } });
    expect(res.statusCode, res.body).toBe(201);
    const check = res.json().data;
    expect(Object.keys(check).sort()).toEqual(CHECK_FIELDS);
    expect(check).toMatchObject({
      url: awinLink,
      checkType: 'link',
      status: 'completed',
      networkId: 'awin',
      network: 'Awin',
      mode: 'http',
      error: null,
    });
    expect(check.slug).toMatch(/^[0-9a-z]{14}$/);
    expect(check.hops).toHaveLength(2);
    expect(check.redirectCount).toBe(1);
    expect(check.trackingParameterPresent).toBe(true);
    expect(check.firstPartyCookieSet).toBe(true);
    expect(check.willTrack).toBe(true);
    expect(check.verdict).toBe('will_track');
    expect(res.body).not.toContain('secret-cookie-value');
    expect(res.body).not.toContain('first-party-value');

    const got = await t.app.inject({ method: 'GET', url: `/v1/checks/${check.slug}` });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(check);
  });

  it('accepts the camelCase spelling of check_type, alone or with the same value (CONTRACT.md section 7)', async () => {
    for (const payload of [
      { url: awinLink, checkType: 'link' },
      { url: awinLink, checkType: 'link', check_type: 'link' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.checkType).toBe('link');
    }
    const both = await t.app.inject({
      method: 'POST',
      url: '/v1/checks',
      payload: { url: awinLink, checkType: 'link', check_type: 'cmp' },
    });
    expect(both.json().error.message).toMatch(/checkType.*check_type/);
  });

  it('says no_tracking_found for a plain merchant page: it lands, but nobody is credited', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/checks',
      payload: { url: web.url('www.example-shoes.co.uk', '/trainers/air-zoom') },
    });
    expect(res.json().data).toMatchObject({
      status: 'completed',
      verdict: 'no_tracking_found',
      willTrack: false,
      finalStatus: 200,
      networks: [],
    });
  });

  it('answers 202 with Location when the check outlasts the sync wait, then completes', async () => {
    const t2 = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_SYNC_WAIT_MS: '100' } });
    try {
      const res = await t2.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: slowLink } });
      expect(res.statusCode).toBe(202);
      const { slug, status } = res.json().data;
      expect(['queued', 'running']).toContain(status);
      expect(res.headers.location).toBe(`/v1/checks/${slug}`);
      const done = await t2.ctx.waiter.waitFor(slug, 10_000);
      expect(done?.status).toBe('completed');
      const got = await t2.app.inject({ method: 'GET', url: `/v1/checks/${slug}` });
      expect(got.json().data.status).toBe('completed');
    } finally {
      await t2.close();
    }
  });

  it('refuses bad URLs with the contract codes and creates nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'missing_parameter'],
      [{ url: 42 }, 400, 'invalid_parameter'],
      [{ url: 'not a url' }, 400, 'invalid_url'],
      [{ url: '' }, 400, 'invalid_url'],
      [{ url: '/relative/path' }, 400, 'invalid_url'],
      [{ url: 'javascript:alert(1)' }, 400, 'url_not_allowed'],
      [{ url: 'ftp://files.example.com/x' }, 400, 'url_not_allowed'],
      [{ url: 'http://user:pass@shop.example.com/' }, 400, 'url_not_allowed'],
      [{ url: 'http://127.0.0.1/admin' }, 400, 'url_not_allowed'],
      [{ url: 'http://2130706433/' }, 400, 'url_not_allowed'],
      [{ url: 'http://[::1]/' }, 400, 'url_not_allowed'],
      [{ url: 'http://169.254.169.254/latest/meta-data/' }, 400, 'url_not_allowed'],
      [{ url: 'http://10.0.0.1/' }, 400, 'url_not_allowed'],
      [{ url: awinLink, check_type: 'full' }, 400, 'invalid_parameter'],
      [{ url: awinLink, extra: 1 }, 400, 'invalid_parameter'],
      [{ url: awinLink, checkType: 'full' }, 400, 'invalid_parameter'],
      [{ url: awinLink, checkType: 'link', check_type: 'cmp' }, 400, 'invalid_parameter'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const rows = await t.ctx.store.db.selectFrom('checks').selectAll().execute();
    expect(rows).toHaveLength(0);
    // Refused submissions do not use up the anonymous allowance.
    expect((await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink } })).statusCode).toBe(201);
  });

  it('caps anonymous checks at 3 per type per ISO week per IP, durably, with Retry-After to Monday', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, remoteAddress: ip });
      expect(res.statusCode).toBe(201);
    }
    const capped = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, remoteAddress: ip });
    expect(capped.statusCode).toBe(429);
    expect(capped.json().error).toMatchObject({ type: 'usage_limit_error', code: 'anonymous_check_limit_reached' });
    const now = t.clock.now();
    const day = 86_400_000;
    const monday = Math.floor(now / day) * day + ((8 - new Date(now).getUTCDay()) % 7 || 7) * day;
    expect(Number(capped.headers['retry-after'])).toBe(Math.ceil((monday - now) / 1000));
    // Another check type, another IP and an authenticated user each have their own allowance.
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink, check_type: 'cmp' }, remoteAddress: ip }))
        .statusCode,
    ).toBe(201);
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, remoteAddress: '203.0.113.8' })).statusCode,
    ).toBe(201);
    const { key } = await t.createKey('alice');
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, headers: bearer(key), remoteAddress: ip }))
        .statusCode,
    ).toBe(201);

    // Durable: a restarted service over the same database still refuses.
    await t.app.close();
    await t.ctx.close();
    const again = await startTestApp({
      database: { name: database.name, create: async () => t.database },
      env: { TRACKCHECK_RESOLVE: web.resolveSpec },
    });
    const still = await again.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, remoteAddress: ip });
    expect(still.statusCode).toBe(429);
    // Next ISO week: allowed again.
    again.clock.set(monday + 1000);
    expect((await again.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, remoteAddress: ip })).statusCode).toBe(
      201,
    );
    await again.app.close();
    await again.ctx.close();
    t = { ...t, app: again.app, ctx: again.ctx, close: async () => t.database.drop() } as TestApp;
  });

  it('lists the caller’s checks newest first with cursor pagination', async () => {
    const { key } = await t.createKey('alice');
    const other = await t.createKey('bob');
    const slugs: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      const res = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, headers: bearer(key) });
      slugs.push(res.json().data.slug);
    }
    await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink }, headers: bearer(other.key) });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await t.app.inject({ method: 'GET', url: `/v1/checks${query}`, headers: bearer(key) });
      expect(page.statusCode).toBe(200);
      const body = page.json();
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((c: { slug: string }) => c.slug));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...slugs].reverse());
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?cursor=garbage', '?other=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/checks${q}`, headers: bearer(key) });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('invalid_parameter');
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/checks' })).json().error.code).toBe('authentication_required');
  });

  it('answers 404 for an unknown slug', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/v1/checks/doesnotexist00' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('ends cmp checks failed with browser_unavailable when there is no Chromium', async () => {
    const noBrowser = await startTestApp({
      database,
      env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    try {
      const cmp = await noBrowser.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: awinLink, check_type: 'cmp' } });
      expect(cmp.statusCode).toBe(201);
      expect(cmp.json().data).toMatchObject({ status: 'failed', checkType: 'cmp', willTrack: null });
      expect(cmp.json().data.error.code).toBe('browser_unavailable');
      expect(cmp.json().data.error.message).toMatch(/chromium|browser/i);
      const health = await noBrowser.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await noBrowser.close();
    }
  });
});
