// Every response carries X-Content-Type-Options: nosniff, and every HTML response (pages, error pages, /docs) the one
// strict Content-Security-Policy, which names each inline stylesheet and script of the page by hash (issue 13).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { contentSecurityPolicy } from '../../src/http/security-headers.js';
import { HTML_INLINE_ASSETS } from '../../src/app.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

const HTML = { accept: 'text/html' };
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('security headers', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_METRICS_TOKEN: 'metrics-token-0123456789', TRACKCHECK_SYNC_WAIT_MS: '0' } });
    token = await t.sessionToken('headers');
  });
  afterAll(async () => {
    await t.close();
  });

  function expectHeaders(res: LightMyRequestResponse, what: string): void {
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    const html = String(res.headers['content-type'] ?? '').startsWith('text/html');
    if (!html) {
      expect(res.headers['content-security-policy'], what).toBeUndefined();
      return;
    }
    const csp = String(res.headers['content-security-policy']);
    expect(csp, what).toBe(contentSecurityPolicy(HTML_INLINE_ASSETS));
    for (const style of res.body.match(/<style>([\s\S]*?)<\/style>/g) ?? []) expect(csp, what).toContain(sha(style.slice(7, -8)));
    for (const script of res.body.match(/<script>([\s\S]*?)<\/script>/g) ?? []) expect(csp, what).toContain(sha(script.slice(8, -9)));
    expect(res.body, what).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet|\sstyle="/);
  }

  it('puts nosniff on every response and the policy on every HTML one, /docs included', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: 'https://www.awin1.com/cread.php?a=1' } });
    const slug = created.json().data.slug as string;
    const requests: Array<{ method?: 'GET' | 'POST' | 'PATCH' | 'HEAD'; url: string; headers?: Record<string, string>; payload?: string }> =
      [
        { url: '/docs' },
        { url: '/openapi.json' },
        { url: '/health' },
        { url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } },
        { url: '/metrics' },
        { url: '/v1/keys', headers: bearer(token) },
        { url: '/v1/keys' },
        { url: `/v1/checks/${slug}` },
        { url: `/v1/reports/${slug}/evidence` },
        { url: '/v1/checks/nosuchcheck' },
        { method: 'PATCH', url: '/v1/keys', headers: bearer(token) },
        { method: 'POST', url: '/v1/keys', headers: { ...bearer(token), 'content-type': 'text/plain' }, payload: 'x' },
        { url: '/no/such/route' },
        { url: '/no/such/route', headers: HTML },
        { url: '/', headers: HTML },
        { url: `/r/${slug}`, headers: HTML },
        { method: 'HEAD', url: `/r/${slug}`, headers: HTML },
        { url: '/r/nosuchreport', headers: HTML },
        { url: '/r/nosuchreport' },
        { url: '/auth/signin', headers: HTML },
        { url: '/checks', headers: HTML },
        { method: 'POST', url: '/', headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'url=' },
        { url: '/v1/checks/%00' },
      ];
    for (const request of requests) {
      const res = await t.app.inject({
        method: request.method ?? 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      expectHeaders(res, `${request.method ?? 'GET'} ${request.url} → ${res.statusCode}`);
    }
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.headers['content-security-policy']).toContain("default-src 'none'");
    expect(docs.body).toContain('<style>');
  });
});
