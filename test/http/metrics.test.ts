import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('exposes request counts by route template, latencies, checks, queue depth and browser state', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/v1/checks/aaaaaaaaaaaaaa' });
    await t.app.inject({ method: 'GET', url: '/v1/checks/bbbbbbbbbbbbbb' });
    await t.app.inject({ method: 'GET', url: '/no/such/page' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
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
  });
});
