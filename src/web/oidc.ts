// Web sign-in with an external OpenID Connect provider: authorization code flow with PKCE (S256), state and nonce,
// through openid-client. The provider is discovered from its issuer on first use (and again after a failure), so
// trackcheck starts even while the provider is down. The per-attempt secrets (state, nonce, PKCE verifier, where to
// go next) travel in an encrypted, short-lived cookie: no server-side storage, and only the browser that started the
// sign-in can finish it. The user id is the ID token's `sub`.
import * as client from 'openid-client';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { OidcConfig } from '../config.js';
import type { Clock } from '../rate-limit/window.js';
import { isValidUserId } from '../auth/web-user.js';

export const CALLBACK_PATH = '/auth/callback';
/** How long a started sign-in may take at the provider (the transaction cookie's lifetime). */
export const TRANSACTION_TTL_SECONDS = 10 * 60;
const SCOPE = 'openid email profile';
const DISCOVERY_TIMEOUT_SECONDS = 10;

export type SignInFailure = 'provider_unavailable' | 'cancelled' | 'expired' | 'failed';

export class SignInError extends Error {
  constructor(
    readonly failure: SignInFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignInError';
  }
}

interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

export interface OidcSignIn {
  /** The provider's host, for the sign-in button. */
  readonly providerName: string;
  start(next: string): Promise<{ authorizationUrl: string; transaction: string }>;
  finish(callbackQuery: string, transaction: string | undefined): Promise<{ userId: string; name?: string; next: string }>;
}

function displayNameOf(claims: Record<string, unknown>): string | undefined {
  for (const name of ['email', 'preferred_username', 'name']) {
    const value = claims[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** Many providers put e-mail and name only in the UserInfo response; without them the navigation shows the sub. */
async function userInfoName(cfg: client.Configuration, accessToken: string, sub: string): Promise<string | undefined> {
  if (!cfg.serverMetadata().userinfo_endpoint) return undefined;
  try {
    return displayNameOf(await client.fetchUserInfo(cfg, accessToken, sub));
  } catch {
    return undefined; // only a display name: signing in does not depend on it
  }
}

export function createOidcSignIn(opts: { config: OidcConfig; publicUrl: () => string; key: Uint8Array; clock: Clock }): OidcSignIn {
  const { config, key, clock } = opts;
  const issuer = new URL(config.issuer);
  let discovered: Promise<client.Configuration> | null = null;

  function configuration(): Promise<client.Configuration> {
    if (discovered) return discovered;
    const auth = config.clientSecret === null ? client.None() : client.ClientSecretBasic(config.clientSecret);
    const metadata = config.clientSecret === null ? {} : { client_secret: config.clientSecret };
    // An http issuer is the operator's explicit choice (a provider on the same host or a test); https otherwise.
    const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
    const pending = client.discovery(issuer, config.clientId, metadata, auth, { execute, timeout: DISCOVERY_TIMEOUT_SECONDS });
    discovered = pending;
    pending.catch(() => {
      if (discovered === pending) discovered = null; // try again on the next sign-in
    });
    return pending;
  }

  async function provider(): Promise<client.Configuration> {
    try {
      return await configuration();
    } catch (err) {
      throw new SignInError('provider_unavailable', 'The sign-in provider could not be reached. Try again in a minute.', { cause: err });
    }
  }

  const redirectUri = () => `${opts.publicUrl()}${CALLBACK_PATH}`;

  async function sealTransaction(tx: Transaction): Promise<string> {
    const now = Math.floor(clock.now() / 1000);
    return new EncryptJWT({ ...tx })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt(now)
      .setExpirationTime(now + TRANSACTION_TTL_SECONDS)
      .encrypt(key);
  }

  async function openTransaction(sealed: string | undefined): Promise<Transaction> {
    const expired = new SignInError('expired', 'This sign-in attempt has expired or was started in another browser. Start again.');
    if (!sealed) throw expired;
    try {
      const { payload } = await jwtDecrypt(sealed, key, {
        currentDate: new Date(clock.now()),
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const { state, nonce, verifier, next } = payload;
      if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string' || typeof next !== 'string') throw expired;
      return { state, nonce, verifier, next };
    } catch (err) {
      throw err instanceof SignInError ? err : new SignInError('expired', expired.message, { cause: err });
    }
  }

  return {
    providerName: issuer.host,

    async start(next) {
      const cfg = await provider();
      const verifier = client.randomPKCECodeVerifier();
      const tx: Transaction = { state: client.randomState(), nonce: client.randomNonce(), verifier, next };
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri(),
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: tx.state,
        nonce: tx.nonce,
      });
      return { authorizationUrl: url.href, transaction: await sealTransaction(tx) };
    },

    async finish(callbackQuery, sealed) {
      const tx = await openTransaction(sealed);
      const cfg = await provider();
      const currentUrl = new URL(`${redirectUri()}${callbackQuery ? `?${callbackQuery}` : ''}`);
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(cfg, currentUrl, {
          pkceCodeVerifier: tx.verifier,
          expectedState: tx.state,
          expectedNonce: tx.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        if (err instanceof client.AuthorizationResponseError) {
          const detail =
            err.error === 'access_denied' ? 'Sign-in was cancelled at the provider.' : `The provider refused the sign-in (${err.error}).`;
          throw new SignInError('cancelled', detail, { cause: err });
        }
        throw new SignInError('failed', 'The sign-in could not be completed with the provider. Start again.', { cause: err });
      }
      const claims = tokens.claims();
      if (!claims || !isValidUserId(claims.sub)) throw new SignInError('failed', 'The provider did not name a usable user (sub).');
      const name = displayNameOf(claims) ?? (await userInfoName(cfg, tokens.access_token, claims.sub));
      return { userId: claims.sub, name, next: tx.next };
    },
  };
}
