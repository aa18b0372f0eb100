// The monitors API (CONTRACT.md section 8) on every database: validation, limits, ownership, changes, deletion,
// manual runs and events, with a switchable engine (no network) and the real queue, worker and scheduler tick.
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { startEngineApp, type EngineApp } from '../jobs/engine-app.js';
import { issueSessionToken } from '../../src/auth/embedded-idp.js';
import { settled, switchableEngine } from '../monitors/fixtures.js';

const MONITOR_FIELDS = [
  'id',
  'url',
  'checkType',
  'name',
  'intervalMinutes',
  'paused',
  'state',
  'createdAt',
  'lastRunAt',
  'nextRunAt',
  'lastCheck',
  'channels',
].sort();
const LINK = 'https://shop.jobs.example/p/1';

describe.each(DATABASES)('monitors API on $name', (database) => {
  const apps: EngineApp[] = [];
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()?.close();
  });

  async function start(env: Record<string, string> = {}) {
    const links = switchableEngine();
    const t = await startEngineApp({ database, engine: links.engine, env: { TRACKCHECK_RESOLVE: '*.jobs.example=127.0.0.1', ...env } });
    apps.push(t);
    const post = (url: string, payload: unknown, headers = t.headers) =>
      t.app.inject({ method: 'POST', url, headers, payload: payload as object });
    const get = (url: string, headers = t.headers) => t.app.inject({ method: 'GET', url, headers });
    return { t, links, post, get };
  }

  it('creates a monitor, runs it at once and shows its state and last check', async () => {
    const { t, post, get } = await start();
    const res = await post('/v1/monitors', {
      url: LINK,
      name: ' Shoes ',
      intervalMinutes: 60,
      channels: [{ type: 'webhook', url: 'https://hooks.jobs.example/in', secret: 's3cret-value' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json().data;
    expect(Object.keys(m).sort()).toEqual(MONITOR_FIELDS);
    expect(m).toMatchObject({
      url: LINK,
      checkType: 'link',
      name: 'Shoes',
      intervalMinutes: 60,
      paused: false,
      state: 'pending',
      lastCheck: null,
    });
    expect(m.channels).toEqual([{ type: 'webhook', url: 'https://hooks.jobs.example/in', hasSecret: true }]);
    expect(res.body).not.toContain('s3cret-value');
    const next = Date.parse(m.nextRunAt) - t.clock.now();
    expect(next).toBeGreaterThanOrEqual(30 * 60_000);
    expect(next).toBeLessThan(90 * 60_000);
    await settled(t.ctx, m.id);
    const after = (await get(`/v1/monitors/${m.id}`)).json().data;
    expect(after.state).toBe('healthy');
    expect(after.lastCheck).toMatchObject({ willTrack: true, healthScore: 100, finalUrl: LINK });
    const check = await t.app.inject({ method: 'GET', url: `/v1/checks/${after.lastCheck.slug}` });
    expect(check.json().data).toMatchObject({ url: LINK, status: 'completed' });
    // A steady healthy run raises nothing.
    expect((await get(`/v1/monitors/${m.id}/events`)).json()).toEqual({ data: [], nextCursor: null });
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const { t, post } = await start();
    const cases: [unknown, string][] = [
      [{ url: 'not a url' }, 'invalid_url'],
      [{ url: 'http://127.0.0.1/x' }, 'url_not_allowed'],
      [{ url: 'ftp://shop.jobs.example/x' }, 'url_not_allowed'],
      [{ url: LINK, interval_minutes: 14 }, 'invalid_parameter'],
      [{ url: LINK, interval_minutes: 10_081 }, 'invalid_parameter'],
      [{ url: LINK, name: '   ' }, 'invalid_parameter'],
      [{ url: LINK, name: 'x'.repeat(101) }, 'invalid_parameter'],
      [
        { url: LINK, channels: Array.from({ length: 6 }, () => ({ type: 'slack', url: 'https://hooks.jobs.example/s' })) },
        'invalid_parameter',
      ],
      [{ url: LINK, channels: [{ type: 'webhook', url: 'http://10.0.0.1/hook' }] }, 'url_not_allowed'],
      [{ url: LINK, channels: [{ type: 'email', to: 'ops@example.com' }] }, 'invalid_parameter'],
      [{ url: LINK, channels: [{ type: 'pager' }] }, 'invalid_parameter'],
      [{ url: LINK, check_type: 'dns' }, 'invalid_parameter'],
    ];
    for (const [body, code] of cases) {
      const res = await post('/v1/monitors', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code, JSON.stringify(body)).toBe(code);
    }
    const n = await t.ctx.store.db
      .selectFrom('monitors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });

  it('answers 409 too_many_monitors past TRACKCHECK_MONITORS_PER_USER; a deleted one frees its place', async () => {
    const { post, t } = await start({ TRACKCHECK_MONITORS_PER_USER: '2' });
    const a = (await post('/v1/monitors', { url: LINK })).json().data;
    expect((await post('/v1/monitors', { url: `${LINK}?b` })).statusCode).toBe(201);
    const refused = await post('/v1/monitors', { url: `${LINK}?c` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ type: 'invalid_request_error', code: 'too_many_monitors' });
    await t.app.inject({ method: 'DELETE', url: `/v1/monitors/${a.id}`, headers: t.headers });
    expect((await post('/v1/monitors', { url: `${LINK}?c` })).statusCode).toBe(201);
  });

  it("keeps another user's monitor out of reach (404) and out of lists", async () => {
    const { t, post, get } = await start();
    const m = (await post('/v1/monitors', { url: LINK })).json().data;
    const bob = { authorization: `Bearer ${await issueSessionToken({ dataDir: t.ctx.config.dataDir, userId: 'bob' })}` };
    for (const [method, url] of [
      ['GET', `/v1/monitors/${m.id}`],
      ['PATCH', `/v1/monitors/${m.id}`],
      ['DELETE', `/v1/monitors/${m.id}`],
      ['POST', `/v1/monitors/${m.id}/run`],
      ['GET', `/v1/monitors/${m.id}/events`],
      ['GET', '/v1/monitors/not-a-uuid'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bob, ...(method === 'PATCH' ? { payload: { paused: true } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await get('/v1/monitors', bob)).json()).toEqual({ data: [], nextCursor: null });
    expect((await get(`/v1/monitors/${m.id}`)).json().data.paused).toBe(false);
  });

  it('lists newest first with a cursor', async () => {
    const { t, post, get } = await start();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await post('/v1/monitors', { url: `${LINK}?n=${i}` })).json().data.id);
      t.clock.advance(1000);
    }
    const first = (await get('/v1/monitors?limit=2')).json();
    expect(first.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    const second = (await get(`/v1/monitors?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect((await get('/v1/monitors?cursor=bogus')).statusCode).toBe(400);
  });

  it('patches name, interval, channels and pause; pausing clears nextRunAt and resuming sets it', async () => {
    const { t, post } = await start();
    const m = (await post('/v1/monitors', { url: LINK })).json().data;
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/v1/monitors/${m.id}`, headers: t.headers, payload });
    const renamed = (
      await patch({ name: 'Boots', intervalMinutes: 15, channels: [{ type: 'slack', url: 'https://hooks.jobs.example/s' }] })
    ).json().data;
    expect(renamed).toMatchObject({
      name: 'Boots',
      intervalMinutes: 15,
      channels: [{ type: 'slack', url: 'https://hooks.jobs.example/s', hasSecret: false }],
    });
    expect(Date.parse(renamed.nextRunAt) - t.clock.now()).toBeLessThanOrEqual(22.5 * 60_000);
    expect((await patch({ paused: true })).json().data).toMatchObject({ paused: true, nextRunAt: null });
    const resumed = (await patch({ paused: false })).json().data;
    expect(resumed.paused).toBe(false);
    expect(resumed.nextRunAt).not.toBeNull();
    expect((await patch({ interval_minutes: 5 })).statusCode).toBe(400);
    expect((await patch({ url: 'https://other.jobs.example/' })).statusCode).toBe(400);
    expect((await patch({ name: null })).json().data.name).toBeNull();
  });

  it('deletes a monitor; its checks stay readable by slug', async () => {
    const { t, post, get } = await start();
    const m = (await post('/v1/monitors', { url: LINK })).json().data;
    await settled(t.ctx, m.id);
    const slug = (await get(`/v1/monitors/${m.id}`)).json().data.lastCheck.slug;
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/monitors/${m.id}`, headers: t.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toEqual({ id: m.id, deletedAt: new Date(t.clock.now()).toISOString() });
    expect((await get(`/v1/monitors/${m.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/monitors/${m.id}`, headers: t.headers })).statusCode).toBe(404);
    expect((await get(`/v1/checks/${slug}`)).statusCode).toBe(200);
    // A deleted monitor is never due.
    t.clock.advance(3 * 24 * 3600_000);
    expect((await t.ctx.scheduler.tick()).queued).toBe(0);
  });

  it('runs now (202), confirms a broken link before alerting, then reports recovery', async () => {
    const { t, links, post, get } = await start({ TRACKCHECK_MONITOR_CONFIRM_MS: '180000' });
    const m = (await post('/v1/monitors', { url: LINK })).json().data;
    await settled(t.ctx, m.id);
    links.set(LINK, 'broken');
    t.clock.advance(1000);
    const run = await post(`/v1/monitors/${m.id}/run`, undefined);
    expect(run.statusCode).toBe(202);
    expect(run.json().data).toMatchObject({ id: m.id, lastRunAt: new Date(t.clock.now()).toISOString() });
    await settled(t.ctx, m.id);
    // Suspect, not yet broken: the confirming run is due in 3 minutes, no event yet.
    const suspect = (await get(`/v1/monitors/${m.id}`)).json().data;
    expect(suspect.state).toBe('healthy');
    expect(Date.parse(suspect.nextRunAt)).toBe(t.clock.now() + 180_000);
    expect((await get(`/v1/monitors/${m.id}/events`)).json().data).toEqual([]);
    t.clock.advance(180_000);
    expect((await t.ctx.scheduler.tick()).queued).toBe(1);
    await settled(t.ctx, m.id);
    expect((await get(`/v1/monitors/${m.id}`)).json().data.state).toBe('broken');
    links.set(LINK, 'healthy');
    t.clock.advance(60_000);
    await post(`/v1/monitors/${m.id}/run`, undefined);
    await settled(t.ctx, m.id);
    const events = (await get(`/v1/monitors/${m.id}/events`)).json();
    expect(events.data.map((e: { type: string }) => e.type)).toEqual(['monitor.recovered', 'monitor.broken']);
    expect(events.data[1]).toMatchObject({ monitorId: m.id, deliveries: [], changes: expect.any(Array) });
    expect(events.data[0].previousCheckSlug).toBe(events.data[1].checkSlug);
    expect(links.runs(LINK)).toBe(4);
    const metrics = await t.ctx.metrics.registry.metrics();
    expect(metrics).toContain('trackcheck_monitor_events_total{type="monitor.broken"} 1');
    expect(metrics).toContain('trackcheck_monitor_events_total{type="monitor.recovered"} 1');
    expect(metrics).toContain('trackcheck_monitor_runs_total{state="broken"} 2');
    expect(metrics).toContain('trackcheck_monitor_runs_total{state="healthy"} 2');
  });

  it('raises monitor.changed when the chain changes with the same state, and never pages for a check that could not run', async () => {
    const { t, links, post, get } = await start();
    const m = (await post('/v1/monitors', { url: LINK })).json().data;
    await settled(t.ctx, m.id);
    const runAgain = async () => {
      t.clock.advance(1000);
      expect((await post(`/v1/monitors/${m.id}/run`, undefined)).statusCode).toBe(202);
      await settled(t.ctx, m.id);
      return (await get(`/v1/monitors/${m.id}`)).json().data;
    };
    links.set(LINK, 'unavailable');
    expect((await runAgain()).state).toBe('unknown');
    expect((await get(`/v1/monitors/${m.id}/events`)).json().data).toEqual([]);
    links.set(LINK, 'moved');
    expect((await runAgain()).state).toBe('healthy');
    const [changed] = (await get(`/v1/monitors/${m.id}/events`)).json().data;
    expect(changed).toMatchObject({
      type: 'monitor.changed',
      changes: [{ field: 'finalHostPath', from: 'shop.jobs.example/p/1', to: 'shop.jobs.example/elsewhere' }],
    });
    // The same answer again: nothing.
    await runAgain();
    expect((await get(`/v1/monitors/${m.id}/events`)).json().data).toHaveLength(1);
  });
});
