// cmp checks with DuckDuckGo's autoconsent against the catalogue-only check (`autoconsent: false`, the check as
// it was before issue 19) on the same consent fixtures, interleaved in one run; and the memory autoconsent adds
// to a browser context. Run through bench/browser-check.ts --cmp (see bench/README.md).
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import { captureChain } from '../dist/checker/browser/capture.js';
import { createBrowserPool, type BrowserPool } from '../dist/checker/browser/pool.js';
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

async function timedCheck(pool: BrowserPool, sites: ConsentSites, site: SiteKey, autoconsent: boolean): Promise<number> {
  const began = performance.now();
  const result = await runConsentCheck(pool, sites.link(site), { autoconsent });
  const elapsed = performance.now() - began;
  const accepted = result.consent?.scenarios[1]?.attributionCookies ?? [];
  // The catalogue alone knows no Ketch: its reference run clicks by the words, which this banner also offers.
  if (!accepted.includes(ATTRIBUTION_COOKIE)) throw new Error(`${site} (autoconsent ${autoconsent}): no attribution cookie after accept`);
  return elapsed;
}

/** Proportional set size of a process and all its descendants (Linux /proc), in bytes. */
function treePss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Our Chromium: the browser process this Node process started (Playwright spawns it as a direct child). */
function browserPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--trackcheck-instance=')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('no Chromium child process found');
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
    const pss = treePss(browserPid());
    for (const context of contexts) await context.close();
    return { pss, heap };
  });
}

export async function measureConsentChecks(executablePath: string): Promise<{ block: string; met: boolean }> {
  const web = await startAffiliateWeb();
  const sites = installConsentSites(web);
  const pool = createBrowserPool({ executablePath, resolve: web.resolve, concurrency: 1, extraArgs: [`--ignore-certificate-errors-spki-list=${await simulatorSpki(web)}`] });
  try {
    const rows: string[] = [];
    let met = true;
    for (const site of [...TARGETED, ...INFORMATION]) {
      const runs = { with: [] as number[], without: [] as number[] };
      for (let i = 0; i < WARMUP + ITERATIONS; i += 1) {
        // Interleaved, the starting contender alternating, so the machine's drift hits both alike.
        const order = i % 2 === 0 ? [true, false] : [false, true];
        for (const autoconsent of order) {
          await pool.idle();
          const ms = await timedCheck(pool, sites, site, autoconsent);
          if (i >= WARMUP) (autoconsent ? runs.with : runs.without).push(ms);
        }
      }
      const ratio = median(runs.with) / median(runs.without);
      const targeted = TARGETED.includes(site);
      if (targeted) met &&= ratio <= TARGET_RATIO;
      rows.push(
        `| ${site} | ${median(runs.with).toFixed(0)} ms | ${median(runs.without).toFixed(0)} ms | ${targeted ? `**${ratio.toFixed(2)}×**` : `${ratio.toFixed(2)}×`} | ` +
          `${targeted ? `≤ ${TARGET_RATIO}×` : '(information)'} | ${targeted ? (ratio <= TARGET_RATIO ? 'yes' : 'no') : ''} |`,
      );
      console.log(rows.at(-1));
    }
    const memory = { without: [] as Array<{ pss: number; heap: number }>, with: [] as Array<{ pss: number; heap: number }> };
    for (let i = 0; i < 3; i += 1) {
      memory.without.push(await measureMemory(pool, sites, false));
      memory.with.push(await measureMemory(pool, sites, true));
    }
    const perContext = (key: 'pss' | 'heap'): string =>
      `${((median(memory.with.map((m) => m[key])) - median(memory.without.map((m) => m[key]))) / MEMORY_CONTEXTS / 1024 / 1024).toFixed(1)} MB`;
    const block = [
      `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} CPUs (load average ${os.loadavg()[0]?.toFixed(1)} at the end), ` +
        `median of ${ITERATIONS} interleaved runs each after ${WARMUP} warm-up runs, one check at a time.`,
      '',
      '| Fixture | cmp check with autoconsent | catalogue only (before issue 19) | Ratio | Target | Met |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Memory autoconsent adds per context (${MEMORY_CONTEXTS} contexts on the OneTrust fixture, banner found, median of 3): ` +
        `**${perContext('pss')}** of Chromium PSS (browser and all its processes), of which ${perContext('heap')} JS heap (after a garbage collection).`,
    ].join('\n');
    return { block, met };
  } finally {
    await pool.close();
    await web.close();
  }
}
