// Email delivery through a real SMTP server started by the test (smtp-server on 127.0.0.1).
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, type DeliveryDeps } from '../../../src/services/alerts/index.js';
import { sampleAlert } from './helpers.js';
import { decodeHeader, parseMessage } from './mime.js';
import { startMailbox, type Mailbox } from '../../helpers/smtp-mailbox.js';

const servers: Mailbox[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function startSmtp(rejectRecipient = false): Promise<Mailbox> {
  const box = await startMailbox({ rejectRecipient });
  servers.push(box);
  return box;
}

const depsFor = (smtpUrl: string | null): DeliveryDeps => ({
  options: { smtpUrl, alertFrom: 'trackcheck@trackcheck.example' },
  timeoutMs: 5_000,
});

describe('email delivery', () => {
  it('sends one mail from alertFrom with a clear subject, a text part and an escaped HTML part', async () => {
    const box = await startSmtp();
    const result = await deliver(sampleAlert(), { type: 'email', to: 'ops@example.com' }, 'd-mail', depsFor(box.url));
    expect(result).toEqual({ ok: true, detail: 'accepted by the SMTP server' });
    expect(box.mails).toHaveLength(1);
    const [mail] = box.mails;
    if (mail === undefined) throw new Error('no mail');
    expect(mail.from).toBe('trackcheck@trackcheck.example');
    expect(mail.to).toEqual(['ops@example.com']);

    const message = parseMessage(mail.raw);
    expect(decodeHeader(message.headers.get('subject') ?? '')).toBe('Link broken: Spring sale <Awin>');
    expect(message.headers.get('from')).toBe('trackcheck@trackcheck.example');
    expect(message.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    const text = message.parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'));
    const html = message.parts.find((p) => p.headers.get('content-type')?.startsWith('text/html'));
    expect(text?.body).toContain('This link is broken: clicks on it will not be attributed');
    expect(text?.body).toContain('- willTrack: yes → no');
    expect(text?.body).toContain('New report: https://trackcheck.example/r/k3v9x0m2q8w1zt');
    expect(text?.body).toContain('Previous report: https://trackcheck.example/r/a8d2j5n7p1r4ts');
    expect(html?.body).toContain('<h2 style="margin:0 0 .5em">Link broken: Spring sale &lt;Awin&gt;</h2>');
    expect(html?.body).toContain('<li>finalUrl: https://shop.example/p/42?awc=1 → https://shop.example/</li>');
    expect(html?.body).toContain('<a href="https://trackcheck.example/r/k3v9x0m2q8w1zt">New report</a>');
  });

  it('names the other event types in the subject', async () => {
    const box = await startSmtp();
    const recovered = sampleAlert({ name: null, state: 'healthy' });
    recovered.event.type = 'monitor.recovered';
    const changed = sampleAlert({ state: 'healthy' });
    changed.event.type = 'monitor.changed';
    await deliver(recovered, { type: 'email', to: 'ops@example.com' }, 'd-r', depsFor(box.url));
    await deliver(changed, { type: 'email', to: 'ops@example.com' }, 'd-c', depsFor(box.url));
    const subjects = box.mails.map((m) => decodeHeader(parseMessage(m.raw).headers.get('subject') ?? ''));
    expect(subjects).toEqual(['Link recovered: www.awin1.com', 'Link changed: Spring sale <Awin>']);
  });

  it('a permanently rejected recipient fails without retries', async () => {
    const box = await startSmtp(true);
    const result = await deliver(sampleAlert(), { type: 'email', to: 'nobody@example.com' }, 'd-x', depsFor(box.url));
    expect(result).toEqual({ ok: false, error: 'SMTP server answered 550', retryable: false });
    expect(box.mails).toHaveLength(0);
  });

  it('an unreachable SMTP server is a retryable failure; no SMTP configured is not', async () => {
    const box = await startSmtp();
    const url = box.url;
    await box.close();
    servers.splice(0);
    const down = await deliver(sampleAlert(), { type: 'email', to: 'ops@example.com' }, 'd-y', depsFor(url));
    expect(down).toEqual({ ok: false, error: 'SMTP connection refused', retryable: true });
    const none = await deliver(sampleAlert(), { type: 'email', to: 'ops@example.com' }, 'd-z', depsFor(null));
    expect(none).toEqual({ ok: false, error: 'email is not configured on this server', retryable: false });
    const wrong = await deliver(sampleAlert(), { type: 'email', to: 'ops@example.com' }, 'd-z', depsFor('http://127.0.0.1:25'));
    expect(wrong).toMatchObject({ ok: false, retryable: false });
  });
});
