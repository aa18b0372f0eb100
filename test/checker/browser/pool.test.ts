// The browser pool: launched lazily and once, reused across checks, bounded concurrency, a killed browser
// relaunched (also under a running check), and the no-Chromium path for link and cmp checks.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBrowserLinkCheck } from '../../../src/checker/browser/browser-check.js';
import { BrowserCrashed, BrowserUnavailable, createBrowserPool, type BrowserPool } from '../../../src/checker/browser/pool.js';
import { CheckerUnavailable, runCheck } from '../../../src/checker/check.js';
import { loadConfig } from '../../../src/config.js';
import { createContext } from '../../../src/context.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from './browser-helpers.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Main Chromium processes (no --type=) whose command line carries `marker`. */
function mainProcessesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        return args.some((a) => a.startsWith(marker)) && !args.some((a) => a.startsWith('--type=')) ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function jsChain(web: AffiliateWeb): string {
  const landing = web.url('www.shop.example', '/p/1?awc=1_abc');
  web.page('go.cloak.example', '/r', { html: `<script>var to = ${JSON.stringify(landing)}.split('#')[0]; location.href = to;</script>` });
  web.page('www.shop.example', '/p/1', '<title>Shoe</title>');
  web.page('www.slow.example', '/p', { html: '<title>Slow</title>', delayMs: 1_500 });
  return web.url('go.cloak.example', '/r');
}

describe('without Chromium', () => {
  const missing = '/nonexistent/chromium';

  it('reports unavailable, refuses browser work, and leaves link checks in HTTP mode', async () => {
    const web = await startAffiliateWeb();
    const link = jsChain(web);
    const pool = createBrowserPool({ executablePath: missing, resolve: web.resolve });
    try {
      expect(pool.state()).toBe('unavailable');
      await expect(pool.withContext(async () => 1)).rejects.toBeInstanceOf(BrowserUnavailable);
      const result = await runCheck(link, { resolve: web.resolve, browser: pool });
      expect(result.mode).toBe('http');
      expect(result.issues.map((i) => i.code)).toContain('script_redirect_unresolved');
      const failure = await runCheck(link, { resolve: web.resolve, browser: pool, checkType: 'cmp' }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(CheckerUnavailable);
      expect(failure).toMatchObject({ code: 'browser_unavailable' });
      expect((failure as Error).message).toContain(missing);
      // No pool at all (e.g. a process built without one): the same clear failure.
      await expect(runCheck(link, { resolve: web.resolve, checkType: 'cmp' })).rejects.toMatchObject({ code: 'browser_unavailable' });
    } finally {
      await pool.close();
      await web.close();
    }
  });
});

describe.skipIf(CHROMIUM === null)(`browser pool${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let link = '';
  let pool: BrowserPool;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    link = jsChain(web);
    pool = await createSimulatorPool(web, { concurrency: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    await web?.close();
  });

  it('launches lazily, then serves many checks from one browser process', async () => {
    expect(pool.state()).toBe('not started');
    expect(pool.stats()).toMatchObject({ launches: 0, pid: null });
    const first = await runBrowserLinkCheck(pool, link);
    expect(first.finalUrl).toBe(web.url('www.shop.example', '/p/1?awc=1_abc'));
    const pid = pool.stats().pid;
    expect(pid).not.toBeNull();
    const results = await Promise.all(Array.from({ length: 6 }, () => runBrowserLinkCheck(pool, link)));
    for (let i = 0; i < 3; i += 1) results.push(await runBrowserLinkCheck(pool, link));
    expect(results.every((r) => r.mode === 'browser' && r.finalUrl === first.finalUrl)).toBe(true);
    expect(pool.state()).toBe('available');
    expect(pool.stats()).toMatchObject({ launches: 1, pid, active: 0, queued: 0 });
    expect(mainProcessesWith('--trackcheck-instance=')).toContain(pid);
    // Everything goes through the guarded proxy, loopback included, and Chromium's own resolver answers nothing.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(args).toEqual(
      expect.arrayContaining([
        '--proxy-bypass-list=<-loopback>',
        '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
        '--disable-quic',
      ]),
    );
    expect(args.some((arg) => /^--proxy-server=http:\/\/127\.0\.0\.1:\d+$/.test(arg))).toBe(true);
  });

  it('never runs more contexts at once than its concurrency', async () => {
    let active = 0;
    let peak = 0;
    let queuedSeen = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        pool.withContext(async () => {
          active += 1;
          peak = Math.max(peak, active, pool.stats().active);
          queuedSeen = Math.max(queuedSeen, pool.stats().queued);
          await sleep(120);
          active -= 1;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(queuedSeen).toBeGreaterThan(0);
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('relaunches a browser that was killed', async () => {
    const before = pool.stats();
    expect(before.pid).not.toBeNull();
    process.kill(before.pid as number, 'SIGKILL');
    await waitFor(() => pool.stats().pid === null);
    expect(pool.state()).toBe('available');
    const result = await runBrowserLinkCheck(pool, link);
    expect(result.mode).toBe('browser');
    const after = pool.stats();
    expect(after.launches).toBe(before.launches + 1);
    expect(after.pid).not.toBe(before.pid);
  });

  it('fails work the crash interrupted with BrowserCrashed, and a link check retries on a new browser', async () => {
    const running = pool.withContext(async ({ context }) => {
      const page = await context.newPage();
      await page.goto(web.url('www.slow.example', '/p'));
    });
    const hits = web.hits('www.slow.example', '/p');
    await waitFor(() => web.hits('www.slow.example', '/p') > hits);
    process.kill(pool.stats().pid as number, 'SIGKILL');
    await expect(running).rejects.toBeInstanceOf(BrowserCrashed);

    const launches = pool.stats().launches;
    const slowLink = web.url('www.slow.example', '/p');
    web.page('go.cloak.example', '/slow', { html: `<script>location.href = ${JSON.stringify(slowLink)}.trim();</script>` });
    const check = runCheck(web.url('go.cloak.example', '/slow'), { resolve: web.resolve, browser: pool });
    const slowHits = web.hits('www.slow.example', '/p');
    await waitFor(() => web.hits('www.slow.example', '/p') > slowHits);
    process.kill(pool.stats().pid as number, 'SIGKILL');
    const result = await check;
    expect(result.mode).toBe('browser');
    expect(result.finalUrl).toBe(slowLink);
    expect(pool.stats().launches).toBe(launches + 2);
  });

  it('closes its browser on close()', async () => {
    const own = await createSimulatorPool(web);
    await runBrowserLinkCheck(own, link);
    const pid = own.stats().pid;
    await own.close();
    await waitFor(() => pid === null || !mainProcessesWith('--trackcheck-instance=').includes(pid));
    await expect(own.withContext(async () => 1)).rejects.toBeInstanceOf(BrowserUnavailable);
  });
});

describe.skipIf(CHROMIUM === null)('browser pool from the configuration', () => {
  it('runs TRACKCHECK_BROWSER_CONCURRENCY contexts at once', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-pool-'));
    const ctx = await createContext(
      loadConfig({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_CHROMIUM_PATH: CHROMIUM ?? '', TRACKCHECK_BROWSER_CONCURRENCY: '3' }),
    );
    try {
      // Contexts stay open until three are in: then three slots are taken and the other two calls wait.
      let entered = 0;
      let seen: { active: number; queued: number } | undefined;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      await Promise.all(
        Array.from({ length: 5 }, () =>
          ctx.browser.withContext(async () => {
            entered += 1;
            if (entered === 3) {
              seen = ctx.browser.stats();
              release();
            }
            await Promise.race([released, sleep(10_000)]);
          }),
        ),
      );
      expect(seen).toMatchObject({ active: 3, queued: 2 });
    } finally {
      await ctx.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
