import { Redis } from 'ioredis';
import type { CounterStore } from './store.js';

export interface RedisStoreOptions {
  /** Prepended to every key; default "trackcheck:rl:". Tests use a random one per run. */
  keyPrefix?: string;
  /** Connection-level errors (refused, reset, timed out). Reported once per distinct message until the
   * connection is ready again, so a long outage does not flood the log at the reconnect rate. */
  onError?(err: Error): void;
  /** The connection is ready again after it dropped or failed (not on a first connect that just worked), so
   * the log shows when an outage ended as well as when it began, even one shorter than a reconnect delay. */
  onRecovered?(): void;
  /** Upper bound for waiting on the connection and, separately, on one command; default 400 ms, so an
   * increment settles in under a second even when Redis hangs instead of refusing. */
  timeoutMs?: number;
}

export const DEFAULT_REDIS_KEY_PREFIX = 'trackcheck:rl:';
const DEFAULT_TIMEOUT_MS = 400;
const MAX_RECONNECT_DELAY_MS = 1_000;

// INCRBY and PEXPIRE in one script: atomic on the server and one round trip. The expiry is set by the first
// increment (or repaired if something left the key without one); the key lives at most two windows, long enough
// for callers whose clocks trail a little, and the window start in the key makes a new window a new key.
const INCREMENT_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
`;

type ScriptedRedis = Redis & {
  incrementWindowCounter(key: string, ttlMs: number, by: number): Promise<number>;
};

/** The Redis key holding the counter of `key` in the window starting at `windowStart`. */
export function buildRedisKey(keyPrefix: string, key: string, windowStart: number): string {
  return `${keyPrefix}${key}@${windowStart}`;
}

/**
 * Counters in Redis, shared by every instance pointed at the same server. Fails fast instead of queueing:
 * no offline queue, no retry of a command whose connection dropped (it may already have counted), a command
 * timeout, and reconnection in the background at most a second apart, so it recovers on its own.
 */
export function createRedisStore(url: string, opts: RedisStoreOptions = {}): CounterStore {
  const keyPrefix = opts.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = new Redis(url, {
    enableOfflineQueue: false,
    // Increments issued in the same tick (a burst of requests) go out in one write: fewer syscalls per request.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    // ioredis arms this timer on close even for a socket that is already dead; the 2 s default would hold
    // up a graceful shutdown during an outage.
    disconnectTimeout: timeoutMs,
    retryStrategy: (attempt: number) => Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS),
  }) as ScriptedRedis;
  client.defineCommand('incrementWindowCounter', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });

  // Always listen: without a listener ioredis prints every reconnect failure to stderr itself.
  let lastReported: string | undefined;
  client.on('error', (err: Error) => {
    if (err.message === lastReported) return;
    lastReported = err.message;
    opts.onError?.(err);
  });
  let interrupted = false;
  client.on('close', () => {
    interrupted = true;
  });
  client.on('ready', () => {
    if (interrupted || lastReported !== undefined) opts.onRecovered?.();
    interrupted = false;
    lastReported = undefined;
  });

  let readyWaiter: Promise<void> | undefined;
  let closed = false;

  // Only an attempt already in progress (first connect, or a reconnect mid-handshake) is worth waiting for;
  // between attempts the request fails at once rather than paying the reconnect delay.
  function waitForReady(): Promise<void> {
    const status = client.status;
    if (closed || status === 'end') return Promise.reject(new Error('Redis counter store is closed'));
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') {
      return Promise.reject(new Error(`Redis is unavailable (connection ${status})`));
    }
    readyWaiter ??= new Promise<void>((resolve, reject) => {
      const settle = (err?: Error): void => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('close', onClose);
        readyWaiter = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onReady = (): void => settle();
      const onClose = (): void => settle(new Error('Redis connection closed before it was ready'));
      const timer = setTimeout(() => settle(new Error(`Redis not ready within ${timeoutMs} ms (connection ${client.status})`)), timeoutMs);
      client.once('ready', onReady);
      client.once('close', onClose);
    });
    return readyWaiter;
  }

  // Increments of one counter asked for in the same turn of the event loop (a burst of requests from one caller)
  // share one INCRBY n and split the range it returns: each caller still gets its own exact position, across
  // instances too, and the burst costs one command instead of n.
  let waiting = new Map<string, { ttlMs: number; callers: Array<{ resolve(n: number): void; reject(err: unknown): void }> }>();
  function sendWaiting(): void {
    const batch = waiting;
    waiting = new Map();
    for (const [redisKey, { ttlMs, callers }] of batch) {
      const settle = (total: unknown): void => {
        if (typeof total !== 'number') throw new Error(`unexpected reply from Redis counter script: ${String(total)}`);
        callers.forEach((caller, i) => caller.resolve(total - callers.length + 1 + i));
      };
      client
        .incrementWindowCounter(redisKey, ttlMs, callers.length)
        .then(settle)
        .catch((err: unknown) => callers.forEach((caller) => caller.reject(err)));
    }
  }

  return {
    async increment(key, windowStart, windowMs) {
      if (closed) throw new Error('Redis counter store is closed');
      if (client.status !== 'ready') await waitForReady();
      return new Promise<number>((resolve, reject) => {
        if (waiting.size === 0) setImmediate(sendWaiting);
        const redisKey = buildRedisKey(keyPrefix, key, windowStart);
        const entry = waiting.get(redisKey);
        if (entry) entry.callers.push({ resolve, reject });
        else waiting.set(redisKey, { ttlMs: windowMs, callers: [{ resolve, reject }] });
      });
    },
    async probe() {
      // A PING, not the connection status: a Redis that accepts but never answers looks 'ready' to the client.
      try {
        if (closed) return false;
        if (client.status !== 'ready') await waitForReady();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (client.status === 'ready') {
        // QUIT lets in-flight increments finish; if it fails or times out, disconnect below still closes.
        await client.quit().catch(() => undefined);
      }
      client.disconnect();
    },
  };
}
