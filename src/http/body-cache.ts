// Serialized response bodies of things that never change again (a finished check), kept per process so a hot
// read skips the database row, JSON.parse of the stored result and schema serialization. Bounded by size, least
// recently used dropped first. Safe with several instances: an entry is only ever made from a finished check.
import type { FastifyReply } from 'fastify';

export interface BodyCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T, size: number): void;
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

/**
 * Sends a body the route's serializer already produced (a string payload is sent as it is), together with every
 * other such reply of this turn of the event loop. Under load many connections are read in one turn; writing all
 * their answers at its end instead of one by one as each is handled means the client side is woken once for the
 * lot, not once per response: on loopback or a virtual machine that wake-up cost more than the rest of a cached read
 * (bench/README.md, load). An idle server answers within the same turn, so latency does not change.
 */
export function sendSerialized(reply: FastifyReply, body: string): FastifyReply {
  if (waiting.length === 0) setImmediate(sendWaiting);
  waiting.push({ reply, body });
  return reply;
}

let waiting: Array<{ reply: FastifyReply; body: string }> = [];

function sendWaiting(): void {
  const batch = waiting;
  waiting = [];
  for (const { reply, body } of batch) {
    try {
      reply.type('application/json; charset=utf-8').send(body);
    } catch (err) {
      // Outside the request's promise chain: one failed reply must not take the others (or the process) with it.
      reply.log.error({ err }, 'sending a cached response failed');
    }
  }
}
