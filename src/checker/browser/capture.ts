// Browser-mode chain capture: open the submitted URL in a fresh context and record every main-frame
// navigation — HTTP redirects, refreshes and script navigations — until the page settles, producing the
// same ChainTrace as the HTTP follower. The page stays open for the caller (consent scenarios use it).
import { performance } from 'node:perf_hooks';
import { DEFAULT_LIMITS } from '../engine-record.js';
import type { BrowserContext, Page } from 'playwright-core';
import type { ChainTrace } from '../types.js';
import type { EgressSession } from './egress-proxy.js';
import { NavRecorder } from './nav-recorder.js';
import { settleChain } from './settle.js';
import { buildBrowserTrace } from './trace-builder.js';
import { invalidStart, parseStart } from '../follow/chain-start.js';

export interface CaptureOptions {
  /** Redirects to follow (any kind); at most maxHops + 1 requests. Default 20. */
  maxHops?: number;
  /** Per navigation, until its response. Default 10 s. */
  hopTimeoutMs?: number;
  /** The whole capture. Default 30 s. */
  checkTimeoutMs?: number;
  /** After load, how long short timers / in-flight requests may keep the chain open. Default 3 s. */
  settleCapMs?: number;
  /**
   * Extra quiet time after the page reports idle. Default 0: the probe already sees every navigation the page
   * started (Navigation API), and Chrome's scheduled ones are tracked.
   */
  quietMs?: number;
}

export interface BrowserCapture {
  trace: ChainTrace;
  page: Page;
}

const DEFAULTS = { ...DEFAULT_LIMITS, settleCapMs: 3_000, quietMs: 0 };

/**
 * Follows `url` in `page` (a blank page of `context`; a new one when not given) and returns the trace and the
 * page. The context must carry the idle probe (pool contexts do: lease.ts).
 */
export async function captureChain(
  context: BrowserContext,
  egress: EgressSession,
  url: string,
  options: CaptureOptions = {},
  blankPage?: Page,
): Promise<BrowserCapture> {
  const settings = { ...DEFAULTS, ...options };
  const page = blankPage ?? (await context.newPage());
  const start = parseStart(url);
  if (start === null) return { trace: invalidStart(url), page };
  const cdp = await context.newCDPSession(page);
  const recorder = new NavRecorder(page);
  await recorder.attach(cdp);
  const deadline = performance.now() + settings.checkTimeoutMs;
  const started = page.goto(start.href, { waitUntil: 'commit', timeout: settings.checkTimeoutMs }).then(
    () => null,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  const end = await settleChain(page, recorder, {
    maxHops: settings.maxHops,
    hopTimeoutMs: settings.hopTimeoutMs,
    deadline,
    settleCapMs: settings.settleCapMs,
    quietMs: settings.quietMs,
    started,
  });
  recorder.freeze();
  // Anything but a settled page (a loop, the hop limit, a timeout) would keep navigating under the trace reader.
  if (end.kind !== 'settled') await page.goto('about:blank', { timeout: 5_000 }).catch(() => undefined);
  const trace = await buildBrowserTrace({
    startUrl: start.href,
    page,
    context,
    recorder,
    egress,
    end,
    maxHops: settings.maxHops,
    hopTimeoutMs: settings.hopTimeoutMs,
    checkTimeoutMs: settings.checkTimeoutMs,
  });
  await cdp.detach().catch(() => undefined);
  return { trace, page };
}
