// The per-minute rate limit of CONTRACT.md section 5, applied to every route declared `rateLimited`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Limiter } from '../rate-limit/limiter.js';
import { apiError } from './errors.js';
import type { Principal } from './principal.js';

export interface RateLimits {
  limiter: Limiter;
  userLimit: number;
  anonymousLimit: number;
}

/** Authenticated callers are counted per user, anonymous ones per IP, each per endpoint template. A HEAD is its GET
 * without the body (Fastify answers it with the GET route's handler): it spends the GET's counter, not one of its own. */
function counterKey(principal: Principal, request: FastifyRequest): string {
  const who = principal.kind === 'user' ? `user:${principal.userId}` : `ip:${principal.ip}`;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return `${who}|${method} ${request.routeOptions.url ?? request.url}`;
}

export async function applyRateLimit(
  limits: RateLimits,
  principal: Principal,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const limit = principal.kind === 'user' ? limits.userLimit : limits.anonymousLimit;
  const decision = await limits.limiter.check(counterKey(principal, request), limit);
  reply.header('x-ratelimit-limit', String(decision.limit));
  reply.header('x-ratelimit-remaining', String(decision.remaining));
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    throw apiError(
      'rate_limited',
      `Rate limit of ${decision.limit} requests per minute exceeded for this endpoint. Retry in ${seconds} seconds.`,
      { 'retry-after': String(seconds) },
    );
  }
}
