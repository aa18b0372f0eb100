// The engine's one entry point: follow the chain, recognise networks, analyse. The API, the worker and the
// `trackcheck check` CLI all call runCheck; it knows nothing of users, keys or databases.
// Link checks run over HTTP and escalate to the browser when the landing page navigates on by a script the
// follower cannot read; cmp checks always need the browser (docs/consent.md).
import { analyzeTrace, needsBrowser } from './browser/analyze-trace.js';
import { runBrowserLinkCheck } from './browser/browser-check.js';
import { BrowserCrashed, BrowserUnavailable, type BrowserPool } from './browser/pool.js';
import { followChain, type ChainOptions } from './chain.js';
import { runConsentCheck } from './cmp/consent-check.js';
import { browserEngineRecord, httpEngineRecord } from './engine-record.js';
import type { CheckResult } from './types.js';

export type CheckType = 'link' | 'cmp';

export interface CheckOptions extends ChainOptions {
  checkType?: CheckType;
  /** The process's Chromium pool (context.ts). Absent or null: HTTP only, and cmp checks fail. */
  browser?: BrowserPool | null;
}

/** Why the checker itself could not run (the check ends `failed`, not with a verdict). */
export class CheckerUnavailable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckerUnavailable';
  }
}

function captureOptions(options: CheckOptions) {
  return { maxHops: options.maxHops, hopTimeoutMs: options.hopTimeoutMs, checkTimeoutMs: options.checkTimeoutMs };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A browser result with the settings it ran with (the browser that ran it is still the pool's). */
function withBrowserRecord(result: CheckResult, options: CheckOptions): CheckResult {
  const version = options.browser?.version() ?? 'version unknown';
  return { ...result, engine: browserEngineRecord(options, version) };
}

/** Runs browser work once more on a fresh browser when the first one died under it. */
async function retryOnCrash<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof BrowserCrashed)) throw err;
    return work();
  }
}

async function runCmp(url: string, options: CheckOptions): Promise<CheckResult> {
  const pool = options.browser;
  if (pool === undefined || pool === null) {
    throw new CheckerUnavailable('browser_unavailable', 'Consent-banner (cmp) checks need the browser engine (Chromium), which this process does not run. Run a link check instead.');
  }
  try {
    return await retryOnCrash(() => runConsentCheck(pool, url, withoutUndefined(captureOptions(options)), options.signal));
  } catch (err) {
    if (err instanceof BrowserUnavailable) {
      throw new CheckerUnavailable('browser_unavailable', `Consent-banner (cmp) checks need a browser, and none can run here: ${err.message}`);
    }
    if (err instanceof BrowserCrashed) {
      throw new CheckerUnavailable('browser_crashed', 'The browser crashed twice while checking this link; try again later.');
    }
    throw err;
  }
}

export async function runCheck(url: string, options: CheckOptions = {}): Promise<CheckResult> {
  if ((options.checkType ?? 'link') === 'cmp') return withBrowserRecord(await runCmp(url, options), options);
  const trace = await followChain(url, options);
  const viaHttp = { ...analyzeTrace(url, trace, 'http'), engine: httpEngineRecord(options) };
  const pool = options.browser;
  if (!needsBrowser(trace) || pool === undefined || pool === null || pool.state() === 'unavailable') return viaHttp;
  try {
    return withBrowserRecord(await retryOnCrash(() => runBrowserLinkCheck(pool, url, withoutUndefined(captureOptions(options)), options.signal)), options);
  } catch {
    // The HTTP verdict ("a script navigates on, not followed") is still a true answer; the browser's failure
    // (no Chromium, a crash, a page that broke the browser) must not turn a link check into a failed one.
    return viaHttp;
  }
}
