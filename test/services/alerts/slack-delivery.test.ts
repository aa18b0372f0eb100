// Slack delivery against a Slack-shaped endpoint on 127.0.0.1 (an incoming webhook answers 200 "ok").
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closePinnedClients } from '../../../src/checker/net/pinned-agent.js';
import { deliver, type DeliveryDeps } from '../../../src/services/alerts/index.js';
import { RESOLVE, sampleAlert, startReceiver, type Receiver } from './helpers.js';

const deps: DeliveryDeps = { options: { smtpUrl: null, alertFrom: 'trackcheck@example.test' }, resolve: RESOLVE };
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(closePinnedClients);

interface SlackBody {
  text?: unknown;
  blocks?: Array<{ type?: unknown; text?: { type?: unknown; text?: unknown }; elements?: Array<{ text?: unknown }> }>;
}

/** What Slack itself insists on: JSON with a non-empty text or blocks; anything else is a 400. */
async function slackEndpoint(): Promise<Receiver> {
  const r = await startReceiver((req, res) => {
    let body: SlackBody;
    try {
      body = JSON.parse(req.body.toString('utf8')) as SlackBody;
    } catch {
      res.writeHead(400).end('invalid_payload');
      return;
    }
    const ok = req.headers['content-type'] === 'application/json' && typeof body.text === 'string' && Array.isArray(body.blocks);
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'invalid_payload');
  });
  receivers.push(r);
  return r;
}

describe('slack delivery', () => {
  it('posts an incoming-webhook payload with text and readable blocks', async () => {
    const slack = await slackEndpoint();
    const result = await deliver(
      sampleAlert(),
      { type: 'slack', url: slack.url('slack.example.test', '/services/T0/B0/abc') },
      'd-s',
      deps,
    );
    expect(result).toEqual({ ok: true, detail: 'HTTP 200' });
    expect(slack.requests).toHaveLength(1);
    const req = slack.requests[0];
    expect(req?.url).toBe('/services/T0/B0/abc');
    expect(req?.headers).not.toHaveProperty('trackcheck-signature');
    const body = JSON.parse(req?.body.toString('utf8') ?? '{}') as SlackBody;
    expect(body.text).toMatch(/^Link broken: Spring sale &lt;Awin&gt;: This link is broken/);
    const blocks = body.blocks ?? [];
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(blocks[0]?.text?.text).toBe('Link broken: Spring sale <Awin>');
    expect(blocks[1]?.text?.text).toMatch(/^\*This link is broken: clicks on it will not be attributed/);
    expect(blocks[2]?.text?.text).toContain('• willTrack: yes → no');
    expect(blocks[2]?.text?.text).toContain('• issues: none → homepage_fallback');
    expect(blocks[3]?.elements?.[0]?.text).toBe(
      '<https://trackcheck.example/r/k3v9x0m2q8w1zt|New report>  ·  <https://trackcheck.example/r/a8d2j5n7p1r4ts|Previous report>',
    );
  });

  it('treats Slack refusing the payload as a failed attempt', async () => {
    const r = await startReceiver((_req, res) => res.writeHead(404).end('no_service'));
    receivers.push(r);
    const result = await deliver(sampleAlert(), { type: 'slack', url: r.url('slack.example.test') }, 'd-s2', deps);
    expect(result).toEqual({ ok: false, error: 'HTTP 404', retryable: true });
  });

  it('goes through the network guard like webhooks', async () => {
    const r = await slackEndpoint();
    const result = await deliver(sampleAlert(), { type: 'slack', url: `http://10.9.8.7:${r.port}/services/x` }, 'd-s3', deps);
    expect(result).toMatchObject({ ok: false });
    expect(r.connections).toBe(0);
  });
});
