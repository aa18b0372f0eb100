import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { addLinkFarm, waitForBatch, waitForEmptyQueue, type BatchBody } from '../jobs/batch-fixtures.js';
import { buildResultsCsv, formatCsvField, formatCsvRow } from '../../src/services/batch-csv.js';
import { BATCH_BODY_LIMIT } from '../../src/http/routes/batches.js';

const BATCH_FIELDS = [
  'id',
  'name',
  'status',
  'checkType',
  'total',
  'completed',
  'failed',
  'createdAt',
  'completedAt',
  'summary',
  'checks',
].sort();

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

describe.each(DATABASES)('batches on $name', (database) => {
  let web: AffiliateWeb;
  let farm: ReturnType<typeof addLinkFarm>;
  let brokenLink: string;
  let deadLink: string;
  let commaLink: string;
  const apps: TestApp[] = [];

  async function start(env: Record<string, string> = {}, worker = true): Promise<TestApp> {
    const t = await startTestApp({
      database,
      worker,
      // Tests poll batches far faster than the per-minute limit allows; the rate-limit test sets its own.
      env: { TRACKCHECK_RESOLVE: `${web.resolveSpec},dead.broken-links.example=127.0.0.1`, TRACKCHECK_RATE_LIMIT: '100000', ...env },
    });
    apps.push(t);
    return t;
  }

  beforeAll(async () => {
    web = await startAffiliateWeb();
    farm = addLinkFarm(web, { count: 500, hosts: 50, prefix: 'farm' });
    web.redirect('go.broken-links.example', '/old', web.url('shop.broken-links.example', '/gone'));
    brokenLink = web.url('go.broken-links.example', '/old');
    web.page('shop.broken-links.example', '/gone', { html: '<title>Not found</title>', status: 404 });
    // Resolves to 127.0.0.1 on a port nobody listens on: a refused connection, a verdict of its own.
    deadLink = 'http://dead.broken-links.example:9/x';
    web.page('shop.broken-links.example', '/p', { html: '<title>ok</title>' });
    commaLink = web.url('shop.broken-links.example', '/p?sizes=4,5&name="runner"');
  });
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()?.close();
  });
  afterAll(async () => {
    await web.close();
  });

  it('runs a 500-link batch to completion, reporting progress in submission order', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: farm.urls } });
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json().data as BatchBody;
    expect(Object.keys(created).sort()).toEqual(BATCH_FIELDS);
    expect(res.headers.location).toBe(`/v1/batches/${created.id}`);
    expect(created).toMatchObject({ checkType: 'link', total: 500, completed: 0, failed: 0, completedAt: null });
    expect(created.checks.map((c) => c.url)).toEqual(farm.urls);

    const done = await waitForBatch(t.app, bearer(key), created.id, 60_000);
    expect(done).toMatchObject({ status: 'completed', total: 500, completed: 500, failed: 0 });
    expect(done.completedAt).not.toBeNull();
    expect(done.checks.map((c) => c.slug)).toEqual(created.checks.map((c) => c.slug));
    expect(new Set(done.checks.map((c) => c.status))).toEqual(new Set(['completed']));
    for (let i = 0; i < 500; i += 97) {
      const hop = farm.firstHop(i);
      expect(web.hits(hop.host, hop.path)).toBe(1);
    }
    const one = await t.app.inject({ method: 'GET', url: `/v1/checks/${done.checks[7]?.slug}` });
    expect(one.json().data).toMatchObject({ url: farm.urls[7], status: 'completed', redirectCount: 1, finalStatus: 200 });
    // The batch's checks are the owner's checks too.
    const mine = await t.app.inject({ method: 'GET', url: '/v1/checks?limit=1', headers: bearer(key) });
    expect(mine.json().data[0].slug).toBe(done.checks[499]?.slug);
    expect(await waitForEmptyQueue(() => t.ctx.store.jobs.depth())).toEqual({ queued: 0, running: 0 });
  }, 90_000);

  it('never fails a batch for its links: broken and unreachable links get verdicts', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [brokenLink, deadLink, farm.urls[0]] },
    });
    const done = await waitForBatch(t.app, bearer(key), res.json().data.id);
    expect(done).toMatchObject({ status: 'completed', completed: 3, failed: 0 });
    const verdicts = await Promise.all(
      done.checks.map(async (c) => (await t.app.inject({ method: 'GET', url: `/v1/checks/${c.slug}` })).json().data),
    );
    // The farm's link lands fine but no network handles it: no tracking found (CONTRACT.md section 7).
    expect(verdicts.map((v) => v.willTrack)).toEqual([false, false, false]);
    expect(verdicts.map((v) => v.verdict)).toEqual(['will_not_track', 'will_not_track', 'no_tracking_found']);
    expect(done.checks.map((c) => (c as { verdict?: string }).verdict)).toEqual(['will_not_track', 'will_not_track', 'no_tracking_found']);
    expect(verdicts[1].issues.map((i: { code: string }) => i.code)).toContain('landing_unreachable');
    // Checks the checker itself cannot run (status failed) are covered in test/jobs/worker.test.ts.
  });

  it('refuses invalid batches whole, naming the index, and creates nothing', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const good = farm.urls.slice(0, 5);
    const cases: [unknown, number, string, string?][] = [
      [{ urls: [...good.slice(0, 3), 'not a url', ...good.slice(3)] }, 400, 'invalid_url', 'urls[3]'],
      [{ urls: [...good, 'http://10.0.0.1/admin'] }, 400, 'url_not_allowed', 'urls[5]'],
      [{ urls: ['ftp://x.example/', ...good, ''] }, 400, 'url_not_allowed', 'urls[0]'],
      [{ urls: Array.from({ length: 501 }, (_, i) => farm.urls[i % 500]) }, 400, 'too_many_urls', '500'],
      [{ urls: [] }, 400, 'invalid_parameter', 'urls'],
      [{}, 400, 'missing_parameter'],
      [{ urls: 'http://a.example/' }, 400, 'invalid_parameter'],
      [{ urls: [good[0], 42] }, 400, 'invalid_parameter', 'urls.1'],
      [{ urls: good, check_type: 'full' }, 400, 'invalid_parameter'],
      [{ urls: good, extra: true }, 400, 'invalid_parameter'],
    ];
    for (const [payload, status, code, mention] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: payload as object });
      const label = JSON.stringify(payload).slice(0, 120);
      expect(res.statusCode, label).toBe(status);
      expect(res.json().error.code, label).toBe(code);
      if (mention) expect(res.json().error.message, label).toContain(mention);
    }
    const many = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [good[0], 'x', good[1], 'y'] },
    });
    expect(many.json().error.message).toMatch(/urls\[1\].*Also invalid: urls\[3\]/);
    expect(await tableSizes(t)).toEqual([0, 0, 0]);
  });

  it('shows a batch only to its owner, lists the caller’s newest first and paginates', async () => {
    const t = await start({}, false);
    const alice = await t.createKey('alice');
    const bob = await t.createKey('bob');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/batches',
        headers: bearer(alice.key),
        payload: { urls: farm.urls.slice(i, i + 2) },
      });
      ids.push(res.json().data.id);
    }
    const bobs = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(bob.key),
      payload: { urls: [farm.urls[9]], check_type: 'cmp' },
    });
    expect(bobs.json().data).toMatchObject({ checkType: 'cmp', status: 'queued', total: 1 });
    const bobId = bobs.json().data.id as string;
    const aliceId = ids[0] ?? '';

    expect((await t.app.inject({ method: 'GET', url: `/v1/batches/${aliceId}`, headers: bearer(alice.key) })).statusCode).toBe(200);
    for (const url of [`/v1/batches/${aliceId}`, `/v1/batches/${aliceId}/results.csv`]) {
      const other = await t.app.inject({ method: 'GET', url, headers: bearer(bob.key) });
      expect(other.statusCode, url).toBe(404);
      expect(other.json().error.code).toBe('not_found');
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'x'.repeat(150)]) {
      expect((await t.app.inject({ method: 'GET', url: `/v1/batches/${id}`, headers: bearer(alice.key) })).statusCode).toBe(404);
    }
    // A session token of the same user is the same owner.
    const session = await t.sessionToken('alice');
    expect((await t.app.inject({ method: 'GET', url: `/v1/batches/${aliceId}`, headers: bearer(session) })).statusCode).toBe(200);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await t.app.inject({ method: 'GET', url: `/v1/batches${query}`, headers: bearer(alice.key) });
      expect(page.statusCode).toBe(200);
      const body = page.json() as { data: BatchBody[]; nextCursor: string | null };
      expect(body.data.length).toBeLessThanOrEqual(2);
      for (const b of body.data) expect(Object.keys(b).sort()).toEqual(BATCH_FIELDS);
      seen.push(...body.data.map((b) => b.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(seen).not.toContain(bobId);
    for (const q of ['?limit=0', '?limit=101', '?cursor=garbage', '?other=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/batches${q}`, headers: bearer(alice.key) });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('invalid_parameter');
    }
  });

  it('requires a valid bearer on every batch route (no anonymous access)', async () => {
    const t = await start({}, false);
    const { key, id } = await t.createKey('alice');
    const created = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: [farm.urls[0]] } });
    const batchId = created.json().data.id as string;
    const session = await t.sessionToken('alice');
    await t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(session) });
    const routes: ['GET' | 'POST', string][] = [
      ['POST', '/v1/batches'],
      ['GET', '/v1/batches'],
      ['GET', `/v1/batches/${batchId}`],
      ['GET', `/v1/batches/${batchId}/results.csv`],
    ];
    const cases: [Record<string, string>, string][] = [
      [{}, 'authentication_required'],
      [bearer('garbage'), 'invalid_credentials'],
      [{ authorization: 'Basic YWxpY2U6cHc=' }, 'invalid_credentials'],
      [bearer('pg_live_00000000-0000-4000-8000-000000000000'), 'invalid_api_key'],
      [bearer(key), 'invalid_api_key'],
    ];
    for (const [method, url] of routes) {
      for (const [headers, code] of cases) {
        const res = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: { urls: [farm.urls[0]] } } : {}) });
        expect(res.statusCode, `${method} ${url} ${code}`).toBe(401);
        expect(res.json().error).toMatchObject({ type: 'authentication_error', code });
        expect(res.headers['x-ratelimit-limit']).toBeDefined();
      }
    }
    expect(await tableSizes(t)).toEqual([1, 1, 1]);
  });

  it('allows 3 unfinished batches per user, also under concurrent submissions', async () => {
    const t = await start({}, false);
    const alice = await t.createKey('alice');
    const bob = await t.createKey('bob');
    const post = (key: string) =>
      t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: farm.urls.slice(0, 20) } });
    const burst = await Promise.all(Array.from({ length: 8 }, () => post(alice.key)));
    const statuses = burst.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([202, 202, 202, 409, 409, 409, 409, 409]);
    const refused = burst.find((r) => r.statusCode === 409);
    expect(refused?.json().error).toMatchObject({ type: 'invalid_request_error', code: 'too_many_batches' });
    expect(await tableSizes(t)).toEqual([3, 60, 60]);
    expect((await post(bob.key)).statusCode).toBe(202);

    // Once one of alice's batches completes, she may submit again.
    const first = burst.find((r) => r.statusCode === 202)?.json().data as BatchBody;
    await t.ctx.store.db.updateTable('checks').set({ status: 'completed' }).where('batch_id', '=', first.id).execute();
    await t.ctx.store.batches.completeIfDone(first.id, new Date(t.clock.now()).toISOString());
    expect((await post(alice.key)).statusCode).toBe(202);
    expect((await post(alice.key)).statusCode).toBe(409);
  });

  it('counts a batch as one request for rate limiting and takes 500 URLs of 8 KiB', async () => {
    const t = await start({ TRACKCHECK_RATE_LIMIT: '3' }, false);
    const { key } = await t.createKey('alice');
    const long = farm.urls.map((u, i) => `${u}?pad=${String(i).padEnd(8192 - u.length - 5, 'x')}`);
    expect(long.every((u) => u.length === 8192)).toBe(true);
    const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls: long } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
    expect(res.json().data.total).toBe(500);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: bearer(key),
      payload: { urls: [...long.slice(0, 2), `${long[2]}y`] },
    });
    expect(tooLong.json().error).toMatchObject({ code: 'invalid_url' });
    expect(tooLong.json().error.message).toContain('urls[2]');
    const huge = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      // Past the body limit (which leaves room for the optional input columns too).
      payload: JSON.stringify({ urls: Array.from({ length: Math.ceil(BATCH_BODY_LIMIT / 8192) + 10 }, () => long[0]) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('payload_too_large');
  });

  it('exports the results as CSV, one row per link in submission order', async () => {
    const t = await start();
    const { key } = await t.createKey('alice');
    const urls = [farm.urls[3], brokenLink, commaLink];
    const res = await t.app.inject({ method: 'POST', url: '/v1/batches', headers: bearer(key), payload: { urls } });
    const batch = await waitForBatch(t.app, bearer(key), res.json().data.id);
    const csv = await t.app.inject({ method: 'GET', url: `/v1/batches/${batch.id}/results.csv`, headers: bearer(key) });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="batch-${batch.id}-results.csv"`);
    const lines = csv.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues');
    expect(lines).toHaveLength(urls.length + 2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${farm.urls[3]},${batch.checks[0]?.slug},completed,no_tracking_found,false,\\d+,,http://shop\\.farm\\.example:\\d+/p/3\\?ref=3,200,1,$`,
      ),
    );
    expect(lines[2]).toContain(`,${batch.checks[1]?.slug},completed,will_not_track,false,`);
    expect(lines[2]).toMatch(/,404,1,[a-z_ ]*landing_error_status[a-z_ ]*$/);
    expect(lines[3]?.startsWith(`"${commaLink.replace(/"/g, '""')}",`)).toBe(true);
  });
});

describe('results CSV formatting', () => {
  it('quotes per RFC 4180 and defuses spreadsheet formulas', () => {
    expect(formatCsvField('plain')).toBe('plain');
    expect(formatCsvField('a,b')).toBe('"a,b"');
    expect(formatCsvField('say "hi"')).toBe('"say ""hi"""');
    expect(formatCsvField('two\nlines')).toBe('"two\nlines"');
    expect(formatCsvField(null)).toBe('');
    expect(formatCsvField(false)).toBe('false');
    expect(formatCsvField(87)).toBe('87');
    for (const evil of ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) {
      const cell = formatCsvField(evil);
      expect(cell.replace(/^"/, '').startsWith("'"), evil).toBe(true);
    }
    expect(formatCsvField('=1,2')).toBe(`"'=1,2"`);
    expect(formatCsvRow(['a', null, 1])).toBe('a,,1\r\n');
  });

  it('writes empty verdict cells for checks without a result', () => {
    const csv = buildResultsCsv([
      {
        slug: 'abc',
        user_id: 'u',
        batch_id: 'b',
        url: 'http://x.example/',
        check_type: 'link',
        status: 'failed',
        created_at: '',
        started_at: null,
        completed_at: null,
        result: null,
        error_code: 'check_crashed',
        error_message: 'm',
        view_count: 0,
        verdict: 'could_not_verify',
        input_values: null,
        monitor_id: null,
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe('http://x.example/,abc,failed,could_not_verify,,,,,,,');
  });
});
