// Sign-in with an OpenID Connect provider, without a browser: trackcheck (app.inject) against a real oidc-provider on
// 127.0.0.1, the provider's side driven with fetch. Covers PKCE/state/nonce, the callback's refusals and outages.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, csrfOf, setCookiesOf } from './signin-helpers.js';
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from './signin-oidc-provider.js';

const PUBLIC_URL = 'http://tc.test';

/** Follows the provider's redirects and fills in its login form until it sends the browser back to trackcheck. */
async function signInAtProvider(authorizationUrl: string, login: string | null): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    body = undefined;
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(PUBLIC_URL)) return next;
      url = next;
      continue;
    }
    const action = /<form method="post" action="([^"]+)"/.exec(await res.text())?.[1];
    if (res.status !== 200 || !action) throw new Error(`unexpected provider answer ${res.status} at ${url}`);
    url = new URL(login === null ? action.replace(/\/login$/, '/abort') : action, url).href;
    body = new URLSearchParams({ login: login ?? '' });
  }
  throw new Error('the provider never redirected back');
}

describe('OpenID Connect sign-in (authorization code + PKCE) against a local oidc-provider', () => {
  let idp: TestOidcProvider;
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startOidcProvider();
    await idp.configure(`${PUBLIC_URL}/auth/callback`);
  });
  afterAll(async () => {
    await idp.close();
  });
  beforeEach(async () => {
    t = await startTestApp({
      worker: false,
      env: {
        TRACKCHECK_PUBLIC_URL: PUBLIC_URL,
        TRACKCHECK_OIDC_ISSUER: idp.issuer,
        TRACKCHECK_OIDC_CLIENT_ID: CLIENT_ID,
        TRACKCHECK_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      },
    });
    browser = new Browser(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  async function start(next = '/settings/keys'): Promise<string> {
    const res = await browser.get(`/auth/oidc?next=${encodeURIComponent(next)}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    return String(res.headers.location);
  }

  it('signs in with the ID token sub as the user id and returns to the page asked for', async () => {
    const signin = await browser.get('/auth/signin?next=%2Fsettings%2Fkeys');
    expect(signin.body).toContain(`href="/auth/oidc?next=%2Fsettings%2Fkeys">Sign in with 127.0.0.1:`);
    const authorization = new URL(await start());
    expect(authorization.origin).toBe(idp.issuer);
    const params = authorization.searchParams;
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/callback`);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('nonce')).toBeTruthy();
    expect(params.get('scope')).toBe('openid email profile');
    // The attempt's secrets are in an encrypted cookie (a JWE), not readable by the browser's owner either.
    expect(browser.jar.get('trackcheck_oidc')?.split('.')).toHaveLength(5);

    const callback = new URL(await signInAtProvider(authorization.href, 'alice'));
    expect(callback.searchParams.get('state')).toBe(params.get('state'));
    const done = await browser.get(`${callback.pathname}${callback.search}`);
    expect(done.statusCode, done.body.slice(0, 400)).toBe(303);
    expect(done.headers.location).toBe('/settings/keys');
    expect(browser.jar.has('trackcheck_oidc')).toBe(false);
    const keys = await browser.get('/settings/keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.body).toContain('Signed in as <strong>alice@example.test</strong>');
    const created = await browser.post('/settings/keys', { _csrf: csrfOf(keys.body), name: 'from oidc' });
    expect(created.statusCode).toBe(201);
    expect((await t.ctx.store.db.selectFrom('api_keys').select('user_id').executeTakeFirst())?.user_id).toBe('alice');
    expect(idp.seen.at(-1)).toMatchObject({ login: 'alice', codeChallengeMethod: 'S256' });

    // The same callback again: the attempt is over (its cookie is gone and the code was used).
    const replay = await browser.get(`${callback.pathname}${callback.search}`);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('has expired or was started in another browser');
  });

  it('refuses a callback from another browser, a changed state, and a cancelled sign-in', async () => {
    const authorization = await start();
    const callback = new URL(await signInAtProvider(authorization, 'mallory'));
    // Another browser (no transaction cookie): login CSRF with the attacker's code fails.
    const victim = new Browser(t.app);
    const forged = await victim.get(`${callback.pathname}${callback.search}`);
    expect(forged.statusCode).toBe(400);
    expect(victim.jar.has('trackcheck_session')).toBe(false);

    const second = new URL(await signInAtProvider(await start(), 'alice'));
    second.searchParams.set('state', 'changed');
    const mismatch = await browser.get(`${second.pathname}${second.search}`);
    expect(mismatch.statusCode).toBe(502);
    expect(mismatch.body).toContain('could not be completed');
    expect(browser.jar.has('trackcheck_session')).toBe(false);

    const cancelled = new URL(await signInAtProvider(await start(), null));
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    const page = await browser.get(`${cancelled.pathname}${cancelled.search}`);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Sign-in was cancelled at the provider.');
  });

  it('never sends the browser back to another site after signing in', async () => {
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example', '/auth/signout']) {
      const res = await browser.get(`/auth/signin?next=${encodeURIComponent(next)}`);
      expect(res.body).toContain('href="/auth/oidc?next=%2Fchecks"');
    }
  });

  it('shows a 503 page when the provider cannot be reached, and recovers once it can', async () => {
    const down = await startTestApp({
      worker: false,
      env: { TRACKCHECK_PUBLIC_URL: PUBLIC_URL, TRACKCHECK_OIDC_ISSUER: 'http://127.0.0.1:1', TRACKCHECK_OIDC_CLIENT_ID: CLIENT_ID },
    });
    try {
      const res = await new Browser(down.app).get('/auth/oidc');
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('The sign-in provider could not be reached');
      expect(setCookiesOf(res).some((c) => c.name === 'trackcheck_oidc')).toBe(false);
    } finally {
      await down.close();
    }
  });
});
