// The batch pages over app.inject(): paste or upload (CSV, text) a list, follow the progress page until the batch
// finishes, download the CSV; refusals shown in the form with line numbers; ownership and CSRF.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { DATABASES } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReportWeb, type ReportWeb } from './report-fixtures.js';
import { Browser, csrfOf, HTML_ACCEPT, signInWithLink } from './signin-helpers.js';

interface Upload {
  filename: string;
  type: string;
  content: string | Buffer;
}

function multipart(fields: Record<string, string>, file?: Upload): { payload: Buffer; contentType: string } {
  const boundary = `----trackcheckTest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(DATABASES)('batch pages on $name', (database) => {
  let fixture: ReportWeb;
  let t: TestApp;
  let alice: Browser;

  beforeAll(async () => {
    fixture = await startReportWeb();
  });
  afterAll(async () => {
    await fixture.web.close();
  });
  beforeEach(async () => {
    t = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: fixture.web.resolveSpec } });
    alice = new Browser(t.app);
    await signInWithLink(alice, t.dataDir, 'alice');
  });
  afterEach(async () => {
    await t.close();
  });

  async function submitBatch(
    browser: Browser,
    fields: Record<string, string>,
    file?: Upload,
    withToken = true,
  ): Promise<LightMyRequestResponse> {
    const page = await browser.get('/batches');
    const { payload, contentType } = multipart(withToken ? { _csrf: csrfOf(page.body), ...fields } : fields, file);
    const cookie = [...browser.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    return t.app.inject({
      method: 'POST',
      url: '/batches',
      headers: { accept: HTML_ACCEPT, 'content-type': contentType, cookie, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      payload,
    });
  }

  async function batchUrls(id: string): Promise<string[]> {
    const rows = await t.ctx.store.db
      .selectFrom('checks')
      .select(['url', 'created_at'])
      .where('batch_id', '=', id)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => r.url);
  }

  it('pasted links: progress page that refreshes itself, then the verdicts, their counts and the CSV', async () => {
    const links = [fixture.trackingLink, fixture.strippedLink, fixture.walledLink];
    const res = await submitBatch(alice, { links: `# my links\n${links.join('\n')}\n\n`, check_type: 'link', name: '  Spring <links>  ' });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/batches\/[0-9a-f-]{36}$/);
    const id = location.slice('/batches/'.length);
    expect(await batchUrls(id)).toEqual(links);

    const first = await alice.get(location);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<h1>Spring &lt;links&gt;</h1>');
    expect(first.body).toMatch(/<p class="eyebrow" id="progress-h">3 links · link checks/);
    expect(first.body).toMatch(/<progress value="\d" max="3"/);
    for (let i = 0; i < 200 && (await t.ctx.store.batches.get(id))?.status !== 'completed'; i++) await delay(100);
    const done = await alice.get(location);
    expect(done.body).not.toContain('http-equiv="refresh"');
    expect(done.body).toMatch(/Finished <time[^>]*>[^<]+<\/time>: <strong>1<\/strong> of 3 links will track/);
    expect(done.body).toContain(
      '<p id="batch-counts"><strong>1</strong> of 3 will track · 1 will not track · 1 could not verify · 0 no tracking found</p>',
    );
    expect(done.body).toContain('vb-will_track');
    expect(done.body).toContain('vb-will_not_track');
    expect(done.body).toContain('vb-could_not_verify');
    if (!first.body.includes('Finished')) expect(first.body).toContain('<meta http-equiv="refresh" content="3">');

    const csv = await alice.get(`${location}/results.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="batch-${id}-results.csv"`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/,completed,will_track,true,\d+,Awin,/);

    const list = await alice.get('/batches');
    expect(list.body).toContain(`href="/batches/${id}">Spring &lt;links&gt;</a>`);
    expect(list.body).toContain('3 of 3');
    expect(list.body).toContain('1 of 3 will track<br><span class="muted">1 will not track · 1 could not verify</span>');
  }, 30_000);

  it('uploads: a CSV with a url column (quoted cells, other columns) and a text file', async () => {
    const csv = `name,url,notes\r\n"Shoes, red",${fixture.trackingLink},"said ""hi"""\r\nBroken,${fixture.strippedLink},\r\n,,\r\n`;
    const fromCsv = await submitBatch(alice, { links: '' }, { filename: 'links.csv', type: 'text/csv', content: `\uFEFF${csv}` });
    expect(fromCsv.statusCode, fromCsv.body.slice(0, 400)).toBe(303);
    expect(await batchUrls(String(fromCsv.headers.location).slice(9))).toEqual([fixture.trackingLink, fixture.strippedLink]);
    // The CSV's other columns follow the standard ones in results.csv, cell for cell.
    const results = (await alice.get(`${String(fromCsv.headers.location)}/results.csv`)).body.split('\r\n');
    expect(results[0]).toBe(
      'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues,name,notes',
    );
    expect(results[1]).toMatch(/,"Shoes, red","said ""hi"""$/);
    expect(results[2]).toMatch(/,Broken,$/);

    const pasted = await submitBatch(alice, { links: `campaign;link;status\nSpring;${fixture.walledLink};live\n` });
    expect(pasted.statusCode, pasted.body.slice(0, 400)).toBe(303);
    const pastedResults = (await alice.get(`${String(pasted.headers.location)}/results.csv`)).body.split('\r\n');
    expect(pastedResults[0]).toMatch(/,criticalIssues,campaign,input_status$/);
    expect(pastedResults[1]).toMatch(/,Spring,live$/);

    const text = `${fixture.walledLink}\n# skipped\n\n${fixture.trackingLink}\n`;
    const fromText = await submitBatch(alice, {}, { filename: 'links.txt', type: 'text/plain', content: text });
    expect(fromText.statusCode).toBe(303);
    expect(await batchUrls(String(fromText.headers.location).slice(9))).toEqual([fixture.walledLink, fixture.trackingLink]);
  });

  it('shows refusals in the form, by line, and creates nothing', async () => {
    const bad = await submitBatch(alice, { links: `${fixture.trackingLink}\n\nftp://files.example/x\nhttp://127.0.0.1/admin` });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/<p class="error" id="batch-error" role="alert">list line 3: [^<]+Also invalid: list line 4/);
    expect(bad.body).toContain('\n\nftp://files.example/x\nhttp://127.0.0.1/admin</textarea>');
    const csvBad = await submitBatch(
      alice,
      {},
      { filename: 'mine.csv', type: 'text/csv', content: `url\n${fixture.trackingLink}\nnot a link\n` },
    );
    expect(csvBad.body).toContain('mine.csv line 3: ');
    expect((await submitBatch(alice, { links: '  \n# nothing\n' })).body).toContain('Paste at least one link');
    const badName = await submitBatch(alice, { links: fixture.trackingLink, name: 'n'.repeat(101) });
    expect(badName.statusCode).toBe(400);
    expect(badName.body).toContain('name must be 1 to 100 characters');
    expect(badName.body).toContain(`value="${'n'.repeat(101)}"`);
    const longCell = await submitBatch(
      alice,
      {},
      {
        filename: 'cells.csv',
        type: 'text/csv',
        content: `url,notes\n${fixture.trackingLink},ok\n${fixture.trackingLink},${'x'.repeat(1001)}\n`,
      },
    );
    expect(longCell.statusCode).toBe(400);
    expect(longCell.body).toContain('cells.csv line 3, column &quot;notes&quot;: a cell may be at most 1000 characters.');
    expect(
      (await submitBatch(alice, { links: fixture.trackingLink }, { filename: 'a.txt', type: 'text/plain', content: fixture.trackingLink }))
        .body,
    ).toContain('not both');
    const many = Array.from({ length: 501 }, (_, i) => `${fixture.trackingLink}&n=${i}`).join('\n');
    const tooMany = await submitBatch(alice, { links: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('A batch takes at most 500 links; this one has 501.');
    const huge = await submitBatch(alice, {}, { filename: 'huge.txt', type: 'text/plain', content: Buffer.alloc(5 * 1024 * 1024, 'a') });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('a batch file may be at most 4 MB');
    expect(await t.ctx.store.db.selectFrom('batches').selectAll().execute()).toHaveLength(0);
  });

  it('refuses a post without the CSRF token, and other users see neither the batch nor its CSV', async () => {
    const forged = await submitBatch(alice, { links: fixture.trackingLink }, undefined, false);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('security token is missing');
    const res = await submitBatch(alice, { links: fixture.trackingLink });
    const location = String(res.headers.location);
    const bob = new Browser(t.app);
    await signInWithLink(bob, t.dataDir, 'bob');
    const page = await bob.get(location);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Batch not found');
    expect((await bob.get(`${location}/results.csv`)).statusCode).toBe(404);
    expect((await bob.get('/batches')).body).toContain('No batches yet.');
    expect((await new Browser(t.app).get(location)).headers.location).toBe(`/auth/signin?next=${encodeURIComponent(location)}`);
  });
});

describe('batch page limits', () => {
  it('an unfinished batch refreshes itself; a fourth unfinished batch is refused in the form', async () => {
    const t = await startTestApp({ worker: false });
    try {
      const alice = new Browser(t.app);
      await signInWithLink(alice, t.dataDir, 'alice');
      const first = await alice.submit('/batches', '/batches', { links: 'https://www.example.com/0' });
      expect(first.statusCode).toBe(303);
      // Nothing runs here (no worker): the page shows the waiting batch and reloads itself.
      const waiting = await alice.get(String(first.headers.location));
      expect(waiting.body).toContain('<meta http-equiv="refresh" content="3">');
      expect(waiting.body).toContain('Checking: 0 of 1 done.');
      expect(waiting.body).toContain('<h1>Batch of 1 link</h1>');
      expect(waiting.body).toContain(
        '<p id="batch-counts">So far: <strong>0</strong> of 1 will track · 0 will not track · 0 could not verify · 0 no tracking found</p>',
      );
      expect(waiting.body).toContain('vb-pending');
      for (let i = 1; i < 3; i++)
        expect((await alice.submit('/batches', '/batches', { links: `https://www.example.com/${i}` })).statusCode).toBe(303);
      const fourth = await alice.submit('/batches', '/batches', { links: 'https://www.example.com/4' });
      expect(fourth.statusCode).toBe(409);
      expect(fourth.body).toContain('You already have 3 unfinished batches');
    } finally {
      await t.close();
    }
  });
});
