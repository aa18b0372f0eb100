// Web sign-in on a real database: one-time sign-in links (single use, expiry, tampering), the session cookie
// (flags, tampering, expiry, sign-out revocation) and CSRF on every form.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, csrfOf, loginLinkFor, setCookiesOf, signInWithLink } from './signin-helpers.js';

const tokenOf = (path: string) => new URL(path, 'http://x').searchParams.get('token') ?? '';

describe.each(DATABASES)('web sign-in on $name', (database) => {
  let t: TestApp;
  let browser: Browser;

  beforeEach(async () => {
    t = await startTestApp({ database, worker: false, env: { TRACKCHECK_SYNC_WAIT_MS: '0', TRACKCHECK_SESSION_TTL_HOURS: '2' } });
    browser = new Browser(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  it('a sign-in link asks for confirmation, then signs in with a HttpOnly, SameSite=Lax session cookie', async () => {
    const path = await loginLinkFor(t.dataDir, 'alice');
    const confirm = await browser.get(path);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('signs you in as <strong>alice</strong>');
    expect(confirm.body).toContain('<form class="panel" method="post" action="/auth/login">');
    expect(browser.jar.has('trackcheck_session')).toBe(false); // opening the link alone signs nobody in

    const res = await browser.post('/auth/login', { _csrf: csrfOf(confirm.body), token: tokenOf(path) });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checks');
    const cookie = setCookiesOf(res).find((c) => c.name === 'trackcheck_session');
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${2 * 3600}`]));
    expect(cookie?.attributes).not.toContain('Secure'); // served over plain http

    // The request log shows the link's URL with its token masked: a log reader cannot use an unused link.
    expect(t.logs()).toContain('/auth/login?token=[redacted]');
    expect(t.logs()).not.toContain(tokenOf(path));

    const checks = await browser.get('/checks');
    expect(checks.statusCode).toBe(200);
    expect(checks.body).toContain('<h1>My checks</h1>');
    expect(checks.body).toContain('Signed in as <strong>alice</strong>');
    expect(checks.body).toContain('action="/auth/signout"');
  });

  it('a sign-in link works exactly once, also when used twice at the same moment', async () => {
    await signInWithLink(browser, t.dataDir, 'alice');
    const path = await loginLinkFor(t.dataDir, 'bob');
    const a = new Browser(t.app);
    const b = new Browser(t.app);
    const [pageA, pageB] = [await a.get(path), await b.get(path)];
    const results = await Promise.all([
      a.post('/auth/login', { _csrf: csrfOf(pageA.body), token: tokenOf(path) }),
      b.post('/auth/login', { _csrf: csrfOf(pageB.body), token: tokenOf(path) }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 410]);
    expect(results.find((r) => r.statusCode === 410)?.body).toContain('This sign-in link was already used');
    // Once used, opening it again says so too.
    const again = await new Browser(t.app).get(path);
    expect(again.statusCode).toBe(410);
  });

  it('an expired sign-in link is refused with its own message', async () => {
    const path = await loginLinkFor(t.dataDir, 'alice', { ttlSeconds: 60, nowMs: t.clock.now() });
    const page = await browser.get(path);
    expect(page.statusCode).toBe(200);
    t.clock.advance(61_000);
    const late = await browser.post('/auth/login', { _csrf: csrfOf(page.body), token: tokenOf(path) });
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('This sign-in link has expired');
    expect(browser.jar.has('trackcheck_session')).toBe(false);
    expect((await browser.get(path)).statusCode).toBe(410);
  });

  it('refuses tampered, truncated and foreign tokens as sign-in links', async () => {
    const token = tokenOf(await loginLinkFor(t.dataDir, 'alice'));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const asBob = Buffer.from(JSON.stringify({ ...claims, sub: 'bob' })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const other = await loginLinkFor(await import('node:fs').then((fs) => fs.mkdtempSync(`${t.dataDir}-other`)), 'alice');
    const candidates = [
      `${header}.${asBob}.${signature}`, // claims changed
      `${header}.${payload}.${flipped}`, // signature changed
      token.slice(0, -10), // truncated
      tokenOf(other), // signed with another server's secret
      await t.sessionToken('alice'), // an API session token is not a sign-in link
      'not-a-token',
    ];
    for (const candidate of candidates) {
      const page = await browser.get(`/auth/login?token=${encodeURIComponent(candidate)}`);
      expect(page.statusCode, candidate).toBe(400);
      expect(page.body).toContain('This sign-in link is not valid');
      const home = await browser.get('/');
      const post = await browser.post('/auth/login', { _csrf: csrfOf(home.body), token: candidate });
      expect(post.statusCode, candidate).toBe(400);
    }
    expect(browser.jar.has('trackcheck_session')).toBe(false);
  });

  it('signed-in pages send signed-out visitors to the sign-in page, and back afterwards', async () => {
    for (const path of ['/checks', '/settings/keys', '/batches', '/scans']) {
      const res = await browser.get(path);
      expect(res.statusCode, path).toBe(303);
      expect(res.headers.location).toBe(`/auth/signin?next=${encodeURIComponent(path)}`);
    }
    const signin = await browser.get('/auth/signin?next=%2Fsettings%2Fkeys');
    expect(signin.statusCode).toBe(200);
    expect(signin.body).toContain('trackcheck session-token --user &lt;your user id&gt; --login-url');
    // A post from a signed-out browser is refused, not redirected (the form's data would be lost).
    const post = await browser.post('/settings/keys', { name: 'x' });
    expect(post.statusCode).toBe(401);
    expect(post.body).toContain('You are signed out');
  });

  it('a tampered or expired session cookie counts as signed out and is cleared', async () => {
    await signInWithLink(browser, t.dataDir, 'alice', t.clock.now());
    const good = browser.jar.get('trackcheck_session') ?? '';
    const [h, p, s] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    browser.jar.set('trackcheck_session', `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${s}`);
    const tampered = await browser.get('/checks');
    expect(tampered.statusCode).toBe(303);
    expect(browser.jar.has('trackcheck_session')).toBe(false);

    browser.jar.set('trackcheck_session', good);
    expect((await browser.get('/checks')).statusCode).toBe(200);
    t.clock.advance(2 * 3600_000 + 1000);
    expect((await browser.get('/checks')).statusCode).toBe(303);
  });

  it('signing out revokes the session itself: a copy of the cookie stops working too', async () => {
    await signInWithLink(browser, t.dataDir, 'alice');
    const copy = browser.jar.get('trackcheck_session') ?? '';
    const page = await browser.get('/checks');
    const res = await browser.post('/auth/signout', { _csrf: csrfOf(page.body) });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(browser.jar.has('trackcheck_session')).toBe(false);
    const thief = new Browser(t.app);
    thief.jar.set('trackcheck_session', copy);
    expect((await thief.get('/checks')).statusCode).toBe(303);
    // The sign-out form needs its token too: a forged sign-out is refused.
    await signInWithLink(browser, t.dataDir, 'alice');
    expect((await browser.post('/auth/signout', {})).statusCode).toBe(403);
    expect((await browser.get('/checks')).statusCode).toBe(200);
  });

  it('signing in again (as anyone) ends the previous session of that browser', async () => {
    await signInWithLink(browser, t.dataDir, 'alice');
    const first = browser.jar.get('trackcheck_session') ?? '';
    await signInWithLink(browser, t.dataDir, 'bob');
    expect((await browser.get('/checks')).body).toContain('Signed in as <strong>bob</strong>');
    const old = new Browser(t.app);
    old.jar.set('trackcheck_session', first);
    expect((await old.get('/checks')).statusCode).toBe(303);
  });

  it('sets Secure cookies with the __Host- prefix when served over https', async () => {
    const https = await startTestApp({ database, worker: false, env: { TRACKCHECK_PUBLIC_URL: 'https://tc.example' } });
    try {
      const b = new Browser(https.app);
      await signInWithLink(b, https.dataDir, 'alice');
      expect(b.jar.has('__Host-trackcheck_session')).toBe(true);
      expect(b.jar.has('__Host-trackcheck_csrf')).toBe(true);
      expect((await b.get('/checks')).statusCode).toBe(200);
    } finally {
      await https.close();
    }
    const proxied = await startTestApp({ database, worker: false, env: { TRACKCHECK_TRUST_PROXY: 'true' } });
    try {
      const viaProxy = new Browser(proxied.app, { 'x-forwarded-proto': 'https' });
      await signInWithLink(viaProxy, proxied.dataDir, 'alice');
      expect(viaProxy.jar.has('__Host-trackcheck_session')).toBe(true);
    } finally {
      await proxied.close();
    }
    // Without trust in a proxy, X-Forwarded-Proto is only a header anyone can send.
    const direct = new Browser(t.app, { 'x-forwarded-proto': 'https' });
    await signInWithLink(direct, t.dataDir, 'alice');
    expect(direct.jar.has('trackcheck_session')).toBe(true);
  });

  it('turns sign-in links off when an external identity provider verifies the API tokens', async () => {
    const external = await startTestApp({ database, worker: false, env: { TRACKCHECK_JWT_SECRET: 'x'.repeat(40) } });
    try {
      const path = await loginLinkFor(external.dataDir, 'alice');
      const res = await new Browser(external.app).get(path);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Sign-in links are off');
      const signin = await new Browser(external.app).get('/auth/signin');
      expect(signin.body).toContain('not set up on this server');
    } finally {
      await external.close();
    }
  });
});
