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
  /** Where warnings from background parts (e.g. the Redis store failing open) go. */
  warn(message: string, err?: unknown): void;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  warn?(message: string, err?: unknown): void;
}

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const clock = opts.clock ?? systemClock;
  const warn = opts.warn ?? ((message: string, err?: unknown) => console.warn(message, err ?? ''));
  const store = await openStore(config.databaseUrl);
  const counters = config.redisUrl
    ? createRedisStore(config.redisUrl, { onError: (err) => warn('rate-limit store (Redis) failed; failing open', err) })
    : createMemoryStore();
  const limiter = createLimiter({ store: counters, clock });
  const sessions = createSessionVerifier(config.identity);
  return {
    config,
    store,
    counters,
    limiter,
    sessions,
    clock,
    startedAt: clock.now(),
    warn,
    async close() {
      await counters.close();
      await store.close();
    },
  };
}
