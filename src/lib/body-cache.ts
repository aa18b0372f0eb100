// Serialized response bodies of things that never change again (a finished check, a finished report around its
// view count), kept per process so a hot read skips the database row, JSON.parse of the stored result and schema
// serialization. Bounded by size, least recently used dropped first. Safe with several instances: an entry is only
// ever made from a finished check.
export interface BodyCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T, size: number): void;
  delete(key: string): void;
}

export const DEFAULT_BODY_CACHE_BYTES = 32 * 1024 * 1024;

export function createBodyCache<T>(maxBytes = DEFAULT_BODY_CACHE_BYTES): BodyCache<T> {
  const entries = new Map<string, { value: T; size: number }>();
  let bytes = 0;
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    delete(key) {
      const old = entries.get(key);
      if (old === undefined) return;
      entries.delete(key);
      bytes -= old.size;
    },
    set(key, value, size) {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        bytes -= old.size;
      }
      // One huge report must not wipe out everything else.
      if (size > maxBytes / 16) return;
      entries.set(key, { value, size });
      bytes += size;
      for (const [oldest, entry] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= entry.size;
      }
    },
  };
}
