// The pages get the API's per-minute limits (issue 13): per IP anonymous, per user signed in, per route
// template, HEAD on its GET's counter; over the limit a browser gets a 429 page, any other client the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, HTML_ACCEPT, signInWithLink } from './signin-helpers.js';

const HTML = { accept: HTML_ACCEPT };

describe('rate limits on the web pages', () => {
  let web: AffiliateWeb;
  let t: TestApp;
  let slug: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    // A long chain with a cookie per hop and long URLs: a report that is costly to render.
    const steps = Array.from({ length: 15 }, (_, i) => ({
      host: `hop${i}.example-network.com`,
      path: `/r${i}?click=${'x'.repeat(1500)}&n=${i}`,
      setCookies: [`c${i}=v; Max-Age=86400; Path=/`],
    }));
    const start = web.chain(steps, '<html><head><title>Landing</title></head><body>shop</body></html>');
    t = await startTestApp({ env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_RATE_LIMIT: '5' } });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/checks',
      payload: { url: start },
      headers: { authorization: `Bearer ${await t.sessionToken('owner')}` },
    });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    slug = created.json().data.slug;
  });
  afterAll(async () => {
    await t.close();
    await web.close();
  });

  it('lets 20 of 40 parallel anonymous reads of a large report through; the rest get a 429 page, and no view', async () => {
    const first = await t.app.inject({ method: 'GET', url: `/r/${slug}`, headers: HTML, remoteAddress: '203.0.113.1' });
    expect(first.statusCode).toBe(200);
    expect(first.body.length).toBeGreaterThan(30_000);
    const reads = await Promise.all(
      Array.from({ length: 40 }, () => t.app.inject({ method: 'GET', url: `/r/${slug}`, headers: HTML, remoteAddress: '203.0.113.2' })),
    );
    const ok = reads.filter((r) => r.statusCode === 200);
    const limited = reads.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(20);
    expect(limited).toHaveLength(20);
    const over = limited[0];
    if (!over) throw new Error('no 429');
    expect(over.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(over.headers['x-ratelimit-limit']).toBe('20');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.headers['x-request-id']).toMatch(/^req_/);
    expect(over.body).toContain(`Retry in ${String(over.headers['retry-after'])} seconds`);
    // Refused reads count no view: 1 + 20 views, so the API's next read is the 22nd.
    const api = await t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` });
    expect(api.json().data.viewCount).toBe(22);
    // A client that does not ask for HTML gets the contract's envelope.
    const json = await t.app.inject({ method: 'GET', url: `/r/${slug}`, remoteAddress: '203.0.113.2' });
    expect(json.statusCode).toBe(429);
    expect(json.json().error).toMatchObject({
      type: 'invalid_request_error',
      code: 'rate_limited',
      request_id: json.headers['x-request-id'],
    });
  });

  it('limits every page and form, anonymous per IP and route template', async () => {
    const pages: Array<[method: 'GET' | 'POST', url: string]> = [
      ['GET', '/'],
      ['POST', '/'],
      ['GET', `/r/${slug}`],
      ['GET', '/r/no-such-report-here'],
      ['GET', '/checks'],
      ['GET', '/auth/signin'],
      ['GET', '/auth/oidc'],
      ['GET', '/auth/callback'],
      ['GET', '/auth/login?token=x'],
      ['POST', '/auth/login'],
      ['GET', '/auth/signout'],
      ['POST', '/auth/signout'],
      ['GET', '/settings'],
      ['GET', '/settings/keys'],
      ['POST', '/settings/keys'],
      ['GET', '/settings/keys/00000000-0000-4000-8000-000000000001/revoke'],
      ['POST', '/settings/keys/00000000-0000-4000-8000-000000000001/revoke'],
      ['GET', '/batches'],
      ['POST', '/batches'],
      ['GET', '/batches/00000000-0000-4000-8000-000000000001'],
      ['GET', '/scans'],
      ['POST', '/scans'],
      ['GET', '/scans/00000000-0000-4000-8000-000000000001'],
    ];
    for (const [method, url] of pages) {
      const remoteAddress = `198.51.100.${pages.findIndex(([m, u]) => m === method && u === url) + 1}`;
      const send = () =>
        t.app.inject({
          method,
          url,
          headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
          payload: method === 'POST' ? 'a=b' : undefined,
          remoteAddress,
        });
      const answers = [];
      for (let i = 0; i < 21; i++) answers.push(await send());
      expect(answers[0]?.headers['x-ratelimit-limit'], `${method} ${url}`).toBe('20');
      expect(answers[19]?.statusCode, `${method} ${url}`).not.toBe(429);
      expect(answers[20]?.statusCode, `${method} ${url}`).toBe(429);
    }
  });

  it('counts a signed-in visitor per user, whatever the address', async () => {
    const browser = new Browser(t.app);
    await signInWithLink(browser, t.dataDir, 'reader');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await browser.get('/checks', { 'x-forwarded-for': `192.0.2.${i}` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('counts a HEAD against its GET route, on pages and on the API', async () => {
    const heads = [];
    for (let i = 0; i < 20; i++) heads.push(await t.app.inject({ method: 'HEAD', url: `/r/${slug}`, remoteAddress: '192.0.2.200' }));
    expect(heads.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(Array.from({ length: 20 }, (_, i) => String(19 - i)));
    expect((await t.app.inject({ method: 'GET', url: `/r/${slug}`, headers: HTML, remoteAddress: '192.0.2.200' })).statusCode).toBe(429);

    const url = `/v1/checks/${slug}`;
    for (let i = 0; i < 10; i++) {
      await t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.201' });
      await t.app.inject({ method: 'HEAD', url, remoteAddress: '192.0.2.201' });
    }
    const over = await t.app.inject({ method: 'HEAD', url, remoteAddress: '192.0.2.201' });
    expect(over.statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.201' })).statusCode).toBe(429);
  });
});
