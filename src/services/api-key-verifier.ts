// API-key verification, the use case behind every `Authorization: Bearer pg_live_…` (CONTRACT.md section 2): the key's
// SHA-256 is looked up, a revoked or expired key is refused, and its lastUsedAt is kept (at most one write a minute).
// The HTTP layer calls verify() and maps AuthFailure onto the 401 envelope (http/principal.ts).
import { hashApiKey } from '../auth/api-key.js';
import { AuthFailure } from '../auth/errors.js';
import type { Clock } from '../rate-limit/window.js';
import type { KeysRepo } from '../store/keys-repo.js';

/** How often an API key's lastUsedAt is written at most: a write per request would cost every read its speed. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface VerifiedApiKey {
  userId: string;
  keyId: string;
}

export interface ApiKeyVerifier {
  /** The key's owner; throws AuthFailure (`invalid_api_key`, `api_key_expired`) for a key that must not be used. */
  verify(key: string): Promise<VerifiedApiKey>;
}

export function createApiKeyVerifier(keys: KeysRepo, clock: Clock): ApiKeyVerifier {
  return {
    async verify(key) {
      const row = await keys.findByHash(hashApiKey(key));
      if (!row || row.revoked_at !== null) throw new AuthFailure('invalid_api_key', 'The API key is not valid or has been revoked.');
      const now = clock.now();
      if (row.expires_at !== null && Date.parse(row.expires_at) <= now) {
        throw new AuthFailure('api_key_expired', 'The API key has expired. Create a new key.');
      }
      if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
        await keys.touch(row.id, new Date(now).toISOString());
      }
      return { userId: row.user_id, keyId: row.id };
    },
  };
}
