// Who is calling: resolved once per request from the Authorization header (CONTRACT.md section 2).
import type { FastifyRequest } from 'fastify';
import { detectTokenKind, parseBearer } from '../auth/token-kind.js';
import { AuthFailure } from '../auth/errors.js';
import type { SessionVerifier } from '../auth/session-verifier.js';
import type { ApiKeyVerifier } from '../services/api-key-verifier.js';
import { unauthorized } from './errors.js';

import type { Principal } from '../auth/principal.js';

export type { Principal, UserPrincipal } from '../auth/principal.js';

export interface PrincipalDeps {
  apiKeys: ApiKeyVerifier;
  sessions: SessionVerifier;
}

/** AuthFailure (a refused key or token) is the client's 401; anything else (the store down) stays what it is. */
async function asUnauthorized<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (err) {
    if (err instanceof AuthFailure) throw unauthorized(err.code, err.message);
    throw err;
  }
}

async function resolveApiKey(deps: PrincipalDeps, token: string): Promise<Principal> {
  const { userId, keyId } = await asUnauthorized(() => deps.apiKeys.verify(token));
  return { kind: 'user', userId, via: 'apiKey', keyId };
}

async function resolveSession(deps: PrincipalDeps, token: string): Promise<Principal> {
  const { userId } = await asUnauthorized(() => deps.sessions.verify(token));
  return { kind: 'user', userId, via: 'session' };
}

/** The caller's principal (`anonymous` without an Authorization header); throws an ApiError (401) for a present but
 * invalid one. */
export async function resolvePrincipal(deps: PrincipalDeps, request: FastifyRequest, anonymous: Principal): Promise<Principal> {
  const bearer = parseBearer(request.headers.authorization);
  if (bearer === null) return anonymous;
  if (!bearer.ok) {
    throw unauthorized('invalid_credentials', 'Send credentials as "Authorization: Bearer <token>".');
  }
  switch (detectTokenKind(bearer.token)) {
    case 'api_key':
      return resolveApiKey(deps, bearer.token);
    case 'session':
      return resolveSession(deps, bearer.token);
    default:
      throw unauthorized('invalid_credentials', 'The bearer token is neither an API key nor a session token.');
  }
}
