// Sign-in links by email (issue 15), over real HTTP to the running app and a real SMTP server on 127.0.0.1: the form
// (with its CSRF token), the mail (text and HTML parts, the instance, the expiry), following the link, single use,
// expiry, the limits per client and per address, refused addresses, and no form without TRACKCHECK_SMTP_URL.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfTokenOf, HttpBrowser } from '../helpers/http-browser.js';
import { startMailbox, type Mailbox, type ReceivedMail } from '../helpers/smtp-mailbox.js';
import { decodeHeader, parseMessage } from '../services/alerts/mime.js';

interface Running {
  t: TestApp;
  box: Mailbox;
  base: string;
  closed: boolean;
}

const running: Running[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    if (!r.closed) await r.t.close();
    await r.box.close();
  }
});

/** The app listening on 127.0.0.1 with its public URL pointing there (as `serve` does with PORT=0). */
async function start(env: Record<string, string> = {}, opts: { smtp?: boolean; now?: number } = {}): Promise<Running> {
  const box = await startMailbox();
  const smtpEnv: Record<string, string> = opts.smtp === false ? {} : { TRACKCHECK_SMTP_URL: box.url };
  const t = await startTestApp({ worker: false, now: opts.now, env: { TRACKCHECK_SYNC_WAIT_MS: '0', ...smtpEnv, ...env } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const base = `http://127.0.0.1:${address.port}`;
  t.ctx.listeningOn(address.port, {});
  const r = { t, box, base, closed: false };
  running.push(r);
  return r;
}

/** Closes the app, which first waits for every mail it started: afterwards the mailbox is final. */
async function settle(r: Running): Promise<void> {
  r.closed = true;
  await r.t.close();
}

async function requestLink(browser: HttpBrowser, email: string) {
  const page = await browser.get('/auth/signin');
  expect(page.status).toBe(200);
  return browser.post('/auth/email-link', { _csrf: csrfTokenOf(page.body), email });
}

function partsOf(mail: ReceivedMail) {
  const message = parseMessage(mail.raw);
  const text = message.parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'))?.body ?? '';
  const html = message.parts.find((p) => p.headers.get('content-type')?.startsWith('text/html'))?.body ?? '';
  return { message, text, html };
}

function linkOf(mail: ReceivedMail): string {
  const match = /(http:\/\/\S+\/auth\/login\?token=[\w.-]+)/.exec(partsOf(mail).text);
  if (!match?.[1]) throw new Error(`no sign-in link in the mail:\n${mail.raw}`);
  return match[1];
}

/** Opens the link, confirms, and returns the final post's response. */
async function followLink(browser: HttpBrowser, link: string) {
  const confirm = await browser.get(link);
  if (confirm.status !== 200) return confirm;
  return browser.post('/auth/login', { _csrf: csrfTokenOf(confirm.body), token: new URL(link).searchParams.get('token') ?? '' });
}

describe('email sign-in links', () => {
  it('a visitor asks for a link, receives it by email, follows it and is signed in as email:<address>', async () => {
    const r = await start({ TRACKCHECK_ALERT_FROM: 'trackcheck <signin@tc.example>' });
    const browser = new HttpBrowser(r.base);
    const signin = await browser.get('/auth/signin');
    expect(signin.body).toContain('<form class="panel email-signin" method="post" action="/auth/email-link">');
    expect(signin.body).toContain('Email me a sign-in link');

    const sent = await browser.post('/auth/email-link', { _csrf: csrfTokenOf(signin.body), email: '  Alice.Smith@Example.COM ' });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('<h1>Check your email</h1>');
    expect(sent.body).toContain('<strong>alice.smith@example.com</strong>');
    expect(browser.jar.has('trackcheck_session')).toBe(false);

    const [mail] = await r.box.waitFor(1);
    if (!mail) throw new Error('no mail');
    expect(mail.to).toEqual(['alice.smith@example.com']);
    expect(mail.from).toBe('signin@tc.example');
    const { message, text, html } = partsOf(mail);
    const host = new URL(r.base).host;
    expect(decodeHeader(message.headers.get('subject') ?? '')).toBe(`Your sign-in link for trackcheck (${host})`);
    expect(message.headers.get('from')).toBe('trackcheck <signin@tc.example>');
    expect(message.headers.get('auto-submitted')).toBe('auto-generated');
    expect(message.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    const link = linkOf(mail);
    expect(link.startsWith(`${r.base}/auth/login?token=`)).toBe(true);
    expect(text).toContain(`sign in to trackcheck at ${r.base}`);
    expect(text).toContain('It works once and expires in 15 minutes');
    expect(html).toContain(`Sign in to trackcheck at ${host}`);
    expect(html).toContain(`<a href="${link}"`);
    expect(html).toContain('expires in 15 minutes');

    const confirm = await browser.get(link);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('signs you in as <strong>alice.smith@example.com</strong>');
    const done = await browser.post('/auth/login', {
      _csrf: csrfTokenOf(confirm.body),
      token: new URL(link).searchParams.get('token') ?? '',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/checks');
    const checks = await browser.get('/checks');
    expect(checks.status).toBe(200);
    expect(checks.body).toContain('Signed in as <strong>alice.smith@example.com</strong>');

    // The user is email:<normalised address>: a check made on the page is that user's through the API too.
    const home = await browser.get('/');
    const made = await browser.post('/', { _csrf: csrfTokenOf(home.body), url: 'https://shop.example/p/1?awc=1', check_type: 'link' });
    expect(made.status, made.body.slice(0, 300)).toBe(303);
    const listed = await r.t.app.inject({
      method: 'GET',
      url: '/v1/checks',
      headers: bearer(await r.t.sessionToken('email:alice.smith@example.com')),
    });
    expect(listed.json().data.map((c: { url: string }) => c.url)).toEqual(['https://shop.example/p/1?awc=1']);
  });

  it('a link works once: a second use, also opening it again, is refused', async () => {
    const r = await start();
    await requestLink(new HttpBrowser(r.base), 'bob@example.org');
    const [mail] = await r.box.waitFor(1);
    if (!mail) throw new Error('no mail');
    const link = linkOf(mail);
    const first = new HttpBrowser(r.base);
    const confirm = await first.get(link);
    const again = new HttpBrowser(r.base);
    const confirmAgain = await again.get(link);
    expect(
      (await first.post('/auth/login', { _csrf: csrfTokenOf(confirm.body), token: new URL(link).searchParams.get('token') ?? '' })).status,
    ).toBe(303);
    const second = await again.post('/auth/login', {
      _csrf: csrfTokenOf(confirmAgain.body),
      token: new URL(link).searchParams.get('token') ?? '',
    });
    expect(second.status).toBe(410);
    expect(second.body).toContain('This sign-in link was already used');
    expect(again.jar.has('trackcheck_session')).toBe(false);
    expect((await new HttpBrowser(r.base).get(link)).status).toBe(410);
  });

  it('refuses a link after 15 minutes', async () => {
    const r = await start();
    await requestLink(new HttpBrowser(r.base), 'carol@example.net');
    const [mail] = await r.box.waitFor(1);
    if (!mail) throw new Error('no mail');
    r.t.clock.advance(15 * 60_000 + 1000);
    const browser = new HttpBrowser(r.base);
    const late = await followLink(browser, linkOf(mail));
    expect(late.status).toBe(410);
    expect(late.body).toContain('This sign-in link has expired');
    expect(browser.jar.has('trackcheck_session')).toBe(false);
  });

  it('limits mails per address silently and requests per client with a 429, for an hour', async () => {
    const hour = Math.floor(Date.now() / 3600_000) * 3600_000; // the windows are whole UTC hours
    const r = await start({}, { now: hour });
    const browser = new HttpBrowser(r.base);
    const page = await browser.get('/auth/signin');
    const ask = (email: string) => browser.post('/auth/email-link', { _csrf: csrfTokenOf(page.body), email });

    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask('dave@example.com'));
    // The sixth answer is the same page as the first five: it does not tell that this address reached its limit.
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(r.t.logs()).toContain('not sent, the per-address limit is reached');
    for (let i = 0; i < 4; i++) expect((await ask(`user${i}@example.com`)).status).toBe(200);
    const limited = await ask('erin@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many sign-in emails requested');
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect(limited.body).toContain('Try again in 60 minutes');
    await r.box.waitFor(9);

    // An hour later both counters start again.
    r.t.clock.advance(60 * 60_000);
    expect((await ask('dave@example.com')).status).toBe(200);
    await r.box.waitFor(10);
    await settle(r);
    const to = r.box.mails.map((m) => m.to.join(','));
    expect(to.filter((a) => a === 'dave@example.com')).toHaveLength(6);
    expect(to).not.toContain('erin@example.com');
    expect(to).toHaveLength(10);
  });

  it('refuses what is not one plain address (no header injection), and forms without their CSRF token', async () => {
    const r = await start({ TRACKCHECK_EMAIL_SIGNIN_DOMAINS: 'example.com' });
    const browser = new HttpBrowser(r.base);
    const page = await browser.get('/auth/signin');
    const csrf = csrfTokenOf(page.body);
    const bad = [
      '',
      'alice',
      'alice@',
      'alice@example',
      'alice@example.com\r\nBcc: victim@example.com',
      'alice@example.com\nSubject: hi',
      'alice@example.com, bob@example.com',
      'Alice <alice@example.com>',
      '"alice"@example.com',
      'al ice@example.com',
      `${'a'.repeat(250)}@example.com`,
    ];
    for (const email of bad) {
      const res = await browser.post('/auth/email-link', { _csrf: csrf, email });
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('action="/auth/email-link"'); // the form again, to correct the address
    }
    const outside = await browser.post('/auth/email-link', { _csrf: csrf, email: 'mallory@example.org' });
    expect(outside.status).toBe(400);
    expect(outside.body).toContain('addresses at example.com only');
    // No token, another session's token: refused before anything is sent.
    expect((await browser.post('/auth/email-link', { email: 'alice@example.com' })).status).toBe(403);
    expect((await new HttpBrowser(r.base).post('/auth/email-link', { _csrf: csrf, email: 'alice@example.com' })).status).toBe(403);

    expect((await browser.post('/auth/email-link', { _csrf: csrf, email: 'alice@example.com' })).status).toBe(200);
    await r.box.waitFor(1);
    await settle(r);
    expect(r.box.mails.map((m) => m.to)).toEqual([['alice@example.com']]);
    expect(r.box.mails[0]?.raw).not.toMatch(/victim|^Subject: hi/m);
  });

  it('the same answer when the mail cannot be delivered (the SMTP server is down)', async () => {
    const r = await start({ TRACKCHECK_SMTP_URL: 'smtp://127.0.0.1:9' });
    const res = await requestLink(new HttpBrowser(r.base), 'frank@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<h1>Check your email</h1>');
    await settle(r);
    expect(r.t.logs()).toContain('email sign-in: the link could not be sent');
    expect(r.t.logs()).not.toContain('frank@');
  });

  it('without TRACKCHECK_SMTP_URL (or with an external identity provider) there is no email form', async () => {
    const r = await start({}, { smtp: false });
    const browser = new HttpBrowser(r.base);
    const signin = await browser.get('/auth/signin');
    expect(signin.body).not.toContain('action="/auth/email-link"');
    expect(signin.body).toContain('trackcheck session-token --user &lt;your user id&gt; --login-url');
    expect(signin.body).toContain('TRACKCHECK_SMTP_URL');
    // The page has no form then; the home page's token is this visitor's.
    const post = await browser.post('/auth/email-link', { _csrf: csrfTokenOf((await browser.get('/')).body), email: 'alice@example.com' });
    expect(post.status).toBe(404);
    expect(post.body).toContain('not available on this server');

    const external = await start({ TRACKCHECK_JWT_SECRET: 'x'.repeat(40) });
    const page = await new HttpBrowser(external.base).get('/auth/signin');
    expect(page.body).not.toContain('action="/auth/email-link"');
    await settle(r);
    await settle(external);
    expect(r.box.mails).toHaveLength(0);
    expect(external.box.mails).toHaveLength(0);
  });
});

describe('email configuration', () => {
  function errorOf(env: Record<string, string>): ConfigError {
    try {
      loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) return err;
      throw err;
    }
    throw new Error('expected a ConfigError');
  }

  it('reads TRACKCHECK_SMTP_URL and TRACKCHECK_ALERT_FROM, defaulting the sender to the public URL host', () => {
    const none = loadConfig({});
    expect(none.smtpUrl).toBeNull();
    expect(none.alertFrom).toBe('trackcheck@127.0.0.1');
    expect(none.emailSignInDomains).toBeNull();
    const c = loadConfig({ TRACKCHECK_SMTP_URL: 'smtps://user:pw@mail.example.com:465', TRACKCHECK_PUBLIC_URL: 'https://tc.example.com/' });
    expect(c.smtpUrl).toBe('smtps://user:pw@mail.example.com:465');
    expect(c.alertFrom).toBe('trackcheck@tc.example.com');
    expect(loadConfig({ TRACKCHECK_ALERT_FROM: 'Link checks <checks@example.com>' }).alertFrom).toBe('Link checks <checks@example.com>');
    const domains = loadConfig({
      TRACKCHECK_SMTP_URL: 'smtp://127.0.0.1:25',
      TRACKCHECK_EMAIL_SIGNIN_DOMAINS: 'Example.com, bücher.example',
    });
    expect(domains.emailSignInDomains).toEqual(['example.com', 'xn--bcher-kva.example']);
  });

  it('names the variable of every malformed value, and never prints the SMTP password', () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ TRACKCHECK_SMTP_URL: 'mail.example.com' }, 'TRACKCHECK_SMTP_URL', /not a valid URL/],
      [{ TRACKCHECK_SMTP_URL: 'https://user:secretpw@mail.example.com' }, 'TRACKCHECK_SMTP_URL', /smtp or smtps/],
      [{ TRACKCHECK_SMTP_URL: 'smtp://' }, 'TRACKCHECK_SMTP_URL', /not a valid URL|names no host/],
      [{ TRACKCHECK_ALERT_FROM: 'not an address' }, 'TRACKCHECK_ALERT_FROM', /one email address/],
      [{ TRACKCHECK_ALERT_FROM: 'a@example.com, b@example.com' }, 'TRACKCHECK_ALERT_FROM', /one email address/],
      [{ TRACKCHECK_ALERT_FROM: 'x@example.com\r\nBcc: y@example.com' }, 'TRACKCHECK_ALERT_FROM', /one line/],
      [{ TRACKCHECK_EMAIL_SIGNIN_DOMAINS: 'example.com' }, 'TRACKCHECK_EMAIL_SIGNIN_DOMAINS', /only applies with TRACKCHECK_SMTP_URL/],
      [
        { TRACKCHECK_SMTP_URL: 'smtp://127.0.0.1', TRACKCHECK_EMAIL_SIGNIN_DOMAINS: 'example' },
        'TRACKCHECK_EMAIL_SIGNIN_DOMAINS',
        /not a domain name/,
      ],
      [
        { TRACKCHECK_SMTP_URL: 'smtp://127.0.0.1', TRACKCHECK_EMAIL_SIGNIN_DOMAINS: '@example.com' },
        'TRACKCHECK_EMAIL_SIGNIN_DOMAINS',
        /not a domain name/,
      ],
    ];
    for (const [env, variable, message] of cases) {
      const err = errorOf(env);
      expect(err.variable, JSON.stringify(env)).toBe(variable);
      expect(err.message).toMatch(new RegExp(`^${variable}: `));
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain('secretpw');
    }
  });
});
