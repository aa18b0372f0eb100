export { currentWindow, retryAfterSeconds, systemClock, DEFAULT_WINDOW_MS, type Clock } from './window.js';
export { RateLimitStoreUnavailable, type CounterStore } from './store.js';
export { createMemoryStore, type MemoryCounterStore } from './memory-store.js';
export { createRedisStore, buildRedisKey, DEFAULT_REDIS_KEY_PREFIX, type RedisStoreOptions } from './redis-store.js';
export { createLimiter, type LimitDecision, type Limiter, type LimiterOptions } from './limiter.js';
