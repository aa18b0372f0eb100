// cmp checks as they ship against the cmp check of an older build (BENCH_CMP_BASELINE: its compiled `src`, for
// example the commit before issue 19), on the same consent fixtures, interleaved in one run; and the memory
// autoconsent adds to a browser context. Run through bench/browser-check.ts --cmp (see bench/README.md).
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import { captureChain } from '../dist/checker/browser/capture.js';
import { createBrowserPool, type BrowserPool, type BrowserPoolOptions } from '../dist/checker/browser/pool.js';
import { processTree } from '../dist/checker/browser/process-tree.js';
import { startAutoconsent } from '../dist/checker/cmp/autoconsent-session.js';
import { runConsentCheck } from '../dist/checker/cmp/consent-check.js';
import { waitForBanner } from '../dist/checker/cmp/scenarios.js';
import { startAffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { installConsentSites, type ConsentSites, type SiteKey } from '../test/fixtures/cmp/consent-sites.js';
import { ATTRIBUTION_COOKIE } from '../test/fixtures/cmp/merchant-tag.js';
import { simulatorSpki } from '../test/checker/browser/browser-helpers.js';

const ITERATIONS = Number(process.env['BENCH_CMP_ITERATIONS'] ?? 10);
const WARMUP = 2;
const MEMORY_CONTEXTS = 4;
const TARGET_RATIO = 1.2;
/** Where the target applies: catalogue platforms answered by autoconsent, a cross-origin iframe and a shadow root. */
const TARGETED: SiteKey[] = ['onetrust', 'sourcepoint', 'usercentrics'];
/** For information: autoconsent claims success without clicking (our controls follow), no platform, autoconsent only. */
const INFORMATION: SiteKey[] = ['cookiebot', 'custom', 'ketch'];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** One engine's consent check and browser pool: this build's, or the baseline's. */
interface Contender {
  name: string;
  pool: BrowserPool;
  check: typeof runConsentCheck;
}

async function baseline(options: BrowserPoolOptions): Promise<Contender | null> {
  const dir = process.env['BENCH_CMP_BASELINE'];
  if (dir === undefined) return null;
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(dir, file)).href)) as T;
  const { runConsentCheck: check } = await load<{ runConsentCheck: typeof runConsentCheck }>('checker/cmp/consent-check.js');
  const { createBrowserPool: create } = await load<{ createBrowserPool: typeof createBrowserPool }>('checker/browser/pool.js');
  return { name: `baseline (${dir})`, pool: create(options), check };
}

async function timedCheck(contender: Contender, sites: ConsentSites, site: SiteKey): Promise<number> {
  const began = performance.now();
  const result = await contender.check(contender.pool, sites.link(site));
  const elapsed = performance.now() - began;
  const accepted = result.consent?.scenarios[1]?.attributionCookies ?? [];
  if (!accepted.includes(ATTRIBUTION_COOKIE)) throw new Error(`${site} (${contender.name}): no attribution cookie after accept`);
  return elapsed;
}

/** Proportional set size of the Chromium tree the pool runs, in bytes. */
function treePss(pool: BrowserPool): number {
  const pid = pool.stats().pid;
  if (pid === null) throw new Error('no Chromium running');
  return processTree(pid).reduce((sum, p) => sum + p.memoryKb, 0) * 1024;
}

async function jsHeapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

/**
 * MEMORY_CONTEXTS contexts, each on the OneTrust fixture's landing page with its banner found, with or
 * without autoconsent: the browser tree's PSS and the pages' JS heaps once they are all open.
 */
async function measureMemory(pool: BrowserPool, sites: ConsentSites, autoconsent: boolean): Promise<{ pss: number; heap: number }> {
  return pool.withContext(async (lease) => {
    const contexts: BrowserContext[] = [];
    let heap = 0;
    for (let i = 0; i < MEMORY_CONTEXTS; i += 1) {
      const context = await lease.newContext();
      contexts.push(context);
      const { page } = await captureChain(context, lease.egress, sites.link('onetrust'));
      const session = autoconsent ? await startAutoconsent(page) : null;
      await waitForBanner(page, 5_000, session);
      heap += await jsHeapUsed(page);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pss = treePss(pool);
    for (const context of contexts) await context.close();
    return { pss, heap };
  });
}

export async function measureConsentChecks(executablePath: string): Promise<{ block: string; met: boolean }> {
  const web = await startAffiliateWeb();
  const sites = installConsentSites(web);
  const options: BrowserPoolOptions = {
    executablePath,
    resolve: web.resolve,
    concurrency: 1,
    extraArgs: [`--ignore-certificate-errors-spki-list=${await simulatorSpki(web)}`],
  };
  const current: Contender = { name: 'this build', pool: createBrowserPool(options), check: runConsentCheck };
  const reference = await baseline(options);
  try {
    const rows: string[] = [];
    let met = reference !== null;
    for (const site of [...TARGETED, ...INFORMATION]) {
      const runs = new Map<Contender, number[]>([[current, []], ...(reference === null ? [] : [[reference, []] as [Contender, number[]]])]);
      for (let i = 0; i < WARMUP + ITERATIONS; i += 1) {
        // Interleaved, the starting contender alternating, so the machine's drift hits both alike.
        const order = [...runs.keys()];
        if (i % 2 === 1) order.reverse();
        for (const contender of order) {
          await contender.pool.idle();
          const ms = await timedCheck(contender, sites, site);
          if (i >= WARMUP) runs.get(contender)?.push(ms);
        }
      }
      const now = median(runs.get(current) ?? []);
      const before = reference === null ? null : median(runs.get(reference) ?? []);
      const ratio = before === null ? null : now / before;
      const targeted = TARGETED.includes(site);
      if (targeted && ratio !== null) met &&= ratio <= TARGET_RATIO;
      const shown = ratio === null ? '–' : targeted ? `**${ratio.toFixed(2)}×**` : `${ratio.toFixed(2)}×`;
      const verdict = !targeted || ratio === null ? '' : ratio <= TARGET_RATIO ? 'yes' : 'no';
      rows.push(
        `| ${site} | ${now.toFixed(0)} ms | ${before === null ? '–' : `${before.toFixed(0)} ms`} | ${shown} | ${targeted ? `≤ ${TARGET_RATIO}×` : '(information)'} | ${verdict} |`,
      );
      console.log(rows.at(-1));
    }
    const memory = { without: [] as Array<{ pss: number; heap: number }>, with: [] as Array<{ pss: number; heap: number }> };
    for (let i = 0; i < 3; i += 1) {
      memory.without.push(await measureMemory(current.pool, sites, false));
      memory.with.push(await measureMemory(current.pool, sites, true));
    }
    const perContext = (key: 'pss' | 'heap'): string =>
      `${((median(memory.with.map((m) => m[key])) - median(memory.without.map((m) => m[key]))) / MEMORY_CONTEXTS / 1024 / 1024).toFixed(1)} MB`;
    const block = [
      `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} CPUs (load average ${os.loadavg()[0]?.toFixed(1)} at the end), ` +
        `median of ${ITERATIONS} interleaved runs each after ${WARMUP} warm-up runs, one check at a time. Baseline: ${reference?.name ?? 'none given'}.`,
      '',
      '| Fixture | cmp check as it ships | baseline cmp check | Ratio | Target | Met |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Memory autoconsent adds per context (${MEMORY_CONTEXTS} contexts on the OneTrust fixture, banner found, median of 3): ` +
        `**${perContext('pss')}** of Chromium PSS (browser and all its processes), of which ${perContext('heap')} JS heap (after a garbage collection).`,
    ].join('\n');
    return { block, met };
  } finally {
    await Promise.all([current.pool.close(), reference?.pool.close()]);
    await web.close();
  }
}
