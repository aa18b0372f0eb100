// Session-token verification in the three modes of CONTRACT.md section 1. All modes share verifySessionJwt's
// policy; they differ only in where the key comes from and which algorithms are pinned.
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import {
  EMBEDDED_ALGORITHMS,
  EMBEDDED_AUDIENCE,
  EMBEDDED_ISSUER,
  loadOrCreateSigningKey,
  signingKeyPath,
  type SigningKey,
} from './embedded-idp.js';
import { AuthConfigError, IdentityProviderUnavailable } from './errors.js';
import { verifySessionJwt, type VerifyPolicy } from './verify-jwt.js';

export type SessionVerifierOptions =
  | {
      mode: 'jwks';
      jwksUrl: string;
      issuer?: string;
      audience?: string;
      /** JWKS fetch timeout (default 5000). */
      timeoutMs?: number;
      /** Minimum time between refetches triggered by an unknown `kid` (default 30000). */
      cooldownMs?: number;
      /** How long a fetched key set is used before it is refetched (default 600000). */
      cacheMaxAgeMs?: number;
    }
  | { mode: 'secret'; secret: string; issuer?: string; audience?: string }
  | { mode: 'embedded'; dataDir: string };

export interface SessionVerifier {
  /** Resolves the user id, or rejects with AuthFailure (401) or IdentityProviderUnavailable (503). */
  verify(token: string): Promise<{ userId: string }>;
  /** One line for the start-up log; never contains a secret. */
  describe(): string;
}

// Asymmetric only: an HS* token could be "signed" with the provider's public key material (confusion).
export const JWKS_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
export const SECRET_ALGORITHMS: readonly string[] = ['HS256'];
export const MIN_SECRET_BYTES = 32;
const EMBEDDED_KEY_RELOAD_COOLDOWN_MS = 5_000;

export function createSessionVerifier(opts: SessionVerifierOptions): SessionVerifier {
  switch (opts.mode) {
    case 'jwks':
      return createJwksVerifier(opts);
    case 'secret':
      return createSecretVerifier(opts);
    case 'embedded':
      return createEmbeddedVerifier(opts.dataDir);
  }
}

function createJwksVerifier(opts: Extract<SessionVerifierOptions, { mode: 'jwks' }>): SessionVerifier {
  const url = parseJwksUrl(opts.jwksUrl);
  const policy = checkedPolicy(JWKS_ALGORITHMS, opts.issuer, opts.audience);
  const remote = createRemoteJWKSet(url, {
    timeoutDuration: opts.timeoutMs ?? 5_000,
    cooldownDuration: opts.cooldownMs ?? 30_000,
    cacheMaxAge: opts.cacheMaxAgeMs ?? 600_000,
  });
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remote(header, token);
    } catch (err) {
      if (isProviderFailure(err)) {
        throw new IdentityProviderUnavailable('The identity provider key set (JWKS) could not be fetched.', { cause: err });
      }
      throw err;
    }
  };
  const where = `${url.origin}${url.pathname}`;
  return {
    verify: (token) => verifySessionJwt(token, getKey, policy),
    describe: () => `session tokens verified with the JWKS at ${where} (${describePolicy(policy)})`,
  };
}

// Failures to obtain the key set, as opposed to a token naming a key the set does not have.
function isProviderFailure(err: unknown): boolean {
  if (!(err instanceof errors.JOSEError)) return true; // network error, abort
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  return err.code === 'ERR_JOSE_GENERIC'; // non-200 answer or a body that is not JSON
}

function createSecretVerifier(opts: Extract<SessionVerifierOptions, { mode: 'secret' }>): SessionVerifier {
  const bytes = Buffer.byteLength(opts.secret, 'utf8');
  if (bytes < MIN_SECRET_BYTES) {
    throw new AuthConfigError(
      'TRACKCHECK_JWT_SECRET',
      `must be at least ${MIN_SECRET_BYTES} bytes for HS256 (it has ${bytes}); use e.g. \`openssl rand -base64 48\``,
    );
  }
  const policy = checkedPolicy(SECRET_ALGORITHMS, opts.issuer, opts.audience);
  const key = new TextEncoder().encode(opts.secret);
  const getKey: JWTVerifyGetKey = async () => key;
  return {
    verify: (token) => verifySessionJwt(token, getKey, policy),
    describe: () => `session tokens verified with a shared secret (${describePolicy(policy)})`,
  };
}

function createEmbeddedVerifier(dataDir: string): SessionVerifier {
  const policy: VerifyPolicy = { algorithms: EMBEDDED_ALGORITHMS, issuer: EMBEDDED_ISSUER, audience: EMBEDDED_AUDIENCE };
  let current: Promise<SigningKey> | undefined;
  let loadedAt = 0;
  const load = (): Promise<SigningKey> => {
    loadedAt = Date.now();
    const pending = loadOrCreateSigningKey(dataDir);
    current = pending;
    pending.catch(() => {
      if (current === pending) current = undefined; // retry on the next request, e.g. after a permissions fix
    });
    return pending;
  };
  return {
    async verify(token) {
      // Outside the verification: an unreadable key file is a server fault (500), not the client's.
      let key = await (current ?? load());
      const getKey: JWTVerifyGetKey = async (header) => {
        // The key file was replaced (deleted and recreated by another process): pick the new one up,
        // at most every few seconds so unknown kids cannot turn into a file read per request.
        if (header.kid !== key.kid && Date.now() - loadedAt >= EMBEDDED_KEY_RELOAD_COOLDOWN_MS) key = await load();
        if (header.kid !== key.kid) throw new errors.JWKSNoMatchingKey();
        if (header.alg !== key.alg) throw new errors.JOSEAlgNotAllowed('alg does not match the signing key');
        return key.publicKey;
      };
      return verifySessionJwt(token, getKey, policy);
    },
    describe: () => `session tokens from the embedded identity provider (key ${signingKeyPath(dataDir)})`,
  };
}

function parseJwksUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AuthConfigError('TRACKCHECK_JWKS_URL', 'is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AuthConfigError('TRACKCHECK_JWKS_URL', `must be an http or https URL, got ${url.protocol}`);
  }
  return url;
}

function checkedPolicy(algorithms: readonly string[], issuer: string | undefined, audience: string | undefined): VerifyPolicy {
  // An empty value would silently demand `iss: ""`; almost certainly a configuration slip.
  if (issuer !== undefined && issuer.trim() === '') throw new AuthConfigError('TRACKCHECK_JWT_ISSUER', 'must not be empty');
  if (audience !== undefined && audience.trim() === '') throw new AuthConfigError('TRACKCHECK_JWT_AUDIENCE', 'must not be empty');
  return { algorithms, issuer, audience };
}

function describePolicy(policy: VerifyPolicy): string {
  return [
    `algorithms ${policy.algorithms.join('/')}`,
    `issuer ${policy.issuer ?? 'not checked'}`,
    `audience ${policy.audience ?? 'not checked'}`,
  ].join(', ');
}
