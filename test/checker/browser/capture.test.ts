// Browser-mode capture in real Chromium: script-only chains followed end to end through escalation, the
// same hops[] shape as the HTTP follower, JS-set cookies without values, and the network rule enforced on
// every request the page makes (navigations, images, XHR, fetch, frames, WebSockets).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTrace } from '../../../src/checker/browser/analyze-trace.js';
import { runBrowserLinkCheck } from '../../../src/checker/browser/browser-check.js';
import { captureChain } from '../../../src/checker/browser/capture.js';
import type { BrowserPool } from '../../../src/checker/browser/pool.js';
import { runCheck } from '../../../src/checker/check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from './browser-helpers.js';

const SECRET = 'TOPSECRETCOOKIEVALUE';

describe.skipIf(CHROMIUM === null)(`browser capture${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let pool: BrowserPool;
  let internal: http.Server;
  let internalPort = 0;
  let internalHits = 0;
  const engine = () => ({ resolve: web.resolve, extraCaCerts: [web.caCert], browser: pool });

  beforeAll(async () => {
    // A private service the checker must never reach (not named in TRACKCHECK_RESOLVE).
    internal = http.createServer((_req, res) => {
      internalHits += 1;
      res.end('internal');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalPort = (internal.address() as AddressInfo).port;

    web = await startAffiliateWeb();
    const cloak = web.url('go.cloak.example', '', true);
    const shop = web.url('www.shop.example', '', true);
    web.redirect('www.awin1.com', '/cread.php', `${cloak}/r`, {
      setCookies: ['aw12345=clk; Max-Age=2592000; Path=/; Secure; SameSite=None'],
    });
    // Not a literal: the HTTP follower cannot know where this goes, the browser must run it.
    web.page('go.cloak.example', '/r', {
      html: `<title>Redirecting…</title><script>var base = ${JSON.stringify(cloak)}; var path = '/step' + 2;
        setTimeout(function () { location.href = base + path; }, 120);</script>`,
    });
    web.metaRefresh('go.cloak.example', '/step2', `${shop}/p/1?awc=12345_abc&source=aw`);
    web.page('www.shop.example', '/p/1', {
      html: `<title>Trail shoe</title><script>document.cookie = '_aw_m_12345=' + new URLSearchParams(location.search).get('awc') + '; max-age=31536000; path=/';
        document.cookie = 'js_secret=${SECRET}; path=/';</script>`,
      setCookies: ['session=abc; Path=/; Secure; HttpOnly'],
    });
    web.scriptRedirect('www.literal.example', '/go', `${shop}/p/1?awc=12345_lit`);
    // A merchant that really is slow: its redirect answers after 1.2 s.
    web.page('go.slowcloak.example', '/r', {
      html: `<script>location.href = [${JSON.stringify(web.url('www.slowshop.example', '/p/1', true))}][0];</script>`,
    });
    web.redirect('www.slowshop.example', '/p/1', `${shop}/p/1?awc=12345_slow&source=aw`, { delayMs: 1_200 });
    // A fast merchant (the checker's own stall on its answer is tested below).
    web.page('go.busycloak.example', '/r', {
      html: `<script>location.href = [${JSON.stringify(web.url('www.fastshop.example', '/p/1?awc=12345_fast', true))}][0];</script>`,
    });
    web.page('www.fastshop.example', '/p/1', '<title>Fast shop</title>');

    web.page('www.evil-page.example', '/go', {
      html: `<script>var port = ${internalPort}; location.href = 'http://127.0.0.' + '1:' + port + '/admin';</script>`,
    });
    web.page('www.sub.example', '/p', {
      html: `<title>Subresources</title>
        <img src="http://127.0.0.1:${internalPort}/pixel.png">
        <iframe src="http://localhost:${internalPort}/frame"></iframe>
        <script>
          fetch('http://127.0.0.1:${internalPort}/api').catch(function () {});
          var x = new XMLHttpRequest(); x.open('GET', 'http://[::1]:${internalPort}/xhr'); x.send();
          try { new WebSocket('ws://127.0.0.1:${internalPort}/ws'); } catch (e) {}
          navigator.sendBeacon('http://127.0.0.1:${internalPort}/beacon', 'x');
        </script>`,
    });
    web.page('www.loop.example', '/a', { html: "<script>location.href = '/' + 'b';</script>" });
    web.page('www.loop.example', '/b', { html: "<script>location.href = '/' + 'a';</script>" });
    web.route('www.counter.example', '/n', (_req, res, ctx) => {
      const i = Number(ctx.query.get('i') ?? '0');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<script>location.href = '/n?i=' + (${i} + 1);</script>`);
    });
    web.page('www.slowhop.example', '/go', { html: "<script>location.href = '/' + 'slow';</script>" });
    web.page('www.slowhop.example', '/slow', { html: 'late', delayMs: 3_000 });
    web.page('www.dns.example', '/go', { html: "<script>location.href = 'http://unknown-host' + '.invalid/';</script>" });

    pool = await createSimulatorPool(web, {
      // No DNS from tests: names outside the resolve map fail as an unknown name would.
      lookupAll: async () => Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })),
    });
  });

  afterAll(async () => {
    await pool?.close();
    await web?.close();
    internal?.closeAllConnections();
    await new Promise<void>((resolve) => internal?.close(() => resolve()));
  });

  it('times hops as Chromium measured them: a merchant slow to answer is slow, the checker\u2019s own delays are not', async () => {
    const result = await runCheck(web.url('go.slowcloak.example', '/r', true), engine());
    expect(result.mode).toBe('browser');
    expect(result.hops.map((hop) => hop.kind)).toEqual(['http', 'javascript', 'http']);
    expect(result.hops[1]?.timeMs).toBeGreaterThanOrEqual(1_150);
    expect(result.issues.find((issue) => issue.code === 'slow_redirect_chain')?.hop).toBe(1);
  });

  it('does not count the checker\u2019s own stall as the merchant\u2019s time', async () => {
    const url = web.url('go.busycloak.example', '/r', true);
    // The engine's process is busy for 1.5 s as the merchant's answer arrives (as a burst of other checks'
    // work would make it): the browser's events about that answer reach the capture late.
    const result = await pool.withContext(async ({ context, page, egress }) => {
      page.on('response', (response) => {
        if (!response.url().includes('fastshop')) return;
        const until = Date.now() + 1_500;
        while (Date.now() < until);
      });
      const { trace } = await captureChain(context, egress, url, {}, page);
      return analyzeTrace(url, trace, 'browser');
    });
    expect(result.finalUrl).toBe(web.url('www.fastshop.example', '/p/1?awc=12345_fast', true));
    expect(result.hops[1]?.timeMs).toBeLessThan(1_000);
    expect(result.issues.map((issue) => issue.code)).not.toContain('slow_redirect_chain');
  });

  it('follows a JavaScript-only chain end to end by escalating from HTTP to the browser', async () => {
    const link = web.url('www.awin1.com', '/cread.php?awinmid=12345&awinaffid=9', true);
    const viaHttp = await runCheck(link, { resolve: web.resolve, extraCaCerts: [web.caCert] });
    expect(viaHttp.mode).toBe('http');
    expect(viaHttp.issues.map((i) => i.code)).toContain('script_redirect_unresolved');

    const result = await runCheck(link, engine());
    expect(result.mode).toBe('browser');
    expect(result.hops.map((h) => [h.kind, h.status])).toEqual([
      ['http', 302],
      ['http', 200],
      ['javascript', 200],
      ['meta-refresh', 200],
    ]);
    expect(result.hops[0]?.location).toBe(web.url('go.cloak.example', '/r', true));
    expect(result.hops[2]?.url).toBe(web.url('go.cloak.example', '/step2', true));
    expect(result.hops[3]?.paramsAdded).toEqual(['awc', 'source']);
    expect(result.finalUrl).toBe(web.url('www.shop.example', '/p/1?awc=12345_abc&source=aw', true));
    expect(result.redirectCount).toBe(3);
    for (const hop of result.hops) expect(hop.timeMs).toBeGreaterThanOrEqual(0);
    expect(result.totalRedirectTimeMs).toBe(result.hops.reduce((sum, h) => sum + h.timeMs, 0));
    expect(result.networkId).toBe('awin');
    expect(result.trackingParameterPresent).toBe(true);
    expect(result.willTrack).toBe(true);
    const codes = result.issues.map((i) => i.code);
    expect(codes).toEqual(expect.arrayContaining(['javascript_redirect', 'meta_refresh_redirect']));
    expect(codes).not.toContain('script_redirect_unresolved');

    const byName = Object.fromEntries(result.cookies.map((c) => [c.name, c]));
    expect(byName['aw12345']).toMatchObject({ setByHop: 0, firstParty: false, secure: true, sameSite: 'none' });
    expect(byName['_aw_m_12345']).toMatchObject({ setByHop: 3, firstParty: true, domain: 'www.shop.example', expiryDays: 365 });
    expect(byName['session']).toMatchObject({ setByHop: 3, httpOnly: true, expiresAt: null, expiryDays: null });
    expect(byName['js_secret']).toMatchObject({ setByHop: 3, firstParty: true });
    expect(result.hops[3]?.cookies.map((c) => c.name).sort()).toEqual(['_aw_m_12345', 'js_secret', 'session']);
    expect(result.cookieExpiryDays).toBe(365);
    // Values are never read, stored or shown.
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain('"value"');

    // A desktop Chrome's user agent, never "HeadlessChrome", and the check records what it ran with.
    const fromBrowser = web.requests.filter((r) => r.path === '/step2');
    expect(fromBrowser.length).toBeGreaterThan(0);
    for (const request of fromBrowser) {
      expect(request.headers['user-agent']).toMatch(
        /^Mozilla\/5\.0 \(X11; Linux x86_64\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
      );
    }
    expect(result.engine).toMatchObject({
      browser: expect.stringMatching(/^Chromium \d+\.\d+\.\d+\.\d+$/),
      userAgent: fromBrowser[0]?.headers['user-agent'],
    });
    expect(result.engine?.limits).toEqual({
      maxHops: 20,
      hopTimeoutMs: 10_000,
      checkTimeoutMs: 30_000,
      deadlineMs: 120_000,
      maxBodyBytes: null,
    });
    expect(viaHttp.engine).toMatchObject({ browser: null, limits: { maxBodyBytes: 512 * 1024 } });
  });

  it('keeps chains the follower can read in HTTP mode (no escalation)', async () => {
    const result = await runCheck(web.url('www.literal.example', '/go', true), engine());
    expect(result.mode).toBe('http');
    expect(result.hops.map((h) => h.kind)).toEqual(['http', 'javascript']);
  });

  it('refuses a script navigation to a loopback address and records blocked_private_address', async () => {
    const before = internalHits;
    const result = await runCheck(web.url('www.evil-page.example', '/go', true), engine());
    expect(result.mode).toBe('browser');
    const last = result.hops.at(-1);
    expect(last).toMatchObject({ url: `http://127.0.0.1:${internalPort}/admin`, status: null, kind: 'javascript' });
    expect(last?.error).toMatch(/^blocked: resolves to a private address \(loopback\)/);
    expect(result.issues.map((i) => i.code)).toContain('blocked_private_address');
    expect(result.willTrack).toBe(false);
    expect(internalHits).toBe(before);
  });

  it('refuses images, frames, fetch, XHR, WebSockets and beacons to loopback; the target is never hit', async () => {
    const before = internalHits;
    let refused: string[] = [];
    const result = await pool.withContext(async ({ context, page, egress }) => {
      const { trace } = await captureChain(context, egress, web.url('www.sub.example', '/p', true), {}, page);
      await new Promise((resolve) => setTimeout(resolve, 300));
      refused = egress.events.filter((e) => e.outcome === 'blocked').map((e) => `${e.host}:${e.port}`);
      return trace;
    });
    expect(result.end.reason).toBe('landed');
    expect(result.hops).toHaveLength(1);
    expect(internalHits).toBe(before);
    // The refusals came from the guard (Chromium sent them to the proxy), not from Chromium skipping them.
    expect(refused).toEqual(expect.arrayContaining([`127.0.0.1:${internalPort}`, `localhost:${internalPort}`]));
  });

  it('ends a script loop as redirect_loop', async () => {
    const result = await runBrowserLinkCheck(pool, web.url('www.loop.example', '/a', true));
    expect(result.hops.map((h) => new URL(h.url).pathname)).toEqual(['/a', '/b']);
    expect(result.issues.map((i) => i.code)).toContain('redirect_loop');
  });

  it('stops at the hop limit', async () => {
    const result = await runBrowserLinkCheck(pool, web.url('www.counter.example', '/n?i=0', true), { maxHops: 4 });
    expect(result.hops).toHaveLength(5);
    expect(result.issues.map((i) => i.code)).toContain('too_many_redirects');
  });

  it('reports a navigation that does not answer in time, twice, as could not verify (landing_timeout)', async () => {
    const result = await runBrowserLinkCheck(pool, web.url('www.slowhop.example', '/go', true), { hopTimeoutMs: 800 });
    expect(result.hops.at(-1)).toMatchObject({ status: null, error: 'timed out after 0.8 s' });
    expect(result.issues.map((i) => i.code)).toContain('landing_timeout');
  });

  it("reports a name that does not resolve in the follower's words", async () => {
    const result = await runBrowserLinkCheck(pool, web.url('www.dns.example', '/go', true));
    expect(result.hops.at(-1)).toMatchObject({
      url: 'http://unknown-host.invalid/',
      status: null,
      error: 'DNS lookup failed for unknown-host.invalid',
    });
    expect(result.issues.map((i) => i.code)).toContain('landing_unreachable');
  });
});
