// Alerts from a monitor's events to REAL receivers on 127.0.0.1 (reached through the network guard, with
// TRACKCHECK_RESOLVE naming the hosts): a signed webhook verified by the receiver, a Slack-shaped endpoint, a
// real SMTP server; retries with the doubling schedule; exactly one delivery marked delivered after 3 attempts.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { startEngineApp, type EngineApp } from '../jobs/engine-app.js';
import { startMailbox, type Mailbox } from '../helpers/smtp-mailbox.js';
import { startReceiver, type Receiver } from '../services/alerts/helpers.js';
import { verifySignature } from '../../src/services/alerts/index.js';
import { closePinnedClients } from '../../src/checker/net/pinned-agent.js';
import { createAlertDeliverer } from '../../src/jobs/alert-deliveries.js';
import { settled, switchableEngine } from './fixtures.js';

const SECRET = 'whsec_monitor_test_42';
const LINK = 'https://shop.jobs.example/p/7';

describe.each(DATABASES)('alert deliveries on $name', (database) => {
  const apps: EngineApp[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()?.close();
    while (closers.length > 0) await closers.pop()?.();
  });
  afterAll(closePinnedClients);

  async function receiver(respond: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(respond);
    closers.push(() => r.close());
    return r;
  }

  /** An app whose monitor (with `channels`) goes healthy → broken (confirmed): one monitor.broken event. */
  async function brokenMonitor(channels: unknown[], env: Record<string, string> = {}) {
    const links = switchableEngine();
    const t = await startEngineApp({ database, engine: links.engine, env: { TRACKCHECK_MONITOR_CONFIRM_MS: '60000', ...env } });
    apps.push(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/monitors',
      headers: t.headers,
      payload: { url: LINK, name: 'Boots', channels },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    await settled(t.ctx, id);
    links.set(LINK, 'broken');
    t.clock.advance(1000);
    await t.app.inject({ method: 'POST', url: `/v1/monitors/${id}/run`, headers: t.headers });
    await settled(t.ctx, id);
    t.clock.advance(60_000);
    await t.ctx.scheduler.tick();
    await settled(t.ctx, id);
    const events = async () => (await t.app.inject({ method: 'GET', url: `/v1/monitors/${id}/events`, headers: t.headers })).json().data;
    return { t, id, events };
  }

  it('delivers one event to a signed webhook, a Slack endpoint and an email inbox', async () => {
    const mailbox: Mailbox = await startMailbox();
    closers.push(() => mailbox.close());
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const slack = await receiver((_req, res) => res.writeHead(200).end('ok'));
    const { t, events } = await brokenMonitor(
      [
        { type: 'webhook', url: `http://hooks.jobs.example:${hook.port}/in`, secret: SECRET },
        { type: 'slack', url: `http://slack.jobs.example:${slack.port}/services/T0/B0/x` },
        { type: 'email', to: 'ops@example.com' },
      ],
      { TRACKCHECK_SMTP_URL: mailbox.url, TRACKCHECK_ALERT_FROM: 'alerts@trackcheck.test' },
    );
    const [event] = await events();
    expect(event).toMatchObject({ type: 'monitor.broken' });
    expect(event.deliveries.map((d: { status: string }) => d.status)).toEqual(['pending', 'pending', 'pending']);
    expect((await t.ctx.scheduler.tick()).delivered).toBe(1);

    expect(hook.requests).toHaveLength(1);
    const req = hook.requests[0]!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['trackcheck-event']).toBe('monitor.broken');
    expect(req.headers['trackcheck-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(verifySignature(String(req.headers['trackcheck-signature']), req.body, SECRET, 300, Math.floor(t.clock.now() / 1000))).toBe(
      true,
    );
    expect(
      verifySignature(String(req.headers['trackcheck-signature']), req.body, 'wrong-secret-x', 300, Math.floor(t.clock.now() / 1000)),
    ).toBe(false);
    const body = JSON.parse(req.body.toString('utf8'));
    expect(body).toMatchObject({ id: event.id, monitorId: event.monitorId, type: 'monitor.broken', checkSlug: event.checkSlug });
    expect(body).not.toHaveProperty('deliveries');

    expect(slack.requests).toHaveLength(1);
    const message = JSON.parse(slack.requests[0]!.body.toString('utf8'));
    expect(typeof message.text).toBe('string');
    expect(Array.isArray(message.blocks)).toBe(true);
    expect(JSON.stringify(message)).toContain(`/r/${event.checkSlug}`);

    const [mail] = await mailbox.waitFor(1);
    expect(mail!.to).toEqual(['ops@example.com']);
    expect(mail!.from).toBe('alerts@trackcheck.test');
    expect(mail!.raw).toContain('text/plain');
    expect(mail!.raw).toContain('text/html');

    const [after] = await events();
    expect(after.deliveries).toEqual([
      {
        channel: { type: 'webhook', url: `http://hooks.jobs.example:${hook.port}/in`, hasSecret: true },
        status: 'delivered',
        attempts: 1,
        lastError: null,
      },
      {
        channel: { type: 'slack', url: `http://slack.jobs.example:${slack.port}/services/T0/B0/x`, hasSecret: false },
        status: 'delivered',
        attempts: 1,
        lastError: null,
      },
      { channel: { type: 'email', to: 'ops@example.com', hasSecret: false }, status: 'delivered', attempts: 1, lastError: null },
    ]);
    // Delivered stays delivered: later ticks send nothing more.
    t.clock.advance(3600_000);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(1);
    expect(slack.requests).toHaveLength(1);
  });

  it('retries a receiver that fails twice with doubling delays: one delivery, delivered after 3 attempts', async () => {
    let answered = 0;
    const hook = await receiver((_req, res) => {
      answered += 1;
      res.writeHead(answered <= 2 ? 500 : 200).end();
    });
    const { t, events } = await brokenMonitor([{ type: 'webhook', url: `http://hooks.jobs.example:${hook.port}/flaky`, secret: SECRET }], {
      TRACKCHECK_ALERT_RETRY_MS: '1000',
    });
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(1);
    expect((await events())[0].deliveries[0]).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    // Not due before its retry time (1 s after the event).
    t.clock.advance(500);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(1);
    t.clock.advance(500);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(2);
    // The next gap doubles: 2 s.
    t.clock.advance(1500);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(2);
    t.clock.advance(500);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(3);
    const ids = new Set(hook.requests.map((r) => r.headers['trackcheck-delivery']));
    expect(ids.size).toBe(1);
    const [event] = await events();
    expect(event.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3, lastError: 'HTTP 500' })]);
    t.clock.advance(3600_000);
    await t.ctx.scheduler.tick();
    expect(hook.requests).toHaveLength(3);
    const metrics = await t.ctx.metrics.registry.metrics();
    expect(metrics).toContain('trackcheck_alert_delivery_attempts_total{channel_type="webhook",outcome="retrying"} 2');
    expect(metrics).toContain('trackcheck_alert_delivery_attempts_total{channel_type="webhook",outcome="delivered"} 1');
  });

  it('gives up after 24 h of failures with one late attempt, not a burst of missed ones', async () => {
    const hook = await receiver((_req, res) => res.writeHead(503).end());
    const { t, events } = await brokenMonitor([{ type: 'webhook', url: `http://hooks.jobs.example:${hook.port}/down` }]);
    await t.ctx.scheduler.tick();
    t.clock.advance(25 * 3600_000);
    await t.ctx.scheduler.tick();
    await t.ctx.scheduler.tick();
    const [event] = await events();
    expect(event.deliveries).toEqual([expect.objectContaining({ status: 'failed', attempts: 2, lastError: 'HTTP 503' })]);
    expect(hook.requests).toHaveLength(2);
  });

  it('makes each attempt once when two workers deliver at the same time', async () => {
    const hook = await receiver((_req, res) => setTimeout(() => res.writeHead(204).end(), 100));
    const { t, events } = await brokenMonitor([{ type: 'webhook', url: `http://hooks.jobs.example:${hook.port}/race` }]);
    const deliverer = () =>
      createAlertDeliverer({
        store: t.ctx.store,
        clock: t.clock,
        smtpUrl: null,
        alertFrom: 'a@b.example',
        retryFirstDelayMs: 1000,
        resolve: t.ctx.config.resolve,
        publicUrl: () => 'http://trackcheck.test',
      });
    const handled = await Promise.all([deliverer(), deliverer(), deliverer()].map((d) => d.deliverDue()));
    expect(handled.reduce((a, b) => a + b, 0)).toBe(1);
    expect(hook.requests).toHaveLength(1);
    expect((await events())[0].deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });
});
