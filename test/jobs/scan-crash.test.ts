// Crash safety of a page scan with real processes: `kill -9` of trackcheck serve while it reads the page (the scan
// accepted, its links not queued yet), then a restart: the scan is read again once the dead worker's lease lapses,
// its links are queued once and it completes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import type { RunningService } from '../helpers/spawn-service.js';
import { openStore } from '../../src/store/index.js';
import { bearerFor, killHard, startServe } from './processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 of trackcheck serve while a scan reads its page (SQLite)', () => {
  let web: AffiliateWeb;
  let dataDir: string;
  let service: RunningService | undefined;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-scan-crash-'));
  });
  afterAll(async () => {
    if (service) await killHard(service.child);
    await web.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the page again after a restart and completes the scan with each link checked once', async () => {
    let slow = true;
    web.route('www.slow-article.example', '/post', async (_req, res) => {
      // The first read hangs until the service is killed; the one after the restart answers at once.
      if (slow) await sleep(4000);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<a href="/go/one">One</a><a href="/go/two">Two</a><a href="/about">About</a>`);
    });
    web.page('www.slow-article.example', '/go/one', '<title>one</title>');
    web.page('www.slow-article.example', '/go/two', '<title>two</title>');
    const env = {
      TRACKCHECK_DATA_DIR: dataDir,
      TRACKCHECK_RESOLVE: web.resolveSpec,
      TRACKCHECK_JOB_LEASE_MS: '1500',
      TRACKCHECK_RATE_LIMIT: '100000',
    };
    const headers = { ...(await bearerFor(dataDir)), 'content-type': 'application/json' };
    service = await startServe(env);
    const posted = await fetch(`${service.url}/v1/scans`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: web.url('www.slow-article.example', '/post') }),
    });
    expect(posted.status).toBe(202);
    const { id } = ((await posted.json()) as { data: { id: string } }).data;
    while (web.hits('www.slow-article.example', '/post') === 0) await sleep(20);
    await killHard(service.child);

    slow = false;
    service = await startServe(env);
    let scan: { status: string; total: number; completed: number; links: { slug: string }[] } = {
      status: 'queued',
      total: 0,
      completed: 0,
      links: [],
    };
    for (const until = Date.now() + 30_000; scan.status !== 'completed' && Date.now() < until; await sleep(100)) {
      scan = ((await (await fetch(`${service.url}/v1/scans/${id}`, { headers })).json()) as { data: typeof scan }).data;
    }
    expect(scan).toMatchObject({ status: 'completed', total: 2, completed: 2 });
    expect(web.hits('www.slow-article.example', '/go/one')).toBe(1);
    const store = await openStore(`sqlite:${path.join(dataDir, 'trackcheck.db')}`, { migrate: false });
    try {
      const checks = await store.checks.listByBatch(id);
      expect(checks.map((c) => c.slug).sort()).toEqual(scan.links.map((l) => l.slug).sort());
      expect(await store.jobs.depth()).toEqual({ queued: 0, running: 0 });
    } finally {
      await store.close();
    }
  }, 60_000);
});
