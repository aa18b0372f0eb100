import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
const scrape = (t: TestApp) => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRACKCHECK_METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('exposes request counts by route template, latencies, checks, queue depth and browser state', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/v1/checks/aaaaaaaaaaaaaa' });
    await t.app.inject({ method: 'GET', url: '/v1/checks/bbbbbbbbbbbbbb' });
    await t.app.inject({ method: 'GET', url: '/no/such/page' });
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toContain('trackcheck_http_requests_total{method="GET",route="/health",status="200"} 1');
    // Slugs collapse into the route template: the label set stays bounded.
    expect(text).toContain('trackcheck_http_requests_total{method="GET",route="/v1/checks/:slug",status="404"} 2');
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).toContain('trackcheck_http_request_duration_seconds_bucket');
    expect(text).toContain('trackcheck_queue_jobs{state="queued"} 0');
    expect(text).toContain('trackcheck_browser_pool_state');
    expect(text).toContain('# TYPE trackcheck_checks_finished_total counter');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('answers only to its bearer token (issue 13)', async () => {
    const cases: Array<[headers: Record<string, string>, code: string]> = [
      [{}, 'authentication_required'],
      [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, 'invalid_credentials'],
      [{ authorization: `Bearer ${TOKEN}x` }, 'invalid_credentials'],
      [{ authorization: 'Bearer x' }, 'invalid_credentials'],
      [{ authorization: `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}` }, 'invalid_credentials'],
      [{ authorization: TOKEN }, 'invalid_credentials'],
    ];
    for (const [headers, code] of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().error).toMatchObject({ type: 'authentication_error', code, request_id: res.headers['x-request-id'] });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('trackcheck_');
    }
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer  ${TOKEN}` } })).statusCode).toBe(200);
  });
});

describe('the browser state on /health and /metrics', () => {
  /** The state the gauge marks with 1, and every state it lists. */
  async function gauge(t: TestApp): Promise<{ current: string[]; listed: string[] }> {
    const lines = (await scrape(t)).body.split('\n').filter((l) => l.startsWith('trackcheck_browser_pool_state{'));
    const parse = (l: string) => /state="([^"]+)"\} (\d)/.exec(l) ?? [];
    return {
      current: lines
        .map(parse)
        .filter((m) => m[2] === '1')
        .map((m) => String(m[1])),
      listed: lines.map((l) => String(parse(l)[1])),
    };
  }

  it.each([
    ['no browser binary', { TRACKCHECK_CHROMIUM_PATH: '/nonexistent/chromium' }, 'unavailable'],
    ['a browser never needed yet', { TRACKCHECK_CHROMIUM_PATH: process.execPath }, 'not started'],
  ])('agree, from the pool itself, with %s (issue 13)', async (_name, env, expected) => {
    const t = await startTestApp({ worker: false, env: { TRACKCHECK_METRICS_TOKEN: TOKEN, ...env } });
    try {
      const health = (await t.app.inject({ method: 'GET', url: '/health' })).json();
      expect(health.browser).toBe(expected);
      expect(t.ctx.browser.state()).toBe(expected);
      const { current, listed } = await gauge(t);
      expect(current).toEqual([health.browser]);
      expect(listed.sort()).toEqual(['available', 'not started', 'unavailable']);
    } finally {
      await t.close();
    }
  });
});

describe('/metrics without TRACKCHECK_METRICS_TOKEN', () => {
  it('does not exist: 404 like any unknown route, whatever the credentials', async () => {
    const t = await startTestApp({ worker: false });
    try {
      const unknown = await t.app.inject({ method: 'GET', url: '/no-such-route' });
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'not_found', message: 'No route for GET /metrics.' });
        expect(Object.keys(res.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
      }
    } finally {
      await t.close();
    }
  });
});
