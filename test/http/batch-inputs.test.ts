// Batches over HTTP, issue 15: a name, the submitter's own columns carried to results.csv (columns + values),
// each link's verdict in the batch status (stored on the check, not parsed from its result) and the verdicts
// counted in `summary`. Bad input is a 400 in the contract's envelope and creates nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { addLinkFarm, waitForBatch } from '../jobs/batch-fixtures.js';
import { parseCsv } from '../../src/lib/csv.js';

interface Summary {
  willTrack: number;
  wontTrack: number;
  couldNotVerify: number;
  noTrackingFound: number;
}

async function tableSizes(t: TestApp): Promise<number[]> {
  const db = t.ctx.store.db;
  const count = async (table: 'batches' | 'checks' | 'jobs') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return [await count('batches'), await count('checks'), await count('jobs')];
}

describe.each(DATABASES)('batch names, input columns and verdicts on $name', (database) => {
  let web: AffiliateWeb;
  let farm: ReturnType<typeof addLinkFarm>;
  let trackingLink: string;
  let brokenLink: string;
  const apps: TestApp[] = [];

  async function start(worker = true): Promise<TestApp> {
    const t = await startTestApp({ database, worker, env: { TRACKCHECK_RESOLVE: web.resolveSpec, TRACKCHECK_RATE_LIMIT: '100000' } });
    apps.push(t);
    return t;
  }

  beforeAll(async () => {
    web = await startAffiliateWeb();
    farm = addLinkFarm(web, { count: 20, hosts: 4, prefix: 'inputs' });
    // An Awin click that keeps its click id and sets the merchant's cookie: will track.
    web.redirect('www.awin1.com', '/cread.php', web.url('www.shop-tracks.example', '/p/1?awc=1234_1700000000_abc'), {
      setCookies: ['aw1234=1; Max-Age=2592000; Path=/'],
    });
    web.page('www.shop-tracks.example', '/p/1', {
      html: '<title>Trainers</title>',
      setCookies: ['_aw_m_1234=abc; Max-Age=2592000; Path=/'],
    });
    trackingLink = web.url('www.awin1.com', '/cread.php?awinmid=1234&awinaffid=5678');
    web.redirect('go.gone-shop.example', '/old', web.url('www.gone-shop.example', '/gone'));
    web.page('www.gone-shop.example', '/gone', { html: '<title>Not found</title>', status: 404 });
    brokenLink = web.url('go.gone-shop.example', '/old');
  });
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()?.close();
  });
  afterAll(async () => {
    await web.close();
  });

  it('names a batch and shows each link’s verdict and the verdicts counted, in GET and in the list', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const urls = [trackingLink, brokenLink, farm.urls[0] ?? ''];
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls, name: '  Spring links  ' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json().data;
    expect(created.name).toBe('Spring links');
    expect(created.summary).toEqual({ willTrack: 0, wontTrack: 0, couldNotVerify: 0, noTrackingFound: 0 });
    expect(created.checks.map((c: { verdict: unknown }) => c.verdict)).toEqual([null, null, null]);

    const done = await waitForBatch(t.app, bearer(key), created.id);
    const body = (await t.app.inject({ method: 'GET', url: `/v1/batches/${created.id}`, headers: bearer(key) })).json().data;
    expect(done.status).toBe('completed');
    expect(body.name).toBe('Spring links');
    const verdicts = body.checks.map((c: { verdict: string }) => c.verdict);
    expect(verdicts).toEqual(['will_track', 'will_not_track', 'no_tracking_found']);
    // The same verdicts as each check's own.
    for (const c of body.checks as { slug: string; verdict: string }[]) {
      expect((await t.app.inject({ method: 'GET', url: `/v1/checks/${c.slug}` })).json().data.verdict).toBe(c.verdict);
    }
    expect(body.summary).toEqual({ willTrack: 1, wontTrack: 1, couldNotVerify: 0, noTrackingFound: 1 } satisfies Summary);
    // Stored on the check when it finished.
    const stored = await t.ctx.store.db
      .selectFrom('checks')
      .select(['slug', 'verdict'])
      .where('batch_id', '=', created.id)
      .orderBy('created_at')
      .execute();
    expect(stored.map((r) => r.verdict)).toEqual(verdicts);

    const list = (await t.app.inject({ method: 'GET', url: '/v1/batches', headers: bearer(key) })).json().data;
    expect(list[0]).toMatchObject({ id: created.id, name: 'Spring links', summary: body.summary });

    const unnamed = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [farm.urls[1]], name: null },
    });
    expect(unnamed.json().data.name).toBeNull();
    const plain = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: [farm.urls[2]] } });
    expect(plain.json().data.name).toBeNull();
  });

  it('reads each link’s verdict from the stored column, not from its result', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [trackingLink, farm.urls[3]] },
    });
    const done = await waitForBatch(t.app, bearer(key), res.json().data.id);
    const slug = done.checks[0]?.slug ?? '';
    // A stand-in value no result would produce for this link: the batch status must show it.
    await t.ctx.store.db.updateTable('checks').set({ verdict: 'could_not_verify' }).where('slug', '=', slug).execute();
    const body = (await t.app.inject({ method: 'GET', url: `/v1/batches/${done.id}`, headers: bearer(key) })).json().data;
    expect(body.checks[0].verdict).toBe('could_not_verify');
    expect(body.summary).toEqual({ willTrack: 0, wontTrack: 0, couldNotVerify: 1, noTrackingFound: 1 });
    expect((await t.app.inject({ method: 'GET', url: `/v1/checks/${slug}` })).json().data.verdict).toBe('will_track');
  });

  it('carries columns + values to results.csv after the standard columns, renaming clashes input_<name>', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const payload = {
      urls: [trackingLink, brokenLink],
      columns: ['campaign', 'Status', ' placement '],
      values: [
        ['Spring, shoes', 'live', '=HYPERLINK("x")'],
        ['Old "offer"', 'paused', 'multi\nline'],
      ],
    };
    const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload });
    expect(res.statusCode, res.body).toBe(202);
    const batch = await waitForBatch(t.app, bearer(key), res.json().data.id);
    const csv = await t.app.inject({ method: 'GET', url: `/v1/batches/${batch.id}/results.csv`, headers: bearer(key) });
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(csv.body);
    expect(header?.fields).toEqual([
      'url',
      'slug',
      'status',
      'verdict',
      'willTrack',
      'healthScore',
      'network',
      'finalUrl',
      'finalStatus',
      'redirectCount',
      'criticalIssues',
      'campaign',
      'input_Status',
      'placement',
    ]);
    expect(rows.map((r) => [r.fields[0], r.fields[3], ...r.fields.slice(11)])).toEqual([
      [trackingLink, 'will_track', 'Spring, shoes', 'live', `'=HYPERLINK("x")`],
      [brokenLink, 'will_not_track', 'Old "offer"', 'paused', 'multi\nline'],
    ]);
    // A batch without columns keeps the standard header.
    const plain = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: [farm.urls[4]] } });
    const plainCsv = await t.app.inject({ method: 'GET', url: `/v1/batches/${plain.json().data.id}/results.csv`, headers: bearer(key) });
    expect(plainCsv.body.split('\r\n')[0]).toBe(
      'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues',
    );
  });

  it('refuses a bad name or bad columns with a 400 in the envelope and creates nothing', async () => {
    const t = await start(false);
    const { key } = await t.createKey('alice');
    const urls = [farm.urls[5] ?? '', farm.urls[6] ?? ''];
    const long = 'x'.repeat(501);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ urls, name: '' }, 'invalid_parameter', 'name'],
      [{ urls, name: '   ' }, 'invalid_parameter', 'name'],
      [{ urls, name: 'n'.repeat(101) }, 'invalid_parameter', 'name'],
      [{ urls, name: 'two\nlines' }, 'invalid_parameter', 'name'],
      [{ urls, name: 42 }, 'invalid_parameter', 'name'],
      [{ urls, columns: ['campaign'] }, 'invalid_parameter', 'columns needs values'],
      [{ urls, values: [['a'], ['b']] }, 'invalid_parameter', 'values needs columns'],
      [{ urls, columns: ['campaign'], values: [['a']] }, 'invalid_parameter', 'values has 1 rows for 2 urls'],
      [{ urls, columns: ['campaign'], values: [['a'], ['b', 'c']] }, 'invalid_parameter', 'values[1] has 2 cells for 1 columns'],
      [
        {
          urls,
          columns: ['a', 'a'],
          values: [
            ['1', '2'],
            ['3', '4'],
          ],
        },
        'invalid_parameter',
        'columns[1]',
      ],
      [{ urls, columns: [' '], values: [['1'], ['2']] }, 'invalid_parameter', 'columns[0] is blank'],
      [{ urls, columns: ['a'], values: [['1'], [2]] }, 'invalid_parameter', 'values'],
      [{ urls, columns: Array.from({ length: 51 }, (_, i) => `c${i}`), values: [[], []] }, 'invalid_parameter', 'columns'],
      [{ urls, columns: ['a'], values: [['1'], ['y'.repeat(1001)]] }, 'invalid_parameter', 'values'],
      [
        {
          urls: Array.from({ length: 500 }, () => farm.urls[0]),
          columns: ['a', 'b'],
          values: Array.from({ length: 500 }, () => [long, long]),
        },
        'invalid_parameter',
        'characters of cells per batch',
      ],
      [{ urls: ['not a url', farm.urls[0]], columns: ['a'], values: [['1'], ['2']] }, 'invalid_url', 'urls[0]'],
    ];
    for (const [payload, code, mention] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload });
      const label = JSON.stringify(payload).slice(0, 120);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error, label).toMatchObject({ type: 'invalid_request_error', code });
      expect(res.json().error.message, label).toContain(mention);
      expect(res.json().error.request_id, label).toMatch(/^req_/);
    }
    expect(await tableSizes(t)).toEqual([0, 0, 0]);
    // camelCase spelling rules do not touch these names; a valid one goes through.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls, columns: ['a'], values: [['1'], ['2']], checkType: 'link' },
    });
    expect(ok.statusCode, ok.body).toBe(202);
  });
});
