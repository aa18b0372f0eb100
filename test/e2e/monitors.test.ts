// End to end, as a user: `npm start`, then HTTP only. A monitor with a signed webhook whose local receiver checks
// every signature as a customer's endpoint would (HMAC-SHA256 of "<t>.<body>"); the monitored link goes from
// healthy to broken (confirmed by a second run) and back: exactly one monitor.broken, then one monitor.recovered.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { startUserService, type UserService } from './user-service.js';

const SECRET = 'e2e-webhook-secret-123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Delivery {
  event: string;
  deliveryId: string;
  signatureValid: boolean;
  body: { type: string; monitorId: string; checkSlug: string; previousCheckSlug: string | null; changes: unknown[] };
}

function verify(header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1 || Math.abs(Date.now() / 1000 - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', SECRET).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function startWebhookReceiver(): Promise<{ port: number; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      deliveries.push({
        event: String(req.headers['trackcheck-event']),
        deliveryId: String(req.headers['trackcheck-delivery']),
        signatureValid: verify(String(req.headers['trackcheck-signature'] ?? ''), raw),
        body: JSON.parse(raw) as Delivery['body'],
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('monitors through npm start', () => {
  let web: AffiliateWeb;
  let service: UserService;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let key: string;
  let link: string;

  const landing = (status: number) =>
    web.page('www.boot-shop.example', '/p/trail-boot', {
      status,
      html: status === 200 ? '<!doctype html><title>Trail boot</title><h1>Trail boot</h1>' : '<title>Not found</title>',
      setCookies: ['_aw_m_777=777_e2e; Max-Age=31536000; Path=/; SameSite=Lax'],
    });

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const target = web.url('www.boot-shop.example', '/p/trail-boot?awc=777_e2e');
    web.redirect('www.awin1.com', '/cread.php', target, { setCookies: ['aw777=clk; Max-Age=2592000; Path=/'] });
    landing(200);
    link = web.url('www.awin1.com', '/cread.php?awinmid=777&awinaffid=4242');
    receiver = await startWebhookReceiver();
    service = await startUserService(web, {
      TRACKCHECK_RESOLVE: `${web.resolveSpec},hooks.alerts-e2e.example=127.0.0.1`,
      TRACKCHECK_MONITOR_CONFIRM_MS: '1500',
      TRACKCHECK_ALERT_RETRY_MS: '1000',
    });
    key = await service.apiKey('e2e-monitors');
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await web?.close();
  });

  async function monitorWhen(
    id: string,
    done: (m: Record<string, unknown>) => boolean,
    timeoutMs = 30_000,
  ): Promise<Record<string, unknown>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const m = (await service.request('GET', `/v1/monitors/${id}`, { token: key })).json().data;
      if (done(m)) return m;
      if (Date.now() > until) throw new Error(`monitor ${id} did not get there: ${JSON.stringify(m)}`);
      await sleep(200);
    }
  }

  async function deliveriesOf(n: number, timeoutMs = 30_000): Promise<Delivery[]> {
    const until = Date.now() + timeoutMs;
    while (receiver.deliveries.length < n) {
      if (Date.now() > until) throw new Error(`expected ${n} deliveries, got ${receiver.deliveries.length}`);
      await sleep(100);
    }
    return receiver.deliveries;
  }

  it('reports its scheduler running', async () => {
    expect((await service.request('GET', '/health')).json<{ scheduler: string }>().scheduler).toBe('running');
  });

  it('alerts once when the link breaks (after a confirming run) and once when it recovers', async () => {
    const created = await service.request('POST', '/v1/monitors', {
      token: key,
      body: {
        url: link,
        name: 'Trail boot (Awin)',
        intervalMinutes: 15,
        channels: [{ type: 'webhook', url: `http://hooks.alerts-e2e.example:${receiver.port}/trackcheck`, secret: SECRET }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = String(created.json().data['id']);
    const healthy = await monitorWhen(id, (m) => m['state'] === 'healthy');
    expect(healthy['lastCheck']).toMatchObject({ willTrack: true });

    landing(404);
    expect((await service.request('POST', `/v1/monitors/${id}/run`, { token: key })).status).toBe(202);
    const broken = await monitorWhen(id, (m) => m['state'] === 'broken');
    const [alert] = await deliveriesOf(1);
    expect(alert).toMatchObject({ event: 'monitor.broken', signatureValid: true, body: { type: 'monitor.broken', monitorId: id } });
    expect((broken['lastCheck'] as { slug: string }).slug).toBe(alert!.body.checkSlug);
    // The broken report is an ordinary check, readable by slug.
    expect((await service.request('GET', `/v1/checks/${alert!.body.checkSlug}`)).json().data).toMatchObject({ willTrack: false });

    landing(200);
    await service.request('POST', `/v1/monitors/${id}/run`, { token: key });
    await monitorWhen(id, (m) => m['state'] === 'healthy');
    const all = await deliveriesOf(2);
    await sleep(2500); // a confirming run or a retry would arrive by now
    expect(all.map((d) => d.event)).toEqual(['monitor.broken', 'monitor.recovered']);
    expect(all.every((d) => d.signatureValid)).toBe(true);
    expect(all[1]!.body.previousCheckSlug).toBe(alert!.body.checkSlug);

    const events = (await service.request('GET', `/v1/monitors/${id}/events`, { token: key })).json<{
      data: Array<{ type: string; deliveries: Array<{ status: string; attempts: number }> }>;
    }>().data;
    expect(events.map((e) => e.type)).toEqual(['monitor.recovered', 'monitor.broken']);
    for (const e of events) expect(e.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  }, 90_000);
});
