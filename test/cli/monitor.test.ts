// `trackcheck monitor` against a local HTTP server that speaks CONTRACT.md section 8 (the monitors API) from
// memory: what each subcommand sends, what it prints (text and JSON), and its exit codes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { monitorCommand } from '../../src/cli/monitor-command.js';
import type { Monitor, MonitorEvent } from '../../src/client/index.js';
import { fakeIo } from '../client/link-service.js';

const KEY = 'pg_live_0123abcd-0000-4000-8000-000000000001';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

function contractServer() {
  const monitors = new Map<string, Monitor>();
  const events = new Map<string, MonitorEvent[]>();
  const sent: Sent[] = [];
  const ids = { next: 1 };
  const fail = (res: http.ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test' });
    res.end(
      JSON.stringify({
        error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', code, message, request_id: 'req_test' },
      }),
    );
  };
  const ok = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = raw === '' ? undefined : (JSON.parse(raw) as Record<string, unknown>);
      sent.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
      if (req.headers.authorization !== `Bearer ${KEY}`) return fail(res, 401, 'authentication_required', 'Sign in.');
      const [, v1, collection, id, action] = url.pathname.split('/');
      if (v1 !== 'v1' || collection !== 'monitors') return fail(res, 404, 'not_found', 'No such route.');
      if (id === undefined) {
        if (req.method === 'GET') {
          const all = [...monitors.values()].reverse();
          const limit = Number(url.searchParams.get('limit') ?? 20);
          const start = Number(url.searchParams.get('cursor') ?? 0);
          const page = all.slice(start, start + limit);
          return ok(res, 200, { data: page, nextCursor: start + limit < all.length ? String(start + limit) : null });
        }
        const b = body ?? {};
        const interval = (b.interval_minutes as number | undefined) ?? 1440;
        if (interval < 15 || interval > 10080) return fail(res, 400, 'invalid_parameter', 'interval_minutes must be 15 to 10080.');
        const channels = ((b.channels as Record<string, string>[] | undefined) ?? []).map((c) =>
          c.type === 'email'
            ? { type: 'email' as const, to: c.to ?? '', hasSecret: false }
            : { type: c.type as 'webhook', url: c.url ?? '', hasSecret: c.secret !== undefined },
        );
        const monitor: Monitor = {
          id: `mon-${ids.next++}`,
          url: String(b.url),
          checkType: (b.check_type as 'link' | 'cmp' | undefined) ?? 'link',
          name: (b.name as string | undefined) ?? null,
          intervalMinutes: interval,
          paused: false,
          state: 'pending',
          createdAt: '2026-11-24T10:00:00.000Z',
          lastRunAt: null,
          nextRunAt: '2026-11-24T10:00:00.000Z',
          lastCheck: null,
          channels,
        };
        monitors.set(monitor.id, monitor);
        return ok(res, 201, { data: monitor });
      }
      const monitor = monitors.get(id);
      if (!monitor) return fail(res, 404, 'not_found', 'There is no monitor with this id.');
      if (action === 'run' && req.method === 'POST') return ok(res, 202, { data: monitor });
      if (action === 'events' && req.method === 'GET')
        return ok(res, 200, { data: (events.get(id) ?? []).slice(0, Number(url.searchParams.get('limit') ?? 20)), nextCursor: null });
      if (action === undefined && req.method === 'GET') return ok(res, 200, { data: monitor });
      if (action === undefined && req.method === 'DELETE') {
        monitors.delete(id);
        return ok(res, 200, { data: { id, deletedAt: '2026-11-24T11:00:00.000Z' } });
      }
      return fail(res, 405, 'method_not_allowed', 'No.');
    });
  });
  return { server, monitors, events, sent, ids };
}

describe('trackcheck monitor', () => {
  const api = contractServer();
  let env: Record<string, string>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    env = { TRACKCHECK_SERVER: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`, TRACKCHECK_API_KEY: KEY };
  });
  afterAll(async () => {
    await new Promise((resolve) => api.server.close(resolve));
  });
  beforeEach(() => {
    api.monitors.clear();
    api.events.clear();
    api.sent.length = 0;
    api.ids.next = 1;
  });

  const run = async (args: string[], e: Record<string, string> = env) => {
    const f = fakeIo();
    const code = await monitorCommand(args, e, f.io);
    return { code, stdout: f.stdout(), stderr: f.stderr() };
  };

  it('add sends the link, its settings and channels as the contract spells them, and prints the monitor', async () => {
    const r = await run([
      'add',
      'https://www.awin1.com/cread.php?awinmid=1',
      '--name',
      'Sidebar',
      '--interval',
      '60',
      '--check-type',
      'cmp',
      '--webhook',
      'https://hooks.example/in',
      '--secret',
      'whsec_12345678',
      '--slack',
      'https://hooks.slack.com/services/T/B/xyz',
      '--email',
      'me@example.com',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(api.sent).toEqual([
      {
        method: 'POST',
        path: '/v1/monitors',
        body: {
          url: 'https://www.awin1.com/cread.php?awinmid=1',
          check_type: 'cmp',
          name: 'Sidebar',
          interval_minutes: 60,
          channels: [
            { type: 'webhook', url: 'https://hooks.example/in', secret: 'whsec_12345678' },
            { type: 'slack', url: 'https://hooks.slack.com/services/T/B/xyz' },
            { type: 'email', to: 'me@example.com' },
          ],
        },
      },
    ]);
    expect(r.stdout).toMatch(/^id {10}mon-1$/m);
    expect(r.stdout).toContain('state       pending');
    expect(r.stdout).toContain('check       cmp every 1h');
    expect(r.stdout).toContain('alerts      webhook https://hooks.example/in (signed); slack hooks.slack.com; email me@example.com');
    expect(r.stdout).not.toContain('/services/T/B/xyz');

    const json = await run(['add', 'https://shop.example/p/1', '--format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: 'mon-2',
      url: 'https://shop.example/p/1',
      checkType: 'link',
      intervalMinutes: 1440,
      channels: [],
    });
    expect(api.sent[1]?.body).toEqual({ url: 'https://shop.example/p/1', check_type: 'link', channels: [] });
  });

  it('refuses bad flags before sending anything (exit 2), and reports the service refusing (exit 2)', async () => {
    for (const args of [
      ['add', 'https://shop.example/', '--secret', 'whsec_12345678'],
      ['add', 'https://shop.example/', '--interval', 'soon'],
      ['add', 'https://shop.example/', '--check-type', 'page'],
      ['add'],
      ['list', '--name', 'x'],
      ['show', 'mon-1', '--format', 'csv'],
      ['frobnicate'],
      ['list', '--no-such-flag'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^monitor: /);
    }
    expect(api.sent).toEqual([]);
    expect((await run(['list'], { TRACKCHECK_SERVER: env.TRACKCHECK_SERVER ?? '' })).stderr).toContain('TRACKCHECK_API_KEY is not set');

    const refused = await run(['add', 'https://shop.example/', '--interval', '5']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('monitor: invalid_parameter: interval_minutes must be 15 to 10080. [req_test]\n');
  });

  it('--help prints the usage (exit 0)', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: trackcheck monitor <command>');
    for (const command of [
      'add <url>',
      'list',
      'show <id>',
      'run <id>',
      'rm <id>',
      '--webhook <url> [--secret <text>]',
      '--slack <url>',
      '--email <address>',
    ])
      expect(r.stdout).toContain(command);
  });

  it('list pages through every monitor, newest first', async () => {
    for (let i = 1; i <= 103; i++) await run(['add', `https://shop.example/p/${i}`, ...(i === 2 ? ['--name', 'Second'] : [])]);
    api.sent.length = 0;
    const r = await run(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATE\s+EVERY\s+LAST RUN\s+NAME \/ URL$/);
    expect(lines).toHaveLength(104);
    expect(lines[1]).toMatch(/^mon-103\s+pending\s+1d\s+-\s+https:\/\/shop\.example\/p\/103$/);
    expect(r.stdout).toMatch(/^mon-2\s+pending\s+1d\s+-\s+Second {2}https:\/\/shop\.example\/p\/2$/m);
    expect(api.sent.map((s) => s.path)).toEqual(['/v1/monitors?limit=100', '/v1/monitors?limit=100&cursor=100']);
    const json = await run(['list', '--json']);
    expect((JSON.parse(json.stdout) as Monitor[]).map((m) => m.id).slice(0, 2)).toEqual(['mon-103', 'mon-102']);
    api.monitors.clear();
    expect((await run(['list'])).stdout).toBe('no monitors\n');
  });

  it('show prints the monitor and its recent events, exit by state; run queues; rm deletes', async () => {
    await run(['add', 'https://shop.example/p/1', '--name', 'Shoe']);
    const monitor = api.monitors.get('mon-1') as Monitor;
    Object.assign(monitor, {
      state: 'broken',
      lastRunAt: '2026-11-24T10:03:00.000Z',
      lastCheck: {
        slug: 'newslug0000001',
        willTrack: false,
        healthScore: 35,
        finalUrl: 'https://shop.example/',
        completedAt: '2026-11-24T10:03:04.000Z',
      },
    });
    api.events.set('mon-1', [
      {
        id: 'ev-1',
        monitorId: 'mon-1',
        type: 'monitor.broken',
        createdAt: '2026-11-24T10:03:05.000Z',
        checkSlug: 'newslug0000001',
        previousCheckSlug: 'oldslug0000001',
        changes: [
          { field: 'willTrack', from: true, to: false },
          { field: 'issueCodes', from: [], to: ['homepage_fallback'] },
        ],
        deliveries: [
          {
            channel: { type: 'webhook', url: 'https://hooks.example/in', hasSecret: true },
            status: 'pending',
            attempts: 2,
            lastError: 'HTTP 500',
          },
        ],
      },
    ]);
    api.sent.length = 0;
    const shown = await run(['show', 'mon-1', '--events', '5']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(1);
    expect(api.sent.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /v1/monitors/mon-1', 'GET /v1/monitors/mon-1/events?limit=5']);
    expect(shown.stdout).toContain('state       broken');
    expect(shown.stdout).toContain('last check  newslug0000001, health 35/100, lands on https://shop.example/');
    expect(shown.stdout).toContain(
      'recent events:\n2026-11-24T10:03:05.000Z  monitor.broken  report newslug0000001 (before: oldslug0000001)\n    willTrack: true → false\n    issueCodes: none → homepage_fallback\n    → webhook https://hooks.example/in (signed): pending after 2 attempts (HTTP 500)\n',
    );
    const json = await run(['show', 'mon-1', '--format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'mon-1', state: 'broken', events: [{ id: 'ev-1', type: 'monitor.broken' }] });
    monitor.state = 'healthy';
    expect((await run(['show', 'mon-1'])).code).toBe(0);
    monitor.state = 'unknown';
    expect((await run(['show', 'mon-1'])).code).toBe(3);

    api.sent.length = 0;
    const ran = await run(['run', 'mon-1']);
    expect(ran).toEqual({ code: 0, stdout: 'run queued for monitor mon-1 (Shoe)\n', stderr: '' });
    const removed = await run(['rm', 'mon-1']);
    expect(removed).toEqual({ code: 0, stdout: 'deleted monitor mon-1\n', stderr: '' });
    expect(api.sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/monitors/mon-1/run', 'DELETE /v1/monitors/mon-1']);
    const gone = await run(['show', 'mon-1']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toBe('monitor: not_found: There is no monitor with this id. [req_test]\n');
  });
});
