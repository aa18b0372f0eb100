// Per-route authentication requirement, declared in each route's `config.auth`.
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from './errors.js';
import type { Principal, UserPrincipal } from './principal.js';

/**
 * none: no credentials looked at (health, docs, web pages); optional: anonymous allowed, but a present
 * Authorization header must be valid; user: any valid bearer; session: a session token (JWT) only.
 */
export type AuthRequirement = 'none' | 'optional' | 'user' | 'session';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** Counted by the per-minute rate limiter (every /v1 route). */
    rateLimited?: boolean;
  }
  interface FastifyRequest {
    principal: Principal;
    /** The client's IP address as validated by clientIp() (http/client-address.ts); set by the first hook. */
    clientIp: string;
  }
}

export function enforceRequirement(requirement: AuthRequirement, principal: Principal): void {
  if (requirement === 'none' || requirement === 'optional') return;
  if (principal.kind === 'anonymous') {
    throw unauthorized('authentication_required', 'This endpoint needs "Authorization: Bearer <API key or session token>".');
  }
  if (requirement === 'session' && principal.via !== 'session') {
    throw forbidden(
      'session_token_required',
      'API keys are created with a session token from your identity provider, not with an API key.',
    );
  }
}

/** The authenticated caller of a route declared `user` or `session` (the hook has already enforced it). */
export function userOf(request: FastifyRequest): UserPrincipal {
  const principal = request.principal;
  if (principal.kind !== 'user') {
    throw unauthorized('authentication_required', 'This endpoint needs "Authorization: Bearer <API key or session token>".');
  }
  return principal;
}
