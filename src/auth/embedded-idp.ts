// The embedded identity provider: when no external one is configured, trackcheck signs its own session
// tokens with a key kept in the data dir, so every process sharing that dir (server, worker, CLI) agrees.
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createPrivateFileOnce, errorCode } from '../lib/private-file.js';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type GenerateKeyPairResult,
  type JWK,
} from 'jose';

export const EMBEDDED_ISSUER = 'urn:trackcheck:embedded-idp';
export const EMBEDDED_AUDIENCE = 'urn:trackcheck:api';
export const SESSION_KEY_FILE_NAME = 'session-signing-key.json';
export const DEFAULT_SESSION_TTL_SECONDS = 12 * 60 * 60;

export type EmbeddedAlgorithm = 'EdDSA' | 'ES256';
export const EMBEDDED_ALGORITHMS: readonly EmbeddedAlgorithm[] = ['EdDSA', 'ES256'];

export interface SigningKey {
  alg: EmbeddedAlgorithm;
  /** RFC 7638 thumbprint of the public key; sent as the token's `kid`. */
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Absolute path of the key file. */
  file: string;
}

interface KeyFile {
  version: 1;
  alg: EmbeddedAlgorithm;
  kid: string;
  createdAt: string;
  privateJwk: JWK;
}

export function signingKeyPath(dataDir: string): string {
  return path.resolve(dataDir, SESSION_KEY_FILE_NAME);
}

/**
 * Reads the signing key, creating it on first use. Creation is atomic: the key is written completely to a
 * private temporary file, then hard-linked into place, which fails if the name already exists. Whoever
 * loses the race reads the winner's key, so concurrent first starts end with exactly one key.
 */
export async function loadOrCreateSigningKey(dataDir: string): Promise<SigningKey> {
  const file = signingKeyPath(dataDir);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await createKeyFile(file, await generateKeyFile());
  const created = await readKeyFile(file);
  if (!created) throw new Error(`session signing key ${file} vanished right after it was created`);
  return created;
}

export async function issueSessionToken(opts: { dataDir: string; userId: string; ttlSeconds?: number }): Promise<string> {
  const { userId } = opts;
  const ttl = opts.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  if (userId.trim() === '' || userId.length > 255) throw new RangeError('userId must be 1 to 255 characters');
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new RangeError('ttlSeconds must be a positive whole number of seconds');
  const key = await loadOrCreateSigningKey(opts.dataDir);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuer(EMBEDDED_ISSUER)
    .setAudience(EMBEDDED_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

async function generateKeyFile(): Promise<KeyFile> {
  let alg: EmbeddedAlgorithm = 'EdDSA';
  let pair: GenerateKeyPairResult;
  try {
    pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  } catch {
    // Runtimes without WebCrypto Ed25519 still have P-256.
    alg = 'ES256';
    pair = await generateKeyPair('ES256', { extractable: true });
  }
  const privateJwk = await exportJWK(pair.privateKey);
  const kid = await calculateJwkThumbprint(publicPart(privateJwk));
  return { version: 1, alg, kid, createdAt: new Date().toISOString(), privateJwk };
}

async function createKeyFile(file: string, content: KeyFile): Promise<void> {
  await createPrivateFileOnce(file, `${JSON.stringify(content, null, 2)}\n`);
}

async function readKeyFile(file: string): Promise<SigningKey | null> {
  for (let attempt = 0; ; attempt += 1) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return null;
      throw new Error(`cannot read session signing key ${file}: ${errorCode(err) ?? String(err)}`, { cause: err });
    }
    try {
      const key = await importKeyFile(file, text);
      await tightenMode(file);
      return key;
    } catch (err) {
      if (attempt >= 10) {
        throw new Error(
          `session signing key ${file} is corrupt (${(err as Error).message}); delete it to create a new key ` +
            '(every session token issued so far becomes invalid)',
          { cause: err },
        );
      }
      await delay(20);
    }
  }
}

async function importKeyFile(file: string, text: string): Promise<SigningKey> {
  const parsed = JSON.parse(text) as Partial<KeyFile> | null;
  const alg = parsed?.alg;
  const privateJwk = parsed?.privateJwk;
  if (!alg || !EMBEDDED_ALGORITHMS.includes(alg)) throw new Error('unknown alg');
  if (!privateJwk || typeof privateJwk !== 'object' || typeof privateJwk.d !== 'string') throw new Error('no private key');
  const privateKey = await importJWK(privateJwk, alg);
  const publicKey = await importJWK(publicPart(privateJwk), alg);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new Error('not an asymmetric key');
  const kid = await calculateJwkThumbprint(publicPart(privateJwk));
  return { alg, kid, privateKey, publicKey, file };
}

function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  return y === undefined ? { kty, crv, x } : { kty, crv, x, y };
}

// A key copied in with a permissive mode (backup restore, container volume) is made private again.
async function tightenMode(file: string): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await stat(file);
  if ((mode & 0o077) !== 0) await chmod(file, 0o600).catch(() => undefined);
}
