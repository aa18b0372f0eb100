// Everything a running trackcheck process holds: config, store, counters, verifiers. Built once, closed once.
import type { Config } from './config.js';
import { openStore, type Store } from './store/index.js';
import { createLimiter, type Limiter } from './rate-limit/limiter.js';
import { createMemoryStore } from './rate-limit/memory-store.js';
import { createRedisStore } from './rate-limit/redis-store.js';
import type { CounterStore } from './rate-limit/store.js';
import { systemClock, type Clock } from './rate-limit/window.js';
import { createSessionVerifier, type SessionVerifier } from './auth/session-verifier.js';

export interface AppContext {
  config: Config;
  store: Store;
  counters: CounterStore;
  limiter: Limiter;
  sessions: SessionVerifier;
  clock: Clock;
  startedAt: number;
  /** Where warnings from background parts go; the server points it at its logger once that exists. */
  warn(message: string, err?: unknown): void;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  warn?(message: string, err?: unknown): void;
}

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const clock = opts.clock ?? systemClock;
  const store = await openStore(config.databaseUrl);
  let lastStoreWarning = Number.NEGATIVE_INFINITY;
  const counters = config.redisUrl
    ? createRedisStore(config.redisUrl, { onError: (err) => ctx.warn('rate-limit store (Redis) connection error', err) })
    : createMemoryStore();
  const limiter = createLimiter({
    store: counters,
    clock,
    // Fail open, but loudly: at most one warning per 10 s so an outage does not flood the log.
    onStoreError: (err) => {
      if (clock.now() - lastStoreWarning < 10_000) return;
      lastStoreWarning = clock.now();
      ctx.warn('rate-limit counter store failed; requests are let through uncounted until it recovers', err);
    },
  });
  const ctx: AppContext = {
    config,
    store,
    counters,
    limiter,
    sessions: createSessionVerifier(config.identity),
    clock,
    startedAt: clock.now(),
    warn: opts.warn ?? ((message, err) => console.warn(message, err ?? '')),
    async close() {
      await counters.close();
      await store.close();
    },
  };
  return ctx;
}
