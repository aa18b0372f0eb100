// The client covers the API exactly: its operation table equals the path+method set of the served /openapi.json,
// every table entry is a method of the client, and calling each method once sends exactly that method and path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, TrackcheckClient, type OperationName } from '../../src/index.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { startListeningApp, type ListeningApp } from './running-service.js';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => HTTP_METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

function templateRegex(template: string): RegExp {
  return new RegExp(`^${template.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
}

describe('client ↔ /openapi.json', () => {
  let t: ListeningApp;
  let web: AffiliateWeb;
  let documented: string[];

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const link = web.url('www.shop.example', '/p/1');
    web.page('www.shop.example', '/p/1', '<title>Shoe</title>');
    void link;
    t = await startListeningApp({ env: { TRACKCHECK_RESOLVE: web.resolveSpec } });
    documented = operationsOf((await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> });
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it('has one client operation per documented path and method, and no other', () => {
    const table = Object.values(OPERATIONS)
      .map((op) => `${op.method} ${op.path}`)
      .sort();
    expect(documented.length).toBeGreaterThanOrEqual(13);
    expect(table).toEqual(documented);
  });

  it('exposes every operation of the table as a method', () => {
    const client = new TrackcheckClient({ baseUrl: t.url });
    for (const name of Object.keys(OPERATIONS)) {
      const [group, method] = name.includes('.') ? name.split('.') : [undefined, name];
      const owner: unknown = group === undefined ? client : (client as unknown as Record<string, unknown>)[group];
      expect(typeof (owner as Record<string, unknown>)[method ?? ''], name).toBe('function');
    }
  });

  it('sends each documented path and method when every method is called once', async () => {
    const sent: string[] = [];
    const recording = (input: string, init: RequestInit) => {
      const path = new URL(input).pathname;
      const template = documented.find((op) => op.startsWith(`${init.method} `) && templateRegex(op.slice(op.indexOf(' ') + 1)).test(path));
      sent.push(template ?? `${init.method} ${path} (undocumented)`);
      return fetch(input, init);
    };
    const session = new TrackcheckClient({ baseUrl: t.url, sessionToken: await t.sessionToken('carol'), fetch: recording });
    const created = await session.keys.create({ name: 'coverage' });
    const client = new TrackcheckClient({ baseUrl: t.url, apiKey: created.key, fetch: recording });
    const calls: Record<OperationName, () => Promise<unknown>> = {
      health: () => client.health(),
      'keys.create': async () => created,
      'keys.list': () => client.keys.list(),
      'keys.revoke': async () => session.keys.revoke((await session.keys.create({ name: 'spare' })).id),
      'checks.create': () => client.checks.create({ url: web.url('www.shop.example', '/p/1') }),
      'checks.list': () => client.checks.list({ limit: 5 }),
      'checks.get': async () => client.checks.get((await client.checks.list({ limit: 1 })).data[0]?.slug ?? ''),
      'reports.get': async () => client.reports.get((await client.checks.list({ limit: 1 })).data[0]?.slug ?? ''),
      'reports.evidence': async () => client.reports.evidence((await client.checks.list({ limit: 1 })).data[0]?.slug ?? ''),
      'batches.create': () => client.batches.create({ urls: [web.url('www.shop.example', '/p/1')] }),
      'batches.list': () => client.batches.list(),
      'batches.get': async () => client.batches.get((await client.batches.list({ limit: 1 })).data[0]?.id ?? ''),
      'batches.resultsCsv': async () => client.batches.resultsCsv((await client.batches.list({ limit: 1 })).data[0]?.id ?? ''),
      'scans.create': () => client.scans.create({ url: web.url('www.shop.example', '/p/1') }),
      'scans.list': () => client.scans.list(),
      'scans.get': async () => client.scans.get((await client.scans.list({ limit: 1 })).data[0]?.id ?? ''),
      'scans.resultsCsv': async () => client.scans.resultsCsv((await client.scans.list({ limit: 1 })).data[0]?.id ?? ''),
      'monitors.create': () => client.monitors.create({ url: web.url('www.shop.example', '/p/1'), name: 'coverage' }),
      'monitors.list': () => client.monitors.list({ limit: 5 }),
      'monitors.get': async () => client.monitors.get((await client.monitors.list({ limit: 1 })).data[0]?.id ?? ''),
      'monitors.update': async () => client.monitors.update((await client.monitors.list({ limit: 1 })).data[0]?.id ?? '', { paused: true }),
      'monitors.run': async () => client.monitors.run((await client.monitors.list({ limit: 1 })).data[0]?.id ?? ''),
      'monitors.events': async () => client.monitors.events((await client.monitors.list({ limit: 1 })).data[0]?.id ?? ''),
      'monitors.delete': async () =>
        client.monitors.delete((await client.monitors.create({ url: web.url('www.shop.example', '/p/1') })).id),
    };
    for (const call of Object.values(calls)) await call();
    expect([...new Set(sent)].sort()).toEqual(documented);
  });
});
