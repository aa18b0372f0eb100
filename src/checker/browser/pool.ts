// One Chromium per process, launched on first use, relaunched after a crash; a fresh context (with its own
// guarded egress listener) per piece of work, and at most `concurrency` of them at a time.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import type { ResolveMap } from '../address-policy.js';
import type { LookupAll } from '../net-guard.js';
import { openEgressSession, type EgressSession } from './egress-proxy.js';
import { findBrowserPid, launchChromium } from './launch.js';
import { createSemaphore, type Semaphore } from './semaphore.js';

/** What /health shows: never launched yet, running (or relaunchable), or not usable at all. */
export type BrowserState = 'not started' | 'available' | 'unavailable';

/** No browser can run here (missing binary, failed launch): the work cannot be done in browser mode. */
export class BrowserUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserUnavailable';
  }
}

/** The browser died (or was closed) while this work was using it. */
export class BrowserCrashed extends Error {
  constructor(message = 'the browser process ended while the check was running') {
    super(message);
    this.name = 'BrowserCrashed';
  }
}

export interface BrowserPoolOptions {
  /** Chromium binary (TRACKCHECK_CHROMIUM_PATH); null = no browser on this machine. */
  executablePath: string | null;
  /** Contexts open at once. Default 4. */
  concurrency?: number;
  resolve?: ResolveMap;
  /** Test seam for the egress proxy's resolver. */
  lookupAll?: LookupAll;
  /**
   * Extra Chromium switches. Meant for tests only: e.g. `--ignore-certificate-errors-spki-list=<hash>` so
   * Chromium accepts the local simulator's test certificates. Never set in production.
   */
  extraArgs?: string[];
  launchTimeoutMs?: number;
  /** After a failed launch, calls fail fast for this long before trying again. Default 30 s. */
  relaunchBackoffMs?: number;
}

/** One unit of browser work: a fresh context whose traffic goes through `egress`. */
export interface BrowserLease {
  context: BrowserContext;
  egress: EgressSession;
  /** A further fresh context on the same browser and egress session (closed with the lease). */
  newContext(): Promise<BrowserContext>;
}

export interface BrowserPoolStats {
  launches: number;
  active: number;
  queued: number;
  pid: number | null;
}

export interface BrowserPool {
  state(): BrowserState;
  /** Runs `work` in a fresh context once a slot is free; the context is closed afterwards whatever happens. */
  withContext<T>(work: (lease: BrowserLease) => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): BrowserPoolStats;
  close(): Promise<void>;
}

// A desktop-sized page in English; downloads refused; service workers off (they would cache past the egress rules' view).
const CONTEXT_OPTIONS = {
  acceptDownloads: false,
  serviceWorkers: 'block',
  locale: 'en-US',
  viewport: { width: 1366, height: 900 },
} as const;

interface Running {
  browser: Browser;
  marker: string;
  defaultEgress: EgressSession;
}

/**
 * Whether the browser is gone. A page notices its browser's death a moment before the browser object
 * does, so an error is given a short grace to be explained by a disconnect.
 */
async function diedDuring(browser: Browser, graceMs = 500): Promise<boolean> {
  if (!browser.isConnected()) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      browser.off('disconnected', onGone);
      resolve(!browser.isConnected());
    }, graceMs);
    const onGone = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    browser.once('disconnected', onGone);
  });
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const egressOptions = { resolve: options.resolve, lookupAll: options.lookupAll };
  const semaphore: Semaphore = createSemaphore(Math.max(1, options.concurrency ?? 4));
  const backoffMs = options.relaunchBackoffMs ?? 30_000;
  let running: Running | null = null;
  let launching: Promise<Running> | null = null;
  let launches = 0;
  let failure: { message: string; at: number } | null = null;
  let closed = false;

  function missingBinary(): string | null {
    if (options.executablePath === null) return 'No Chromium binary is configured (set TRACKCHECK_CHROMIUM_PATH).';
    if (!existsSync(options.executablePath)) return `No Chromium binary at ${options.executablePath} (TRACKCHECK_CHROMIUM_PATH).`;
    return null;
  }

  async function launch(executablePath: string): Promise<Running> {
    const defaultEgress = await openEgressSession(egressOptions);
    try {
      const { browser, marker } = await launchChromium({
        executablePath,
        proxyUrl: defaultEgress.proxyUrl,
        extraArgs: options.extraArgs ?? [],
        timeoutMs: options.launchTimeoutMs ?? 30_000,
      });
      launches += 1;
      const current: Running = { browser, marker, defaultEgress };
      browser.on('disconnected', () => {
        if (running === current) running = null;
        void defaultEgress.close();
      });
      return current;
    } catch (err) {
      await defaultEgress.close();
      throw err;
    }
  }

  async function ensureBrowser(): Promise<Running> {
    if (closed) throw new BrowserUnavailable('The browser pool is closed.');
    if (running !== null && running.browser.isConnected()) return running;
    const missing = missingBinary();
    if (missing !== null) throw new BrowserUnavailable(missing);
    if (failure !== null && Date.now() - failure.at < backoffMs) throw new BrowserUnavailable(failure.message);
    launching ??= launch(options.executablePath as string) // missingBinary() ruled out null
      .then(
        (fresh) => {
          failure = null;
          running = fresh;
          return fresh;
        },
        (err: unknown) => {
          const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
          failure = { message: `Chromium could not be started: ${reason}`, at: Date.now() };
          throw new BrowserUnavailable(failure.message);
        },
      )
      .finally(() => {
        launching = null;
      });
    return launching;
  }

  async function withContext<T>(work: (lease: BrowserLease) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const missing = missingBinary();
    if (missing !== null) throw new BrowserUnavailable(missing);
    const release = await semaphore.acquire(signal);
    const contexts: BrowserContext[] = [];
    let egress: EgressSession | null = null;
    // A holder, not a plain `let`: the closure below and the catch blocks must all see the latest browser.
    const lease: { current: Running | null } = { current: null };
    try {
      const session = await openEgressSession(egressOptions);
      egress = session;
      const newContext = async (): Promise<BrowserContext> => {
        const browser = lease.current?.browser;
        if (browser === undefined || !browser.isConnected()) throw new BrowserCrashed();
        const context = await browser.newContext({ ...CONTEXT_OPTIONS, proxy: { server: session.proxyUrl } });
        contexts.push(context);
        return context;
      };
      let context: BrowserContext;
      try {
        lease.current = await ensureBrowser();
        context = await newContext();
      } catch (err) {
        // Killed between checks and not yet noticed: nothing has run, so start over on a fresh browser.
        if (lease.current === null || lease.current.browser.isConnected()) throw err;
        lease.current = await ensureBrowser();
        context = await newContext();
      }
      return await work({ context, egress: session, newContext });
    } catch (err) {
      // Whatever the page-level error says, a dead browser is the real story.
      if (lease.current !== null && !(err instanceof BrowserUnavailable) && (await diedDuring(lease.current.browser))) {
        throw new BrowserCrashed();
      }
      throw err;
    } finally {
      // Closing a context of a dead browser would wait for an answer that never comes.
      if (lease.current?.browser.isConnected() === true) await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
      await egress?.close();
      release();
    }
  }

  return {
    state() {
      if (missingBinary() !== null) return 'unavailable';
      if (failure !== null) return 'unavailable';
      return launches === 0 ? 'not started' : 'available';
    },
    withContext,
    stats() {
      return { launches, active: semaphore.active(), queued: semaphore.queued(), pid: running === null ? null : findBrowserPid(running.marker) };
    },
    async close() {
      closed = true;
      const current = running ?? (await launching?.catch(() => null)) ?? null;
      running = null;
      if (current !== null) {
        await current.browser.close().catch(() => undefined);
        await current.defaultEgress.close();
      }
    },
  };
}
