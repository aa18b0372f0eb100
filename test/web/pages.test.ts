import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { DATABASES } from '../helpers/databases.js';
import { startTestApp } from '../helpers/test-app.js';
import { COOKIE_VALUES, useReportApp } from './report-fixtures.js';

// What a browser sends: pages answer errors as HTML only to clients that ask for it.
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { ...HTML, 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function expectPage(res: LightMyRequestResponse, status: number): string {
  expect(res.statusCode, res.body.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  // The only inline stylesheet and script are the ones the policy names by hash; nothing is loaded from elsewhere.
  const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
  expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)?.[1];
  if (script !== undefined) expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  // A real src attribute, not the text " src=" inside another attribute's quoted value (a hostile link in a form field).
  expect(res.body).not.toMatch(/<[a-z]+(?:\s+[a-z-]+(?:="[^"]*")?)*\s+src=/);
  for (const link of res.body.match(/<link [^>]*>/g) ?? [])
    expect(link).toMatch(/^<link (rel="icon" href="data:,"|rel="canonical" href="https?:\/\/)/);
  expect(res.body.match(/<script/g)?.length ?? 0).toBeLessThanOrEqual(1);
  for (const value of COOKIE_VALUES) expect(res.body).not.toContain(value);
  return res.body;
}

describe.each(DATABASES)('web pages on $name', (database) => {
  const s = useReportApp(database, 'https://tc.example');

  async function submit(fields: Record<string, string>, remoteAddress = '203.0.113.20') {
    return s.t.app.inject({ method: 'POST', url: '/', headers: FORM, payload: form(fields), remoteAddress });
  }

  async function submitAndFollow(url: string): Promise<{ slug: string; html: string }> {
    const res = await submit({ url });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/r\/[0-9a-z]{14}$/);
    const page = await s.t.app.inject({ method: 'GET', url: location, headers: HTML });
    return { slug: location.slice(3), html: expectPage(page, 200) };
  }

  it('home page explains the service and carries the check form', async () => {
    const html = expectPage(await s.t.app.inject({ method: 'GET', url: '/', headers: HTML }), 200);
    expect(html).toContain('<form class="check" method="post" action="/">');
    expect(html).toMatch(/<label for="url">Tracking link<\/label>/);
    expect(html).toMatch(/<input id="url" name="url" type="url" required/);
    expect(html).toContain('<h1>Will this click be attributed?</h1>');
    expect(html).toContain('<html lang="en">');
  });

  it('submitting the form lands on the report: verdict, hop picture, cookies, issues, share, Open Graph', async () => {
    const { slug, html } = await submitAndFollow(s.fixture.trackingLink);
    expect(html).toContain('This link will track');
    expect(html).toContain('class="verdict v-will_track"');
    expect(html).toMatch(/<svg [^>]*role="img"/);
    expect(html).toContain('✓ awc');
    expect(html).toContain('www.example-shoes.co.uk');
    expect(html).toContain('<code>_aw_m_12345</code>');
    expect(html).toContain(`href="/v1/reports/${slug}/evidence"`);
    expect(html).toContain(`data-copy="https://tc.example/r/${slug}"`);
    expect(html).toMatch(/<button [^>]*hidden data-copy=/);
    expect(html).toContain(`<input id="share-link" readonly value="https://tc.example/r/${slug}">`);
    expect(html).toMatch(/<meta property="og:title" content="Will track: Awin link to www\.example-shoes\.co\.uk:\d+ \| trackcheck">/);
    expect(html).toMatch(/<meta property="og:description" content="Will track: [^"]+Health \d+\/100/);
    expect(html).toContain(`<meta property="og:url" content="https://tc.example/r/${slug}">`);
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    expect(html).toContain('Viewed 1 time.');
    expect(html).not.toContain('http-equiv="refresh"');
    // The page view was a report read: the API's next read is the second.
    const api = await s.t.app.inject({ method: 'GET', url: `/v1/reports/${slug}` });
    expect(api.json().data.viewCount).toBe(2);
    const again = expectPage(await s.t.app.inject({ method: 'GET', url: `/r/${slug}`, headers: HTML }), 200);
    expect(again).toContain('Viewed 3 times.');
    // HEAD (link unfurlers) is not a view.
    expect((await s.t.app.inject({ method: 'HEAD', url: `/r/${slug}`, headers: HTML })).statusCode).toBe(200);
    expect((await s.t.ctx.store.checks.get(slug))?.view_count).toBe(3);
  });

  it('draws where the click id is lost and lists the fixes', async () => {
    const { html } = await submitAndFollow(s.fixture.strippedLink);
    expect(html).toContain('This link will not track');
    expect(html).toContain('✗ lost here');
    expect(html).toMatch(/appears at hop 1 and is lost at hop 2/);
    expect(html).toContain('tracking_parameter_stripped');
    expect(html).toContain('<strong>How to fix:</strong>');
    expect(html).toMatch(/<meta property="og:title" content="Will not track: /);
  });

  it('says "could not verify" when bot protection answers, not "broken"', async () => {
    const { html } = await submitAndFollow(s.fixture.walledLink);
    expect(html).toContain('class="verdict v-could_not_verify"');
    expect(html).toContain('Could not verify this link');
    expect(html).toMatch(/<meta property="og:title" content="Could not verify: /);
  });

  it('escapes every value it shows', async () => {
    const hostile = s.fixture.web.url(
      'www.awin1.com',
      '/cread.php?awinmid=12345&awinaffid=1&x="><script>alert(1)</script><img src=x onerror=alert(2)>',
    );
    const { html } = await submitAndFollow(hostile);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const invalid = await submit({ url: 'javascript:alert("<b>x</b>")' });
    const page = expectPage(invalid, 400);
    expect(page).toContain('value="javascript:alert(&quot;&lt;b&gt;x&lt;/b&gt;&quot;)"');
    expect(page).not.toContain('<b>x</b>');
  });

  it('shows refused submissions in the page, not as JSON: invalid link, weekly cap, rate limit', async () => {
    const bad = expectPage(await submit({ url: 'http://127.0.0.1/admin' }), 400);
    expect(bad).toMatch(/<p class="error" id="url-error" role="alert">[^<]+<\/p>/);
    expect(bad).toContain('aria-invalid="true"');
    expect(bad).toContain('value="http://127.0.0.1/admin"');
    expect(expectPage(await submit({ url: '' }), 400)).toContain('Paste the tracking link to check.');

    // Same weekly cap as POST /v1/checks, shared with it: 2 by form + 1 by API, then both refuse.
    const ip = '203.0.113.77';
    expect((await submit({ url: s.fixture.trackingLink }, ip)).statusCode).toBe(303);
    expect((await submit({ url: s.fixture.trackingLink }, ip)).statusCode).toBe(303);
    expect(
      (await s.t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: s.fixture.trackingLink }, remoteAddress: ip })).statusCode,
    ).toBe(201);
    const capped = await submit({ url: s.fixture.trackingLink }, ip);
    const cappedPage = expectPage(capped, 429);
    expect(cappedPage).toContain('3 link checks per week');
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    // A person reads the wait in words and how to sign in here (the embedded provider's one-time links), not to
    // create an API key they cannot create; the API keeps the contract's message.
    expect(cappedPage).toMatch(/resets on Monday at 00:00 UTC, in \d+ (day|hour|minute|second)s?( \d+ (hour|minute|second)s?)?\./);
    expect(cappedPage).not.toMatch(/\d+ seconds\)|API key to check/);
    expect(cappedPage).toContain('<a href="/auth/signin">How to sign in</a>');
    const api = await s.t.app.inject({ method: 'POST', url: '/v1/checks', payload: { url: s.fixture.trackingLink }, remoteAddress: ip });
    expect(api.json().error).toMatchObject({ code: 'anonymous_check_limit_reached', message: expect.stringContaining('seconds') });

    const limited = await startTestApp({
      database,
      env: { TRACKCHECK_RESOLVE: s.fixture.web.resolveSpec, TRACKCHECK_ANON_RATE_LIMIT: '2' },
    });
    try {
      const post = () =>
        limited.app.inject({ method: 'POST', url: '/', headers: FORM, payload: form({ url: '' }), remoteAddress: '203.0.113.99' });
      await post();
      await post();
      const third = await post();
      expect(expectPage(third, 429)).toContain('Rate limit of 2 requests per minute');
      expect(third.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('without web sign-in on this server, the weekly cap says when it resets and suggests no sign-in', async () => {
    const noSignIn = await startTestApp({
      database,
      env: { TRACKCHECK_RESOLVE: s.fixture.web.resolveSpec, TRACKCHECK_JWT_SECRET: 'x'.repeat(32), TRACKCHECK_ANON_WEEKLY_CHECKS: '0' },
    });
    try {
      const home = expectPage(await noSignIn.app.inject({ method: 'GET', url: '/', headers: HTML }), 200);
      expect(home).not.toContain('href="/auth/signin">sign in');
      const page = expectPage(
        await noSignIn.app.inject({ method: 'POST', url: '/', headers: FORM, payload: form({ url: s.fixture.trackingLink }) }),
        429,
      );
      const capped = /<p class="error"[^>]*>([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
      expect(capped).toMatch(
        /each address gets 0 link checks per week, and yours has used them\. The allowance resets on Monday at 00:00 UTC, in \d+ [a-z]/,
      );
      expect(capped).not.toMatch(/sign in|API key to check/i);
    } finally {
      await noSignIn.close();
    }
    // With email sign-in (SMTP and the embedded identity provider), the cap points to it.
    const email = await startTestApp({
      database,
      env: { TRACKCHECK_RESOLVE: s.fixture.web.resolveSpec, TRACKCHECK_SMTP_URL: 'smtp://127.0.0.1:9', TRACKCHECK_ANON_WEEKLY_CHECKS: '0' },
    });
    try {
      const page = expectPage(
        await email.app.inject({ method: 'POST', url: '/', headers: FORM, payload: form({ url: s.fixture.trackingLink }) }),
        429,
      );
      const capped = /<p class="error"[^>]*>([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
      expect(capped).toContain('To check more now, sign in with your email address');
      expect(capped).toContain('<a href="/auth/signin">Sign in by email</a>');
    } finally {
      await email.close();
    }
  });

  it('keeps the JSON API strict: a form body to POST /v1/checks is still 415 JSON', async () => {
    const res = await s.t.app.inject({ method: 'POST', url: '/v1/checks', headers: FORM, payload: form({ url: s.fixture.trackingLink }) });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('keeps the pages strict too: a JSON body posted to a page is 415, never a 500', async () => {
    for (const payload of ['{}', '[]', '{"url":5}', '"x"']) {
      const res = await s.t.app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, payload).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
      expect(res.json().error.message).toContain('form');
    }
    expect(await s.t.ctx.store.db.selectFrom('checks').selectAll().execute()).toHaveLength(0);
  });

  it('refuses a form posted from another site', async () => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/',
      headers: { ...FORM, 'sec-fetch-site': 'cross-site' },
      payload: form({ url: s.fixture.trackingLink }),
    });
    expectPage(res, 403);
    expect(await s.t.ctx.store.db.selectFrom('checks').selectAll().execute()).toHaveLength(0);
  });

  it('a running check shows progress, refreshes itself without counting views, then shows the verdict', async () => {
    const slow = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: s.fixture.web.resolveSpec, TRACKCHECK_SYNC_WAIT_MS: '50' } });
    try {
      const res = await slow.app.inject({ method: 'POST', url: '/', headers: FORM, payload: form({ url: s.fixture.slowLink }) });
      expect(res.statusCode).toBe(303);
      const location = String(res.headers.location);
      const running = expectPage(await slow.app.inject({ method: 'GET', url: location, headers: HTML }), 200);
      expect(running).toContain('<meta http-equiv="refresh" content="2">');
      expect(running).toContain('Checking this link…');
      expect(running).toContain('<progress');
      expect(running).not.toContain('Download evidence');
      expect((await slow.ctx.store.checks.get(location.slice(3)))?.view_count).toBe(0);
      await slow.ctx.waiter.waitFor(location.slice(3), 10_000);
      const done = expectPage(await slow.app.inject({ method: 'GET', url: location, headers: HTML }), 200);
      expect(done).not.toContain('http-equiv="refresh"');
      expect(done).toContain('Viewed 1 time.');
    } finally {
      await slow.close();
    }
  });

  it('answers clients that do not ask for HTML with the API error envelope', async () => {
    const missing = await s.t.app.inject({ method: 'GET', url: '/r/nosuchreport00' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
    const empty = await s.t.app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('missing_parameter');
    // Success is a page (or a redirect) for everyone.
    expect((await s.t.app.inject({ method: 'GET', url: '/' })).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers an unknown report with a 404 page', async () => {
    const html = expectPage(await s.t.app.inject({ method: 'GET', url: '/r/nosuchreport00', headers: HTML }), 404);
    expect(html).toContain('Report not found');
    expectPage(await s.t.app.inject({ method: 'GET', url: `/r/${'x'.repeat(300)}`, headers: HTML }), 404);
  });
});
