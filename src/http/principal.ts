// Who is calling: resolved once per request from the Authorization header (CONTRACT.md section 2).
import type { FastifyRequest } from 'fastify';
import { detectTokenKind, parseBearer } from '../auth/token-kind.js';
import { AuthFailure } from '../auth/errors.js';
import { hashApiKey } from '../auth/api-key.js';
import type { SessionVerifier } from '../auth/session-verifier.js';
import type { KeysRepo } from '../store/keys-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { unauthorized } from './errors.js';

import type { Principal } from '../auth/principal.js';

export type { Principal, UserPrincipal } from '../auth/principal.js';

/** How often an API key's lastUsedAt is written at most: a write per request would cost every read its speed. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface PrincipalDeps {
  keys: KeysRepo;
  sessions: SessionVerifier;
  clock: Clock;
}

async function resolveApiKey(deps: PrincipalDeps, token: string): Promise<Principal> {
  const row = await deps.keys.findByHash(hashApiKey(token));
  if (!row || row.revoked_at !== null) throw unauthorized('invalid_api_key', 'The API key is not valid or has been revoked.');
  const now = deps.clock.now();
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now) {
    throw unauthorized('api_key_expired', 'The API key has expired. Create a new key.');
  }
  if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
    await deps.keys.touch(row.id, new Date(now).toISOString());
  }
  return { kind: 'user', userId: row.user_id, via: 'apiKey', keyId: row.id };
}

async function resolveSession(deps: PrincipalDeps, token: string): Promise<Principal> {
  try {
    const { userId } = await deps.sessions.verify(token);
    return { kind: 'user', userId, via: 'session' };
  } catch (err) {
    if (err instanceof AuthFailure) throw unauthorized(err.code, err.message);
    throw err;
  }
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
