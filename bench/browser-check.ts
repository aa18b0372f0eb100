// Browser mode: a warm-pool browser check against a bare Playwright navigation of the same local chain, in
// the same run, plus checks per minute at the pool's concurrency. With --cmp: cmp checks with autoconsent
// against the catalogue-only check, and autoconsent's memory per context (cmp-check.ts).
// Run: npx tsx bench/browser-check.ts [--cmp] [--write]   (--write updates bench/README.md between the markers)
import { existsSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { runBrowserLinkCheck } from '../dist/checker/browser/browser-check.js';
import { CHROMIUM_ARGS } from '../dist/checker/browser/launch.js';
import { createBrowserPool, type BrowserPool } from '../dist/checker/browser/pool.js';
import { loadConfig } from '../dist/config.js';
import { measureConsentChecks } from './cmp-check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { updateReadme } from './readme-markers.js';

const ITERATIONS = Number(process.env['BENCH_ITERATIONS'] ?? 30);
const WARMUP = 5;
const CONCURRENCY = 4;
const THROUGHPUT_CHECKS = Number(process.env['BENCH_THROUGHPUT_CHECKS'] ?? 80);
const TARGET_RATIO = 1.3;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

/**
 * awin1 (302) → cloak page whose script builds the next URL (the HTTP follower cannot read it) → shop
 * redirect (302) → 8 KB product page. Returns the link and the landing URL.
 */
function buildChain(web: AffiliateWeb, latencyMs: number): { link: string; landing: string } {
  const tag = `l${latencyMs}`;
  const landing = web.url('www.shop.example', `/p/${tag}?awc=12345_bench&source=aw`);
  const shopRedirect = web.url('click.shop.example', `/r/${tag}?awc=12345_bench`);
  web.redirect('www.awin1.com', `/cread-${tag}.php`, web.url('go.cloak.example', `/r/${tag}`), { delayMs: latencyMs });
  web.page('go.cloak.example', `/r/${tag}`, {
    html: `<!doctype html><title>Redirecting</title><script>var parts = ${JSON.stringify(shopRedirect.split('?'))}; location.href = parts.join('?');</script>`,
    delayMs: latencyMs,
  });
  web.redirect('click.shop.example', `/r/${tag}`, landing, { delayMs: latencyMs, setCookies: ['click=1; Max-Age=86400; Path=/'] });
  web.page('www.shop.example', `/p/${tag}`, {
    html: `<!doctype html><html><head><title>Trail shoe</title></head><body>${'<p>Product copy.</p>'.repeat(400)}</body></html>`,
    delayMs: latencyMs,
  });
  return { link: web.url('www.awin1.com', `/cread-${tag}.php?awinmid=12345&awinaffid=1`), landing };
}

/**
 * The reference: Playwright alone, same binary and switches, direct connections. `fresh`: the timed run
 * includes creating (and closing) its context and page, like a check without a prepared context; otherwise
 * the page is ready before the clock starts, like a check from a warm pool.
 */
async function bareNavigation(browser: Browser, link: string, landing: string, fresh: boolean): Promise<number> {
  let began = performance.now();
  const context = await browser.newContext();
  const page = await context.newPage();
  if (!fresh) began = performance.now();
  await page.goto(link, { waitUntil: 'commit' });
  await page.waitForURL(landing, { waitUntil: 'load' });
  const navigated = performance.now();
  await context.close();
  return (fresh ? performance.now() : navigated) - began;
}

async function timedCheck(pool: BrowserPool, link: string, landing: string): Promise<number> {
  const began = performance.now();
  const result = await runBrowserLinkCheck(pool, link);
  const elapsed = performance.now() - began;
  if (result.finalUrl !== landing || result.hops.length !== 4)
    throw new Error(`unexpected result: ${result.finalUrl} (${result.hops.length} hops)`);
  return elapsed;
}

type Contender = 'warm' | 'bareReady' | 'cold' | 'bareFresh';

/** Median times of the four contenders, interleaved (rotating who goes first) so drift on a busy machine hits all alike. */
async function measureLatency(pools: { warm: BrowserPool; cold: BrowserPool }, bare: Browser, link: string, landing: string) {
  // Background work (the warm pool preparing its spare context) never overlaps a timed run.
  const quiet = async <T>(run: () => Promise<T>): Promise<T> => {
    await pools.warm.idle();
    return run();
  };
  const runs: Record<Contender, () => Promise<number>> = {
    warm: () => quiet(() => timedCheck(pools.warm, link, landing)),
    bareReady: () => quiet(() => bareNavigation(bare, link, landing, false)),
    cold: () => quiet(() => timedCheck(pools.cold, link, landing)),
    bareFresh: () => quiet(() => bareNavigation(bare, link, landing, true)),
  };
  const order: Contender[] = ['warm', 'bareReady', 'cold', 'bareFresh'];
  for (let i = 0; i < WARMUP; i += 1) for (const name of order) await runs[name]();
  const times: Record<Contender, number[]> = { warm: [], bareReady: [], cold: [], bareFresh: [] };
  for (let i = 0; i < ITERATIONS; i += 1) {
    for (let k = 0; k < order.length; k += 1) {
      const name = order[(i + k) % order.length] as Contender;
      times[name].push(await runs[name]());
    }
  }
  return { warm: median(times.warm), bareReady: median(times.bareReady), cold: median(times.cold), bareFresh: median(times.bareFresh) };
}

async function measureThroughput(run: () => Promise<unknown>, total: number, parallel: number): Promise<number> {
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        next += 1;
        await run();
      }
    }),
  );
  return (total / (performance.now() - began)) * 60_000;
}

async function main(): Promise<void> {
  const executablePath = loadConfig({
    TRACKCHECK_DATA_DIR: '/tmp',
    TRACKCHECK_CHROMIUM_PATH: process.env['TRACKCHECK_CHROMIUM_PATH'],
  }).chromiumPath;
  if (executablePath === null || !existsSync(executablePath)) {
    console.error('no Chromium binary (set TRACKCHECK_CHROMIUM_PATH): nothing to measure');
    process.exit(2);
  }
  if (process.argv.includes('--cmp')) {
    const { block, met } = await measureConsentChecks(executablePath);
    console.log(`\n${block}`);
    if (process.argv.includes('--write')) updateReadme('cmp-check', block);
    if (!met) process.exitCode = 1;
    return;
  }
  const web = await startAffiliateWeb();
  const chains = [0, 10].map((latency) => ({ latency, ...buildChain(web, latency) }));
  const pool = createBrowserPool({ executablePath, resolve: web.resolve, concurrency: CONCURRENCY });
  // The same pool without a prepared spare context: every check creates its context and page itself.
  const cold = createBrowserPool({ executablePath, resolve: web.resolve, concurrency: CONCURRENCY, spareContext: false });
  const hosts = ['www.awin1.com', 'go.cloak.example', 'click.shop.example', 'www.shop.example'];
  const bare = await chromium.launch({
    executablePath,
    args: [
      ...CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--host-resolver-rules')),
      `--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`,
    ],
  });
  const rows: string[] = [];
  let met = true;
  try {
    for (const { latency, link, landing } of chains) {
      const m = await measureLatency({ warm: pool, cold }, bare, link, landing);
      const ratio = m.warm / m.bareReady;
      const freshRatio = m.cold / m.bareFresh;
      met &&= ratio <= TARGET_RATIO;
      rows.push(
        `| ${latency} ms | ${ms(m.warm)} | ${ms(m.bareReady)} | **${ratio.toFixed(2)}×** | ≤ ${TARGET_RATIO}× | ${ratio <= TARGET_RATIO ? 'yes' : 'no'} | ` +
          `${ms(m.cold)} | ${ms(m.bareFresh)} | ${freshRatio.toFixed(2)}× |`,
      );
      console.log(rows.at(-1));
    }
    const { link, landing } = chains[0] as (typeof chains)[number];
    const perMinute = await measureThroughput(() => timedCheck(pool, link, landing), THROUGHPUT_CHECKS, CONCURRENCY);
    const barePerMinute = await measureThroughput(() => bareNavigation(bare, link, landing, true), THROUGHPUT_CHECKS, CONCURRENCY);
    const stats = pool.stats();
    const block = [
      `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, Chromium ${bare.version()}, ${os.cpus().length} CPUs ` +
        `(load average ${os.loadavg()[0]?.toFixed(1)} at the end), ${ITERATIONS} iterations each after ${WARMUP} warm-up runs.`,
      '',
      '| Injected latency per hop | Check, warm pool | Bare navigation, page ready | Ratio | Target | Met | Check, context created in the run | Bare, context created in the run | Ratio (information) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Throughput at the pool's concurrency (${CONCURRENCY} contexts, 0 ms chain, ${THROUGHPUT_CHECKS} checks): **${perMinute.toFixed(0)} browser checks/min** ` +
        `(bare Playwright navigations at the same concurrency: ${barePerMinute.toFixed(0)}/min). Browser launches during the whole run: ${stats.launches}.`,
    ].join('\n');
    console.log(`\n${block}`);
    if (process.argv.includes('--write')) updateReadme('browser-check', block);
  } finally {
    await bare.close();
    await pool.close();
    await cold.close();
    await web.close();
  }
  if (!met) process.exitCode = 1;
}

await main();
