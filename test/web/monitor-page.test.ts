// The monitor page's history as rendered from events (no service): each event's type and time, its changes as
// "field: from → to", the reports of the run and the run before, and each delivery's status, attempts and error.
import { describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../src/services/alerts/types.js';
import type { MonitorView } from '../../src/services/monitors/index.js';
import { changeText, renderMonitorPage } from '../../src/web/monitor-page.js';
import { intervalWords, renderMonitorsPage, stateBadge } from '../../src/web/monitors-page.js';

const ctx = { version: 'test', nav: { user: { name: 'alice' }, csrf: 'tok' }, csrf: 'tok' };

const monitor: MonitorView = {
  id: 'm-1',
  url: 'https://www.awin1.com/cread.php?awinmid=1&ued=x',
  checkType: 'link',
  name: null,
  intervalMinutes: 360,
  paused: false,
  state: 'broken',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastRunAt: '2026-11-24T08:00:00.000Z',
  nextRunAt: '2026-11-24T14:00:00.000Z',
  lastCheck: {
    slug: 'newslug0000001',
    willTrack: false,
    healthScore: 40,
    finalUrl: 'https://shop.example/p/1',
    completedAt: '2026-11-24T08:00:05.000Z',
  },
  channels: [{ type: 'slack', url: 'https://hooks.slack.com/services/T/B/secretpath', hasSecret: false }],
};

const events: AlertEvent[] = [
  {
    id: 'e-2',
    monitorId: 'm-1',
    type: 'monitor.broken',
    createdAt: '2026-11-24T08:03:00.000Z',
    checkSlug: 'newslug0000001',
    previousCheckSlug: 'oldslug0000001',
    changes: [
      { field: 'willTrack', from: true, to: false },
      { field: 'issueCodes', from: [], to: ['tracking_parameter_stripped', '<b>'] },
    ],
    deliveries: [
      {
        channel: { type: 'webhook', url: 'https://hooks.example/in', hasSecret: true },
        status: 'failed',
        attempts: 13,
        lastError: 'HTTP 500',
      },
      { channel: { type: 'email', to: 'me@example.com', hasSecret: false }, status: 'delivered', attempts: 1, lastError: null },
    ],
  },
  {
    id: 'e-1',
    monitorId: 'm-1',
    type: 'monitor.changed',
    createdAt: '2026-11-23T08:00:00.000Z',
    checkSlug: 'oldslug0000001',
    previousCheckSlug: null,
    changes: [{ field: 'finalHostPath', from: 'shop.example/a', to: null }],
    deliveries: [],
  },
];

describe('monitor page', () => {
  it('renders changes as "field: from → to"', () => {
    expect(changeText({ field: 'willTrack', from: true, to: false })).toBe('willTrack: true → false');
    expect(changeText({ field: 'networks', from: ['awin'], to: ['awin', 'skimlinks'] })).toBe('networks: awin → awin, skimlinks');
    expect(changeText({ field: 'trackingHopStatus', from: null, to: 404 })).toBe('trackingHopStatus: none → 404');
  });

  it('shows each event with its time, changes, report links and deliveries, escaped', () => {
    const html = renderMonitorPage(ctx, { monitor, events, nextCursor: 'c2', paged: false });
    expect(html).toContain('<h1>https://www.awin1.com/cread.php?awinmid=1&amp;ued=x</h1>');
    expect(html).toContain('<span class="mstate ms-broken"><span aria-hidden="true">✗</span> Broken</span>');
    expect(html).toContain('The link broke <span class="muted">(<code>monitor.broken</code>)</span>');
    expect(html).toContain('<time datetime="2026-11-24T08:03:00.000Z"');
    expect(html).toContain('<li>willTrack: true → false</li>');
    expect(html).toContain('<li>issueCodes: none → tracking_parameter_stripped, &lt;b&gt;</li>');
    expect(html).toContain('<a href="/r/newslug0000001">Report of this run</a> · <a href="/r/oldslug0000001">Report of the run before</a>');
    expect(html).toContain(
      'Webhook https://hooks.example/in (signed): <strong class="ds-failed">failed</strong> after 13 attempts · last error: HTTP 500',
    );
    expect(html).toContain('Email to me@example.com: <strong class="ds-delivered">delivered</strong> after 1 attempt</li>');
    expect(html).toContain('The chain changed');
    expect(html).toContain('No alert channels: nothing was sent.');
    expect(html).toContain('<a href="/monitors/m-1?cursor=c2" rel="next">Older events →</a>');
    // A Slack webhook's path is a credential: outside its edit field only the host shows.
    expect(html.split('secretpath').length - 1).toBe(1);
    expect(html).toContain('value="https://hooks.slack.com/services/T/B/secretpath"');
    expect(html).toContain('every 6 hours');
    expect(html).toContain('<form class="inline" method="post" action="/monitors/m-1/run">');
    expect(html).toContain('<a class="button danger" href="/monitors/m-1/delete">Delete…</a>');
  });

  it('lists monitors with state badges, schedule and times', () => {
    const html = renderMonitorsPage(ctx, { monitors: [{ ...monitor, paused: true, name: 'Sidebar' }], nextCursor: null, paged: false });
    expect(html).toContain(stateBadge('broken'));
    expect(html).toContain('<strong>Sidebar</strong><br><a href="/monitors/m-1">');
    expect(html).toContain('<span class="muted">paused</span>');
    expect(html).toContain('<time datetime="2026-11-24T08:00:00.000Z"');
    expect(['pending', 'healthy', 'unknown'].map((s) => stateBadge(s as 'pending'))).toEqual([
      '<span class="mstate ms-pending"><span aria-hidden="true">…</span> Pending</span>',
      '<span class="mstate ms-healthy"><span aria-hidden="true">✓</span> Healthy</span>',
      '<span class="mstate ms-unknown"><span aria-hidden="true">?</span> Unknown</span>',
    ]);
    expect([15, 60, 1440, 2880, 10080, 90].map(intervalWords)).toEqual([
      'every 15 minutes',
      'every hour',
      'every day',
      'every 2 days',
      'every week',
      'every 90 minutes',
    ]);
  });
});
