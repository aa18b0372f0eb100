// The client end to end against a running service with the affiliate-web simulator: keys, a check to its verdict,
// its report and evidence, a batch to completion with its CSV, pagination over checks and batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackcheckClient, TrackcheckTimeoutError, type Batch, type Check } from '../../src/index.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { recordingSleep, startListeningApp, type ListeningApp } from './running-service.js';

describe('TrackcheckClient against a running service', () => {
  let t: ListeningApp;
  let web: AffiliateWeb;
  let good: string;
  let broken: string;
  let client: TrackcheckClient;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    web.redirect('www.awin1.com', '/cread.php', (ctx) => web.url('www.shop.example', `/p/1?awc=1234_${ctx.query.get('awinaffid') ?? 'x'}`));
    web.page('www.shop.example', '/p/1', { html: '<title>Shoe</title>', setCookies: ['_aw_sn=1; Max-Age=2592000; Path=/'] });
    good = `${web.url('www.awin1.com', '/cread.php')}?awinmid=1234&awinaffid=5678`;
    web.redirect('go.broken.example', '/old', web.url('www.shop.example', '/gone'));
    broken = web.url('go.broken.example', '/old');
    t = await startListeningApp({ env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_RATE_LIMIT: '100000' } });
    client = new TrackcheckClient({ baseUrl: t.url, apiKey: (await t.createKey('dana')).key });
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it('answers health', async () => {
    expect(await client.health()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('creates, lists and revokes keys with a session token', async () => {
    const session = new TrackcheckClient({ baseUrl: t.url, sessionToken: await t.sessionToken('erin') });
    const created = await session.keys.create({ name: 'ci' });
    expect(created.key).toMatch(/^pg_live_/);
    expect(created.keyPrefix).toBe(created.key.slice(0, 12));
    const withKey = new TrackcheckClient({ baseUrl: t.url, apiKey: created.key });
    expect((await withKey.keys.list()).map((k) => k.id)).toEqual([created.id]);
    await expect(withKey.keys.create({ name: 'nope' })).rejects.toMatchObject({ status: 403, code: 'session_token_required' });
    await expect(withKey.keys.revoke(created.id)).rejects.toMatchObject({ status: 409, code: 'cannot_revoke_current_key' });
    expect((await session.keys.revoke(created.id)).id).toBe(created.id);
    await expect(withKey.keys.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(() => new TrackcheckClient({ baseUrl: t.url, apiKey: 'a', sessionToken: 'b' })).toThrow(TypeError);
  });

  it('runs a check to its verdict, then reads its report and evidence', async () => {
    const check = await client.checks.run({ url: good });
    expect(check).toMatchObject({ status: 'completed', willTrack: true, networkId: 'awin', url: good });
    const viaGet = await client.checks.get(check.slug);
    expect(viaGet.slug).toBe(check.slug);
    const first = await client.reports.get(check.slug);
    const second = await client.reports.get(check.slug);
    expect(second.viewCount).toBe(first.viewCount + 1);
    expect(second.reportUrl).toContain(check.slug);
    const evidence = await client.reports.evidence(check.slug);
    expect(evidence).toContain(check.slug);
    expect(evidence).toMatch(/SHA-256/);
    expect((await client.reports.get(check.slug)).viewCount).toBe(second.viewCount + 1);
  });

  it('waits for a queued check by polling with the injected sleep', async () => {
    const slow = new TrackcheckClient({ baseUrl: t.url, apiKey: (await t.createKey('frank')).key });
    const created = await slow.checks.create({ url: broken });
    const done = await slow.checks.waitFor(created.check.slug, { pollIntervalMs: 20 });
    expect(done).toMatchObject({ status: 'completed', willTrack: false, finalStatus: 404 });
    expect(done.issues.map((i) => i.code)).toContain('landing_error_status');
  });

  it('times out a wait with TrackcheckTimeoutError (fake time)', async () => {
    let now = 0;
    const { waits, sleep } = recordingSleep((ms) => (now += ms));
    const stuck: Check = (await client.checks.create({ url: good })).check;
    const fake = new TrackcheckClient({
      baseUrl: t.url,
      apiKey: (await t.createKey('gina')).key,
      sleep,
      now: () => now,
      // Every poll sees the check queued.
      fetch: async () => Response.json({ data: { ...stuck, status: 'queued' } }),
    });
    await expect(fake.checks.waitFor(stuck.slug, { pollIntervalMs: 1000, timeoutMs: 3500 })).rejects.toBeInstanceOf(TrackcheckTimeoutError);
    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it('runs a batch to completion with progress, and downloads its CSV', async () => {
    const batch = await client.batches.create({ urls: [good, broken, good] });
    expect(batch).toMatchObject({ status: 'queued', total: 3 });
    const seen: Batch[] = [];
    const done = await client.batches.waitFor(batch.id, { pollIntervalMs: 20, onProgress: (b) => seen.push(b) });
    expect(done).toMatchObject({ status: 'completed', completed: 3, failed: 0 });
    expect(seen.at(-1)?.status).toBe('completed');
    const csv = await client.batches.resultsCsv(batch.id);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain('landing_error_status');
  });

  it('iterates every check and every batch across pages, newest first', async () => {
    const owner = new TrackcheckClient({ baseUrl: t.url, apiKey: (await t.createKey('hana')).key, userAgent: null });
    const slugs: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      slugs.push((await owner.checks.create({ url: `${good}&n=${i}` })).check.slug);
    }
    const pages: string[] = [];
    const counting = new TrackcheckClient({
      baseUrl: t.url,
      sessionToken: await t.sessionToken('hana'),
      fetch: (input, init) => {
        pages.push(new URL(input).search);
        return fetch(input, init);
      },
    });
    const iterated: string[] = [];
    for await (const check of counting.checks.iterate({ pageSize: 2 })) iterated.push(check.slug);
    expect(iterated).toEqual([...slugs].reverse());
    expect(pages).toHaveLength(3);
    expect(pages[0]).toBe('?limit=2');
    expect(pages[1]).toMatch(/^\?limit=2&cursor=/);

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await owner.batches.create({ urls: [good] })).id);
      await owner.batches.waitFor(ids[i] ?? '', { pollIntervalMs: 20 });
    }
    const batchIds: string[] = [];
    for await (const b of owner.batches.iterate({ pageSize: 1 })) batchIds.push(b.id);
    expect(batchIds).toEqual([...ids].reverse());
    // Breaking out early fetches no further page. (A batch's checks are the owner's checks too.)
    const newest = (await owner.checks.list({ limit: 1 })).data[0]?.slug;
    pages.length = 0;
    for await (const check of counting.checks.iterate({ pageSize: 2 })) {
      expect(check.slug).toBe(newest);
      break;
    }
    expect(pages).toHaveLength(1);
  });
});
