// The engine's one entry point: follow the chain, recognise networks, analyse. The API, the worker and the
// `trackcheck check` CLI all call runCheck; it knows nothing of users, keys or databases.
// Link checks run over HTTP and escalate to the browser when the landing page navigates on by a script the
// follower cannot read; cmp checks always need the browser (docs/consent.md).
// Every check has one overall deadline (`deadlineMs`), enforced: at it, browser contexts are closed whatever the
// page is doing, and the check ends "could not verify" (a link check) or failed (a cmp check).
import { analyzeTrace, needsBrowser } from './browser/analyze-trace.js';
import { runBrowserLinkCheck } from './browser/browser-check.js';
import { BrowserCrashed, BrowserUnavailable, type BrowserPool } from './browser/pool.js';
import { followChain, type ChainOptions } from './follow/chain.js';
import { runConsentCheck } from './cmp/consent-check.js';
import { browserEngineRecord, DEFAULT_LIMITS, httpEngineRecord } from './engine-record.js';
import { makeIssue } from './issues/catalogue.js';
import { computeHealthScore, sortIssues } from './analysis/score.js';
import type { CheckResult } from './types.js';

export type CheckType = 'link' | 'cmp';

export interface CheckOptions extends ChainOptions {
  checkType?: CheckType;
  /** The process's Chromium pool (context.ts). Absent or null: HTTP only, and cmp checks fail. */
  browser?: BrowserPool | null;
  /** The whole check, every pass and consent scenario included. Default DEFAULT_LIMITS.deadlineMs. */
  deadlineMs?: number;
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

/** The caller's signal aborted the check (the process is shutting down): no outcome, the check runs again later. */
export class CheckCancelled extends Error {
  constructor() {
    super('the check was cancelled before it finished');
    this.name = 'CheckCancelled';
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

async function runCmp(url: string, options: CheckOptions, signal: AbortSignal): Promise<CheckResult> {
  const pool = options.browser;
  if (pool === undefined || pool === null) {
    throw new CheckerUnavailable(
      'browser_unavailable',
      'Consent-banner (cmp) checks need the browser engine (Chromium), which this process does not run. Run a link check instead.',
    );
  }
  try {
    return await retryOnCrash(() => runConsentCheck(pool, url, withoutUndefined(captureOptions(options)), signal));
  } catch (err) {
    if (err instanceof BrowserUnavailable) {
      throw new CheckerUnavailable(
        'browser_unavailable',
        `Consent-banner (cmp) checks need a browser, and none can run here: ${err.message}`,
      );
    }
    if (err instanceof BrowserCrashed) {
      throw new CheckerUnavailable('browser_crashed', 'The browser crashed twice while checking this link; try again later.');
    }
    throw err;
  }
}

/** The HTTP verdict, now known to be all there is: the browser pass ran past the deadline. */
function withDeadlineIssue(result: CheckResult, deadlineMs: number): CheckResult {
  const issue = makeIssue('check_deadline_exceeded', { url: result.finalUrl, totalMs: deadlineMs, hop: result.hops.length - 1 });
  const issues = sortIssues([...result.issues, issue]);
  return { ...result, issues, willTrack: false, healthScore: computeHealthScore(issues, false) };
}

export async function runCheck(url: string, options: CheckOptions = {}): Promise<CheckResult> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs;
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  const cancelled = (): boolean => options.signal?.aborted === true;

  if ((options.checkType ?? 'link') === 'cmp') {
    try {
      return withBrowserRecord(await runCmp(url, options, signal), options);
    } catch (err) {
      if (cancelled()) throw new CheckCancelled();
      if (!deadline.aborted) throw err;
      throw new CheckerUnavailable(
        'check_deadline_exceeded',
        `The page kept the browser busy past the check's limit of ${Math.round(deadlineMs / 1000)} s; its consent banner could not be checked.`,
      );
    }
  }
  const trace = await followChain(url, { ...options, signal });
  if (cancelled()) throw new CheckCancelled();
  const viaHttp = { ...analyzeTrace(url, trace, 'http'), engine: httpEngineRecord(options) };
  const pool = options.browser;
  if (!needsBrowser(trace) || pool === undefined || pool === null || pool.state() === 'unavailable') return viaHttp;
  const browserPass = () => retryOnCrash(() => runBrowserLinkCheck(pool, url, withoutUndefined(captureOptions(options)), signal));
  try {
    let result = await browserPass();
    // As over HTTP, a page that timed out or dropped the connection gets one more visit (CONTRACT.md section 7).
    if (result.issues.some((issue) => issue.code === 'landing_timeout') && !signal.aborted) result = await browserPass();
    return withBrowserRecord(result, options);
  } catch {
    if (cancelled()) throw new CheckCancelled();
    if (deadline.aborted) return withDeadlineIssue(viaHttp, deadlineMs);
    // The HTTP verdict ("a script navigates on, not followed") is still a true answer; the browser's failure
    // (no Chromium, a crash, a page that broke the browser) must not turn a link check into a failed one.
    return viaHttp;
  }
}
