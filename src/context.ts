// Everything a running trackcheck process holds: config, store, counters, verifiers. Built once, closed once.
import { withListeningPort, type Config } from './config.js';
import { openStore, type Store } from './store/index.js';
import { createLimiter, type Limiter } from './rate-limit/limiter.js';
import { createMemoryStore } from './rate-limit/memory-store.js';
import type { CounterStore } from './rate-limit/store.js';
import { systemClock, type Clock } from './rate-limit/window.js';
import { createSessionVerifier, type SessionVerifier } from './auth/session-verifier.js';
import type { ChainOptions } from './checker/follow/chain.js';
import { createBrowserPool, type BrowserPool, type BrowserPoolOptions } from './checker/browser/pool.js';
import { createCheckWaiter, type CheckWaiter } from './jobs/check-waiter.js';
import { createCheckRunner, engineWith, type Engine } from './jobs/check-runner.js';
import { CheckCancelled } from './checker/check.js';
import { createWorker, type Worker } from './jobs/worker.js';
import { createMonitorScheduler, type MonitorScheduler } from './jobs/monitor-scheduler.js';
import { createAlertDeliverer } from './jobs/alert-deliveries.js';
import { createMetrics, type Metrics } from './metrics.js';
import { ensurePrivateDir } from './lib/private-file.js';
import { browserPoolSettings, chainSettings } from './engine-settings.js';
import { closePageReaders } from './checker/follow/page-reader.js';
import { createScanRunner, isScanJob } from './jobs/scan-runner.js';
import { fetchDocument } from './checker/net/document-fetch.js';
import { renderPage } from './checker/browser/render-page.js';

export interface AppContext {
  /** The configuration; after `listeningOn`, with the public URL of the port actually bound. Never reassigned. */
  readonly config: Config;
  /** The port the server bound (PORT=0 picks one at listen time): links in reports must carry it. Set once. */
  listeningOn(port: number, env: Record<string, string | undefined>): void;
  store: Store;
  counters: CounterStore;
  limiter: Limiter;
  sessions: SessionVerifier;
  clock: Clock;
  startedAt: number;
  waiter: CheckWaiter;
  metrics: Metrics;
  /** Runs queued checks; started by `serve` (unless TRACKCHECK_WORKER_CONCURRENCY=0) and by `worker`. */
  worker: Worker;
  /** Queues due monitor runs, evaluates finished ones, delivers alerts; started with the worker. */
  scheduler: MonitorScheduler;
  /** Starts the worker and the monitor scheduler (serve, worker): nothing when TRACKCHECK_WORKER_CONCURRENCY is 0. */
  startBackground(): void;
  /** The process's one Chromium (launched on first use only): cmp checks and script-driven link chains. */
  browser: BrowserPool;
  /** Where warnings from background parts go; the server points it at its logger once that exists. */
  warn(message: string, err?: unknown): void;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  /** Engine settings beyond the config (tests: a test CA, short timeouts). */
  engineOptions?: Omit<ChainOptions, 'resolve'>;
  /** Replaces the engine entirely (tests of the queue itself). */
  engine?: Engine;
  /** Browser pool settings beyond the config (tests: concurrency, the simulator's certificate switch). */
  browserOptions?: Omit<BrowserPoolOptions, 'executablePath' | 'resolve'>;
  warn?(message: string, err?: unknown): void;
  /** The monitor scheduler's tick (tests: shorter). */
  monitorTickMs?: number;
}

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const clock = opts.clock ?? systemClock;
  // First, so that whichever part writes into it first (database, keys, browser profiles) finds it private.
  ensurePrivateDir(config.dataDir);
  const store = await openStore(config.databaseUrl);
  let lastStoreWarning = Number.NEGATIVE_INFINITY;
  // ioredis is loaded only when Redis is configured.
  const counters = config.redisUrl
    ? (await import('./rate-limit/redis-store.js')).createRedisStore(config.redisUrl, {
        onError: (err) => ctx.warn('rate-limit store (Redis) connection error', err),
        onRecovered: () => ctx.warn('rate-limit store (Redis) reachable again; requests are counted again'),
      })
    : createMemoryStore();
  const limiter = createLimiter({
    store: counters,
    clock,
    // Fail open, but loudly: at most one warning per 10 s so an outage does not flood the log.
    onStoreError: (err) => {
      metrics.countUncountedRequest();
      if (clock.now() - lastStoreWarning < 10_000) return;
      lastStoreWarning = clock.now();
      ctx.warn('rate-limit counter store failed; requests are let through uncounted until it recovers', err);
    },
  });
  const metrics = createMetrics();
  const waiter = createCheckWaiter(store.checks);
  const { executablePath, resolve, ...poolDefaults } = browserPoolSettings(config);
  const browser = createBrowserPool({ ...poolDefaults, ...opts.browserOptions, executablePath, resolve });
  metrics.setQueueDepthSource(() => store.jobs.depth());
  metrics.setBrowserStateSource(() => browser.state());
  const runner = createCheckRunner({
    store,
    clock,
    waiter,
    onFinished: (outcome, checkType) => metrics.countCheck(outcome, checkType),
    onMonitorRunFinished: (slug) => scheduler.runFinished(slug),
    engine: opts.engine ?? engineWith({ ...chainSettings(config), ...opts.engineOptions, resolve: config.resolve, browser }),
  });
  const { resolve: chainResolve, extraCaCerts } = { ...chainSettings(config), ...opts.engineOptions };
  const scanRunner = createScanRunner({
    store,
    clock,
    source: (signal) => ({
      fetch: (url) => fetchDocument(url, { resolve: chainResolve, extraCaCerts, signal }),
      render: (url) => renderPage(browser, url, {}, signal),
      maxPages: config.scanMaxPages,
    }),
    poke: () => worker.poke(),
  });
  // The queue holds link checks and scans' page-fetch jobs (`scan:<id>`): one worker, one set of leases and caps.
  const worker = createWorker({
    jobs: store.jobs,
    execute: (job, signal) => (isScanJob(job) ? scanRunner.execute(job, signal) : runner.execute(job, signal)),
    isCancellation: (err) => err instanceof CheckCancelled,
    giveUp: (job, reason) => (isScanJob(job) ? scanRunner.giveUp(job, reason) : runner.giveUp(job, reason)),
    concurrency: config.workerConcurrency,
    perHostConcurrency: config.perHostConcurrency,
    leaseMs: config.jobLeaseMs,
    clock,
    warn: (message, err) => ctx.warn(message, err),
  });
  const deliverer = createAlertDeliverer({
    store,
    clock,
    smtpUrl: config.smtpUrl,
    alertFrom: config.alertFrom,
    retryFirstDelayMs: config.alertRetryMs,
    resolve: config.resolve,
    publicUrl: () => ctx.config.publicUrl,
    onAttempt: (channelType, outcome) => metrics.countAlertDelivery(channelType, outcome),
  });
  const scheduler = createMonitorScheduler({
    store,
    clock,
    deliverer,
    confirmMs: config.monitorConfirmMs,
    ...(opts.monitorTickMs === undefined ? {} : { tickMs: opts.monitorTickMs }),
    poke: () => worker.poke(),
    onRun: (state) => metrics.countMonitorRun(state),
    onEvent: (type) => metrics.countMonitorEvent(type),
    warn: (message, err) => ctx.warn(message, err),
  });
  let listening: Config | undefined;
  const ctx: AppContext = {
    get config() {
      return listening ?? config;
    },
    listeningOn(port, env) {
      if (listening !== undefined) throw new Error('listeningOn: the listening port is set once');
      listening = withListeningPort(config, port, env);
    },
    store,
    counters,
    limiter,
    sessions: createSessionVerifier(config.identity),
    clock,
    startedAt: clock.now(),
    waiter,
    metrics,
    worker,
    scheduler,
    startBackground() {
      if (config.workerConcurrency <= 0) return;
      worker.start();
      scheduler.start();
    },
    browser,
    warn: opts.warn ?? ((message, err) => console.warn(message, err ?? '')),
    async close() {
      await scheduler.stop();
      await worker.stop();
      await browser.close();
      await closePageReaders();
      await counters.close();
      await store.close();
    },
  };
  return ctx;
}
