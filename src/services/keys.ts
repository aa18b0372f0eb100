// API key use cases. The secret exists only in the creation response; the store keeps its SHA-256.
import { randomUUID } from 'node:crypto';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../auth/api-key.js';
import type { KeysRepo, ApiKeyRow } from '../store/keys-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { DomainError } from './domain-error.js';
import { parseIsoTimestamp, isoAt } from '../lib/iso-timestamp.js';
import { isUuid } from '../lib/uuid.js';

export interface KeySummary {
  id: string;
  keyPrefix: string;
  name: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  keyPrefix: string;
  name: string;
  createdAt: string;
  expiresAt: string | null;
}

function parseExpiry(raw: string | undefined, now: number): string | null {
  if (raw === undefined) return null;
  const time = parseIsoTimestamp(raw);
  if (time === null) {
    throw new DomainError(
      'invalid_parameter',
      'expiresAt must be an ISO-8601 timestamp of a date and time that exist, such as 2027-01-31T00:00:00Z.',
    );
  }
  if (time <= now) throw new DomainError('invalid_parameter', 'expiresAt must be in the future.');
  return isoAt(time);
}

function toSummary(row: ApiKeyRow): KeySummary {
  return {
    id: row.id,
    keyPrefix: row.key_prefix,
    name: row.name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

export function createKeysService(keys: KeysRepo, clock: Clock) {
  return {
    async create(userId: string, input: { name: string; expiresAt?: string }): Promise<CreatedKey> {
      const now = clock.now();
      const expiresAt = parseExpiry(input.expiresAt, now);
      const key = generateApiKey();
      const row: ApiKeyRow = {
        id: randomUUID(),
        user_id: userId,
        name: input.name.trim(),
        key_hash: hashApiKey(key),
        key_prefix: apiKeyPrefix(key),
        created_at: isoAt(now),
        expires_at: expiresAt,
        last_used_at: null,
        revoked_at: null,
      };
      await keys.insert(row);
      return { id: row.id, key, keyPrefix: row.key_prefix, name: row.name, createdAt: row.created_at, expiresAt };
    },

    async list(userId: string): Promise<KeySummary[]> {
      return (await keys.listActive(userId)).map(toSummary);
    },

    /** currentKeyId: the key authenticating this request, which may not revoke itself. */
    async revoke(userId: string, id: string, currentKeyId: string | null): Promise<{ id: string; revokedAt: string }> {
      if (currentKeyId !== null && id.toLowerCase() === currentKeyId) {
        throw new DomainError(
          'cannot_revoke_current_key',
          'This key authenticates the request and cannot revoke itself; use another key or a session token.',
        );
      }
      if (!isUuid(id.toLowerCase())) throw new DomainError('not_found', 'No such API key.');
      const revoked = await keys.revoke(userId, id.toLowerCase(), isoAt(clock.now()));
      if (!revoked) throw new DomainError('not_found', 'No such API key.');
      return { id: revoked.id, revokedAt: revoked.revoked_at };
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
