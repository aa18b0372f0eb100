// Webhook delivery against real HTTP receivers on 127.0.0.1, reached through the network guard.
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closePinnedClients } from '../../../src/checker/net/pinned-agent.js';
import type { LookupAll } from '../../../src/checker/net/net-guard.js';
import {
  applyAttemptResult,
  deliver,
  isDue,
  newDeliveryStates,
  retryPolicy,
  serializeWebhookBody,
  verifySignature,
  type Channel,
  type DeliveryDeps,
} from '../../../src/services/alerts/index.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { CREATED_AT, RESOLVE, sampleAlert, startReceiver, type Receiver } from './helpers.js';

const SECRET = 'whsec_test_0123456789';
const NOW = Date.parse(CREATED_AT);
const deps: DeliveryDeps = { options: { smtpUrl: null, alertFrom: 'trackcheck@example.test' }, resolve: RESOLVE, now: () => NOW };
const receivers: Receiver[] = [];

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(closePinnedClients);

describe('webhook delivery', () => {
  it('POSTs the event as JSON with the contract headers and a signature the receiver can verify', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const alert = sampleAlert();
    const channel: Channel = { type: 'webhook', url: hook.url('hooks.example.test', '/trackcheck?x=1'), secret: SECRET };
    const result = await deliver(alert, channel, 'b7c1c9a4-1a64-4e3a-9a52-3a6c55e7f0aa', deps);
    expect(result).toEqual({ ok: true, detail: 'HTTP 204' });

    expect(hook.requests).toHaveLength(1);
    const [req] = hook.requests;
    if (req === undefined) throw new Error('no request');
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/trackcheck?x=1');
    expect(req.headers['host']).toBe(`hooks.example.test:${hook.port}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['trackcheck-event']).toBe('monitor.broken');
    expect(req.headers['trackcheck-delivery']).toBe('b7c1c9a4-1a64-4e3a-9a52-3a6c55e7f0aa');
    const raw = req.body.toString('utf8');
    expect(raw).toBe(serializeWebhookBody(alert.event));
    expect(JSON.parse(raw)).toMatchObject({ id: alert.event.id, type: 'monitor.broken', checkSlug: 'k3v9x0m2q8w1zt' });
    expect(JSON.parse(raw)).not.toHaveProperty('deliveries');

    const header = String(req.headers['trackcheck-signature']);
    const nowSeconds = Math.floor(NOW / 1000);
    expect(verifySignature(header, req.body, SECRET, 300, nowSeconds)).toBe(true);
    // An independent computation, as a receiver in another language would do it.
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match?.[1]).toBe(String(nowSeconds));
    const expected = createHmac('sha256', SECRET).update(`${match?.[1]}.`).update(req.body).digest('hex');
    expect(match?.[2]).toBe(expected);
  });

  it('sends no signature header when the channel has no secret', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end('ok'));
    const result = await deliver(sampleAlert(), { type: 'webhook', url: hook.url('hooks.example.test'), secret: null }, 'd-1', deps);
    expect(result.ok).toBe(true);
    expect(hook.requests[0]?.headers).not.toHaveProperty('trackcheck-signature');
  });

  it('a receiver that fails twice then succeeds: delivered once, after 3 attempts, with one delivery id', async () => {
    let answered = 0;
    const hook = await receiver((_req, res) => {
      answered += 1;
      res.writeHead(answered <= 2 ? 503 : 200).end();
    });
    const channels: Channel[] = [{ type: 'webhook', url: hook.url('hooks.example.test'), secret: SECRET }];
    const clock = createFakeClock(NOW);
    const policy = retryPolicy(30_000);
    let [state] = newDeliveryStates(channels, NOW);
    const attemptTimes: number[] = [];
    // The worker's loop, driven by an injected clock: jump to each due time instead of sleeping.
    while (state !== undefined && state.status === 'pending') {
      clock.set(Date.parse(state.nextAttemptAt ?? ''));
      expect(isDue(state, clock.now())).toBe(true);
      const channel = channels[state.channelIndex];
      if (channel === undefined) throw new Error('no channel');
      attemptTimes.push(clock.now() - NOW);
      const result = await deliver(sampleAlert(), channel, state.deliveryId, { ...deps, now: clock.now });
      state = applyAttemptResult(state, result, clock.now(), policy, NOW);
    }
    expect(state).toMatchObject({ status: 'delivered', attempts: 3, lastError: 'HTTP 503', nextAttemptAt: null });
    expect(attemptTimes).toEqual([0, 30_000, 90_000]);
    expect(hook.requests).toHaveLength(3);
    const ids = new Set(hook.requests.map((r) => r.headers['trackcheck-delivery']));
    expect([...ids]).toEqual([state?.deliveryId]);
    // Each retry is signed afresh with the time of its own attempt.
    const stamps = hook.requests.map((r) => /^t=(\d+)/.exec(String(r.headers['trackcheck-signature']))?.[1]);
    expect(stamps).toEqual([0, 30, 90].map((s) => String(Math.floor(NOW / 1000) + s)));
  });

  it('a receiver that never answers fails the attempt at the timeout', async () => {
    const hook = await receiver(() => undefined);
    const started = performance.now();
    const result = await deliver(sampleAlert(), { type: 'webhook', url: hook.url('hooks.example.test'), secret: null }, 'd-2', {
      ...deps,
      timeoutMs: 300,
    });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ ok: false, error: 'no answer within 0.3 s', retryable: true });
    expect(hook.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000);
  });

  it.each([
    [500, 'HTTP 500'],
    [404, 'HTTP 404'],
    [410, 'HTTP 410'],
  ])('answers other than 2xx are failed attempts (%i)', async (status, error) => {
    const hook = await receiver((_req, res) => res.writeHead(status).end('nope'));
    const result = await deliver(sampleAlert(), { type: 'webhook', url: hook.url('hooks.example.test'), secret: null }, 'd-3', deps);
    expect(result).toEqual({ ok: false, error, retryable: true });
  });

  it('does not follow redirects', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const hook = await receiver((_req, res) => res.writeHead(307, { location: target.url('other.example.test', '/stolen') }).end());
    const result = await deliver(sampleAlert(), { type: 'webhook', url: hook.url('hooks.example.test'), secret: SECRET }, 'd-4', deps);
    expect(result).toEqual({ ok: false, error: 'HTTP 307 (redirects are not followed)', retryable: true });
    expect(hook.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  it('reports a refused connection in a few words', async () => {
    const hook = await receiver((_req, res) => res.end());
    const url = hook.url('hooks.example.test');
    await hook.close();
    const result = await deliver(sampleAlert(), { type: 'webhook', url, secret: null }, 'd-5', deps);
    expect(result).toEqual({ ok: false, error: 'connection refused', retryable: true });
  });
});

describe('the network guard at delivery time', () => {
  const channelTo = (url: string): Channel => ({ type: 'webhook', url, secret: SECRET });

  it('refuses a host whose DNS answer is loopback, without connecting to the listener it names', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end());
    const lookups: string[] = [];
    const lookupAll: LookupAll = async (host) => {
      lookups.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await deliver(sampleAlert(), channelTo(`http://rebound.example.com:${hook.port}/hook`), 'd-6', { ...deps, lookupAll });
    expect(result).toEqual({ ok: false, error: 'blocked: resolves to a private address (loopback)', retryable: true });
    expect(lookups).toEqual(['rebound.example.com']);
    expect(hook.connections).toBe(0);
  });

  it('refuses a host resolving to 10.x, and one where any of several answers is private', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end());
    const tenNet: LookupAll = async () => [{ address: '10.20.30.40', family: 4 }];
    const mixed: LookupAll = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::ffff:127.0.0.1', family: 6 },
    ];
    const url = `http://internal.example.com:${hook.port}/hook`;
    expect(await deliver(sampleAlert(), channelTo(url), 'd-7', { ...deps, lookupAll: tenNet })).toEqual({
      ok: false,
      error: 'blocked: resolves to a private address (private)',
      retryable: true,
    });
    const mixedResult = await deliver(sampleAlert(), channelTo(url), 'd-8', { ...deps, lookupAll: mixed });
    expect(mixedResult).toMatchObject({ ok: false, error: 'blocked: resolves to a private address (ipv4Mapped:loopback)' });
    expect(hook.connections).toBe(0);
  });

  it('refuses a literal loopback URL stored before the rules (no resolve entry names it)', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end());
    for (const url of [`http://127.0.0.1:${hook.port}/hook`, `http://[::1]:${hook.port}/hook`, `http://localhost:${hook.port}/hook`]) {
      const result = await deliver(sampleAlert(), channelTo(url), 'd-9', deps);
      expect(result).toMatchObject({ ok: false, retryable: true });
      if (!result.ok) expect(result.error).toMatch(/^url not allowed: /);
    }
    expect(hook.connections).toBe(0);
  });

  it('reports a DNS failure without connecting anywhere', async () => {
    const lookupAll: LookupAll = async () => {
      throw Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const result = await deliver(sampleAlert(), channelTo('https://gone.example.com/hook'), 'd-10', { ...deps, lookupAll });
    expect(result).toEqual({ ok: false, error: 'DNS lookup failed for gone.example.com', retryable: true });
  });

  it('a DNS lookup that never returns ends at the timeout too', async () => {
    const lookupAll: LookupAll = () => new Promise(() => undefined);
    const result = await deliver(sampleAlert(), channelTo('https://slow-dns.example.com/hook'), 'd-11', {
      ...deps,
      lookupAll,
      timeoutMs: 200,
    });
    expect(result).toEqual({ ok: false, error: 'no answer within 0.2 s', retryable: true });
  });
});
