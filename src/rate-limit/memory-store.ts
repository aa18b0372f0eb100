import type { CounterStore } from './store.js';

/** In-process counters: exact for one process only (several instances need the Redis store). */
export interface MemoryCounterStore extends CounterStore {
  /** Number of live counters, for tests and metrics. */
  size(): number;
}

interface Bucket {
  end: number;
  counts: Map<string, number>;
}

/**
 * Counters grouped per window. Past windows are pruned lazily on each increment: a bucket whose end is at or
 * before the newest window start seen can never be written again by a caller with a sane clock. No timer,
 * so nothing keeps the process alive and tests with a fake clock need no sleeping. Memory is bounded by
 * the keys of the latest window that saw traffic.
 */
export function createMemoryStore(): MemoryCounterStore {
  const buckets = new Map<string, Bucket>();
  let newestStart = Number.NEGATIVE_INFINITY;
  let closed = false;

  function pruneBuckets(): void {
    for (const [id, bucket] of buckets) {
      if (bucket.end <= newestStart) buckets.delete(id);
    }
  }

  return {
    async increment(key, windowStart, windowMs) {
      if (closed) throw new Error('memory counter store is closed');
      if (windowStart > newestStart) {
        newestStart = windowStart;
        pruneBuckets();
      }
      // windowMs is part of the id so two limits with different window lengths never share a counter.
      const id = `${windowStart}/${windowMs}`;
      let bucket = buckets.get(id);
      if (bucket === undefined) {
        bucket = { end: windowStart + windowMs, counts: new Map() };
        buckets.set(id, bucket);
      }
      // Read and write happen in one synchronous step, so concurrent callers cannot interleave.
      const count = (bucket.counts.get(key) ?? 0) + 1;
      bucket.counts.set(key, count);
      return count;
    },
    async probe() {
      return !closed;
    },
    async close() {
      closed = true;
      buckets.clear();
    },
    size() {
      let total = 0;
      for (const bucket of buckets.values()) total += bucket.counts.size;
      return total;
    },
  };
}
