// End to end, as a user: `npm start` with TRACKCHECK_SMTP_URL pointing at a real SMTP server on 127.0.0.1, then a
// visitor over HTTP only: the sign-in page's email form, the mail, the link, signed in; the link works once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { csrfTokenOf, HttpBrowser } from '../helpers/http-browser.js';
import { startMailbox, type Mailbox } from '../helpers/smtp-mailbox.js';
import { parseMessage } from '../services/alerts/mime.js';
import { startUserService, type UserService } from './user-service.js';

describe('email sign-in through npm start', () => {
  let web: AffiliateWeb;
  let box: Mailbox;
  let service: UserService;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    box = await startMailbox();
    service = await startUserService(web, { TRACKCHECK_SMTP_URL: box.url, TRACKCHECK_ALERT_FROM: 'signin@trackcheck.test' });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await box?.close();
    await web?.close();
  });

  it('emails a one-time link that signs the visitor in', async () => {
    const browser = new HttpBrowser(service.url);
    const signin = await browser.get('/auth/signin');
    expect(signin.status).toBe(200);
    expect(signin.body).toContain('action="/auth/email-link"');
    const sent = await browser.post('/auth/email-link', { _csrf: csrfTokenOf(signin.body), email: 'Zoe@Example.com' });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('Check your email');

    const [mail] = await box.waitFor(1, 20_000);
    if (!mail) throw new Error('no mail');
    expect(mail.to).toEqual(['zoe@example.com']);
    expect(mail.from).toBe('signin@trackcheck.test');
    const text = parseMessage(mail.raw).parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'))?.body ?? '';
    const link = /(http:\/\/\S+\/auth\/login\?token=[\w.-]+)/.exec(text)?.[1];
    if (!link) throw new Error(`no link in the mail:\n${mail.raw}`);
    expect(link.startsWith(`${service.url}/auth/login?token=`)).toBe(true);

    const token = new URL(link).searchParams.get('token') ?? '';
    const confirm = await browser.get(link);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('signs you in as <strong>zoe@example.com</strong>');
    const done = await browser.post('/auth/login', { _csrf: csrfTokenOf(confirm.body), token });
    expect(done.status).toBe(303);
    const checks = await browser.get('/checks');
    expect(checks.status).toBe(200);
    expect(checks.body).toContain('Signed in as <strong>zoe@example.com</strong>');

    // Once used, the link signs nobody in again.
    const other = new HttpBrowser(service.url);
    expect((await other.get(link)).status).toBe(410);
    expect(service.output()).not.toContain(token);
  });
});
