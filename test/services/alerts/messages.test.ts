import { describe, expect, it } from 'vitest';
import {
  buildEmailMessage,
  buildSlackMessage,
  buildWebhookBody,
  serializeWebhookBody,
  summarizeAlert,
  type AlertEventType,
} from '../../../src/services/alerts/index.js';
import { sampleAlert } from './helpers.js';

function alertOf(type: AlertEventType, state: 'healthy' | 'broken' | 'unknown', name: string | null) {
  const alert = sampleAlert({ name, state });
  return { ...alert, event: { ...alert.event, type } };
}

describe('summarizeAlert', () => {
  it.each([
    ['monitor.broken', 'broken', 'Link broken: Spring sale', /broken: clicks on it will not be attributed/],
    ['monitor.recovered', 'healthy', 'Link recovered: Spring sale', /works again/],
    ['monitor.changed', 'healthy', 'Link changed: Spring sale', /changed; clicks are still attributed/],
    ['monitor.changed', 'broken', 'Link changed: Spring sale', /changed; the link is still broken/],
    ['monitor.changed', 'unknown', 'Link changed: Spring sale', /could not be verified/],
  ] as const)('%s (%s) says so in words', (type, state, subject, headline) => {
    const s = summarizeAlert(alertOf(type, state, 'Spring sale'));
    expect(s.subject).toBe(subject);
    expect(s.headline).toMatch(headline);
  });

  it('names the link by its host when the monitor has no name, and keeps subjects on one line', () => {
    expect(summarizeAlert(alertOf('monitor.broken', 'broken', null)).subject).toBe('Link broken: www.awin1.com');
    expect(summarizeAlert(alertOf('monitor.broken', 'broken', '  ')).subject).toBe('Link broken: www.awin1.com');
    expect(summarizeAlert(alertOf('monitor.broken', 'broken', 'a\r\nBcc: x@example.com')).subject).toBe(
      'Link broken: a Bcc: x@example.com',
    );
  });

  it('lists changes as "field: from → to", at most ten', () => {
    const s = summarizeAlert(sampleAlert());
    expect(s.changes).toEqual([
      'willTrack: yes → no',
      'finalUrl: https://shop.example/p/42?awc=1 → https://shop.example/',
      'issues: none → homepage_fallback',
    ]);
    const many = sampleAlert();
    many.event.changes = Array.from({ length: 13 }, (_, i) => ({ field: `hops[${i}].status`, from: 302, to: null }));
    const listed = summarizeAlert(many);
    expect(listed.changes).toHaveLength(10);
    expect(listed.changes[0]).toBe('hops[0].status: 302 → none');
    expect(listed.moreChanges).toBe(3);
  });
});

describe('buildSlackMessage', () => {
  it('has a text fallback and blocks with the verdict, the changes and both reports', () => {
    const message = buildSlackMessage(sampleAlert());
    expect(message.text).toBe(
      'Link broken: Spring sale &lt;Awin&gt;: This link is broken: clicks on it will not be attributed (confirmed by a second check).',
    );
    const [header, verdict, changes, links] = message.blocks;
    expect(header).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Link broken: Spring sale <Awin>', emoji: false } });
    expect(verdict).toMatchObject({ type: 'section' });
    expect(JSON.stringify(verdict)).toContain('<https://www.awin1.com/cread.php?awinmid=1&amp;awinaffid=2|');
    expect(changes).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*What changed*\n• willTrack: yes → no\n• finalUrl: https://shop.example/p/42?awc=1 → https://shop.example/\n• issues: none → homepage_fallback',
      },
    });
    expect(links).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: '<https://trackcheck.example/r/k3v9x0m2q8w1zt|New report>  ·  <https://trackcheck.example/r/a8d2j5n7p1r4ts|Previous report>',
        },
      ],
    });
  });

  it('escapes names and values so they cannot become mentions or links', () => {
    const alert = sampleAlert();
    alert.event.changes = [{ field: 'finalUrl', from: '<!channel>', to: '<https://evil.example|click>' }];
    const text = JSON.stringify(buildSlackMessage(alert).blocks);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<https://evil.example');
  });

  it('leaves out the changes block and the previous report when there are none', () => {
    const alert = sampleAlert();
    alert.event.changes = [];
    alert.previousReportUrl = null;
    const message = buildSlackMessage(alert);
    expect(message.blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);
    expect(JSON.stringify(message)).not.toContain('Previous report');
  });
});

describe('buildEmailMessage', () => {
  it('has a plain-text and an escaped HTML part with the same content', () => {
    const mail = buildEmailMessage(sampleAlert());
    expect(mail.subject).toBe('Link broken: Spring sale <Awin>');
    expect(mail.text).toContain('This link is broken');
    expect(mail.text).toContain('- willTrack: yes → no\n');
    expect(mail.text).toContain('New report: https://trackcheck.example/r/k3v9x0m2q8w1zt');
    expect(mail.text).toContain('Previous report: https://trackcheck.example/r/a8d2j5n7p1r4ts');
    expect(mail.html).toContain('Spring sale &lt;Awin&gt;');
    expect(mail.html).not.toContain('<Awin>');
    expect(mail.html).toContain('<li>willTrack: yes → no</li>');
    expect(mail.html).toContain('href="https://www.awin1.com/cread.php?awinmid=1&amp;awinaffid=2"');
    expect(mail.html).toContain('<a href="https://trackcheck.example/r/a8d2j5n7p1r4ts">Previous report</a>');
  });

  it('never turns a value into markup or a non-http link', () => {
    const alert = sampleAlert({ name: '"><script>alert(1)</script>', url: 'javascript:alert(1)' });
    alert.event.changes = [{ field: '<img src=x onerror=alert(1)>', from: null, to: '</li><b>' }];
    const { html } = buildEmailMessage(alert);
    expect(html).not.toMatch(/<script|<img|<\/li><b>|href="javascript/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('the webhook body', () => {
  it('is the event without deliveries or anything else the caller holds', () => {
    const alert = sampleAlert();
    const event = { ...alert.event, secret: 'whsec_leak', changes: [{ field: 'willTrack', from: true, to: false, extra: 1 }] };
    const body = buildWebhookBody(event);
    expect(Object.keys(body)).toEqual(['id', 'monitorId', 'type', 'createdAt', 'checkSlug', 'previousCheckSlug', 'changes']);
    expect(body.changes).toEqual([{ field: 'willTrack', from: true, to: false }]);
    expect(serializeWebhookBody(event)).not.toMatch(/whsec_leak|deliveries|extra/);
    expect(JSON.parse(serializeWebhookBody(alert.event))).toEqual(buildWebhookBody(alert.event));
  });
});
