// API key material. Keys are stored only as their SHA-256 hash (CONTRACT.md section 2); the plain key is
// shown once at creation. A fast hash is right here: the key carries 122 random bits, so there is nothing
// for a slow KDF to protect, and lookups by hash must be cheap on every request.
import { createHash, randomUUID } from 'node:crypto';

export const API_KEY_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `pg_live_${randomUUID()}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first 12 characters, e.g. `pg_live_1a2b`: enough to recognise a key in a listing, useless to an attacker. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}
