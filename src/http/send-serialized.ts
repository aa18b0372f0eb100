// Cached answers (src/lib/body-cache.ts holds the bodies) are sent together, once per turn of the event loop.
import type { FastifyReply } from 'fastify';

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
