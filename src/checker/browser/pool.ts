// One Chromium per process, launched on first use, relaunched after a crash; a fresh context (with its own
// guarded egress listener) per piece of work, and at most `concurrency` of them at a time.
import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import type { ResolveMap } from '../net/address-policy.js';
import type { LookupAll } from '../net/net-guard.js';
import type { EgressSession } from './egress-proxy.js';
import { startBrowser, type RunningBrowser } from './running-browser.js';
import { loadPlaywright } from './launch.js';
import { closeContext, createGuardedContext, createSpareContext, disposePrepared, prepareContext, type PreparedContext } from './lease.js';
import { createSemaphore, type Semaphore } from './semaphore.js';

/** What /health and the trackcheck_browser_pool_state metric show, both read from `state()`: never launched yet,
 * running (or relaunchable), or not usable at all. */
export const BROWSER_STATES = ['not started', 'available', 'unavailable'] as const;
export type BrowserState = (typeof BROWSER_STATES)[number];

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
  /** Keep the next check's context prepared while idle (lease.ts). Default true. */
  spareContext?: boolean;
  /** Where Chromium keeps temporary files (the service passes `<TRACKCHECK_DATA_DIR>/browser`). */
  scratchDir?: string;
  /** Certificate authorities (PEM) the browser trusts besides its own roots (TRACKCHECK_EXTRA_CA_CERTS). */
  trustedCaCerts?: readonly string[];
  /** The ceiling for Chromium's whole process tree (TRACKCHECK_BROWSER_MEMORY_MB); none when absent. */
  memoryCeilingMb?: number;
}

/** One unit of browser work: a fresh context (with a blank page) whose traffic goes through `egress`. */
export interface BrowserLease {
  context: BrowserContext;
  page: Page;
  egress: EgressSession;
  /** A further fresh context on the same browser and egress session (closed with the lease). */
  newContext(): Promise<BrowserContext>;
}

export interface BrowserPoolStats {
  launches: number;
  active: number;
  queued: number;
  pid: number | null;
  /** Renderers the memory guard killed in the running browser. */
  memoryKills: number;
}

export interface BrowserPool {
  state(): BrowserState;
  /**
   * Runs `work` in a fresh context once a slot is free; the context is closed afterwards whatever happens. When
   * `signal` aborts (the check's deadline, a shutdown), the lease's contexts are closed at once and the
   * signal's reason is thrown, whatever the page is doing.
   */
  withContext<T>(work: (lease: BrowserLease) => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): BrowserPoolStats;
  /** The running Chromium's version ("156.0.8078.79"), null before the first launch or after a crash. */
  version(): string | null;
  /** Resolves once background work (preparing the spare context) is done: for benchmarks and tests. */
  idle(): Promise<void>;
  /** Loads Playwright in the background (no browser is launched), so the first browser check does not pay for it. */
  warm(): void;
  close(): Promise<void>;
}

/**
 * Whether the browser is gone. A page notices its browser's death a moment before the pool does, so an
 * error is given a short grace to be explained by the browser's death.
 */
async function diedDuring(current: RunningBrowser, graceMs = 500): Promise<boolean> {
  if (current.dead) return true;
  let timer: NodeJS.Timeout | undefined;
  const gone = await Promise.race([
    current.died.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(current.dead), graceMs);
    }),
  ]);
  clearTimeout(timer);
  return gone;
}

/**
 * `work`, unless `signal` aborts first: then `onAbort` runs (it closes the lease's contexts, which ends a renderer
 * however busy) and the signal's reason is thrown at once, without waiting for `work` to notice.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (signal === undefined) return work;
  let listener: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    listener = () => {
      onAbort();
      reject(signal.reason);
    };
    if (signal.aborted) listener();
    else signal.addEventListener('abort', listener, { once: true });
  });
  work.catch(() => undefined); // its failure after an abort is expected, and nobody waits for it
  return Promise.race([work, aborted]).finally(() => {
    if (listener !== undefined) signal.removeEventListener('abort', listener);
  });
}

/** `work`, unless the browser dies first: then BrowserCrashed at once instead of a call that never returns. */
function unlessDied<T>(current: RunningBrowser, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    current.died.then((): never => {
      throw new BrowserCrashed();
    }),
  ]);
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const egressOptions = { resolve: options.resolve, lookupAll: options.lookupAll };
  const semaphore: Semaphore = createSemaphore(Math.max(1, options.concurrency ?? 4));
  const backoffMs = options.relaunchBackoffMs ?? 30_000;
  const spare = createSpareContext(egressOptions);
  let running: RunningBrowser | null = null;
  let launching: Promise<RunningBrowser> | null = null;
  let launches = 0;
  let failure: { message: string; at: number } | null = null;
  let closed = false;

  function missingBinary(): string | null {
    if (options.executablePath === null) return 'No Chromium binary is configured (set TRACKCHECK_CHROMIUM_PATH).';
    if (!existsSync(options.executablePath)) return `No Chromium binary at ${options.executablePath} (TRACKCHECK_CHROMIUM_PATH).`;
    return null;
  }

  async function launch(executablePath: string): Promise<RunningBrowser> {
    const current = await startBrowser(
      {
        executablePath,
        extraArgs: options.extraArgs ?? [],
        timeoutMs: options.launchTimeoutMs ?? 30_000,
        ...(options.scratchDir !== undefined ? { scratchDir: options.scratchDir } : {}),
        ...(options.trustedCaCerts !== undefined ? { trustedCaCerts: options.trustedCaCerts } : {}),
        ...(options.memoryCeilingMb !== undefined ? { memoryCeilingMb: options.memoryCeilingMb } : {}),
      },
      egressOptions,
    );
    launches += 1;
    void current.died.then(() => {
      if (running === current) running = null;
    });
    return current;
  }

  async function ensureBrowser(): Promise<RunningBrowser> {
    if (closed) throw new BrowserUnavailable('The browser pool is closed.');
    if (running !== null && running.alive() && running.browser.isConnected()) return running;
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
    const extra: BrowserContext[] = [];
    let prepared: PreparedContext | null = null;
    // A holder, not a plain `let`: the closure below and the catch blocks must all see the latest browser.
    const lease: { current: RunningBrowser | null } = { current: null };
    try {
      try {
        const current = await ensureBrowser();
        lease.current = current;
        prepared = (await spare.take(current)) ?? (await unlessDied(current, prepareContext(current.browser, egressOptions)));
      } catch (err) {
        // Killed between checks and not yet noticed: nothing has run, so start over on a fresh browser.
        if (lease.current === null || !(await diedDuring(lease.current))) throw err;
        const fresh = await ensureBrowser();
        lease.current = fresh;
        prepared = await unlessDied(fresh, prepareContext(fresh.browser, egressOptions));
      }
      const { egress } = prepared;
      const current = lease.current;
      const newContext = async (): Promise<BrowserContext> => {
        if (current.dead) throw new BrowserCrashed();
        const context = await unlessDied(current, createGuardedContext(current.browser, egress));
        extra.push(context);
        return context;
      };
      const leased = prepared;
      const closeAll = (): void => void Promise.all([closeContext(leased.context), ...extra.map(closeContext)]);
      return await untilAborted(
        unlessDied(current, work({ context: prepared.context, page: prepared.page, egress, newContext })),
        signal,
        closeAll,
      );
    } catch (err) {
      if (signal?.aborted === true && err === signal.reason) throw err;
      // Whatever the page-level error says, a dead browser is the real story.
      if (lease.current !== null && !(err instanceof BrowserUnavailable) && (await diedDuring(lease.current))) {
        throw new BrowserCrashed();
      }
      throw err;
    } finally {
      // Closing a context of a dead browser would wait for an answer that never comes.
      const alive = lease.current !== null && !lease.current.dead && lease.current.browser.isConnected();
      if (alive) await Promise.all(extra.map(closeContext));
      if (prepared !== null) await (alive ? disposePrepared(prepared) : prepared.egress.close());
      release();
      // Prepare the next check's context while nothing waits on this one.
      if (alive && !closed && lease.current !== null && options.spareContext !== false) spare.fill(lease.current);
    }
  }

  return {
    state() {
      if (missingBinary() !== null) return 'unavailable';
      if (failure !== null) return 'unavailable';
      return launches === 0 ? 'not started' : 'available';
    },
    withContext,
    idle: () => spare.ready(),
    warm() {
      if (missingBinary() === null) void loadPlaywright().catch(() => undefined);
    },
    version: () => (running === null || running.dead ? null : running.browser.version()),
    stats() {
      const live = running === null || running.dead ? null : running;
      return {
        launches,
        active: semaphore.active(),
        queued: semaphore.queued(),
        pid: live?.pid ?? null,
        memoryKills: live?.memoryKills() ?? 0,
      };
    },
    async close() {
      closed = true;
      await spare.close();
      const current = running ?? (await launching?.catch(() => null)) ?? null;
      running = null;
      await current?.close();
    },
  };
}
