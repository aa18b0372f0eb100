// Authentication building blocks, free of any HTTP framework. See README.md for the invariants.
export { apiKeyPrefix, generateApiKey, hashApiKey, API_KEY_PREFIX_LENGTH } from './api-key.js';
export {
  DEFAULT_SESSION_TTL_SECONDS,
  EMBEDDED_AUDIENCE,
  EMBEDDED_ISSUER,
  issueSessionToken,
  loadOrCreateSigningKey,
  SESSION_KEY_FILE_NAME,
  signingKeyPath,
  type SigningKey,
} from './embedded-idp.js';
export { AuthConfigError, AuthFailure, IdentityProviderUnavailable, type AuthFailureCode } from './errors.js';
export {
  createSessionVerifier,
  JWKS_ALGORITHMS,
  MIN_SECRET_BYTES,
  SECRET_ALGORITHMS,
  type SessionVerifier,
  type SessionVerifierOptions,
} from './session-verifier.js';
export { detectTokenKind, parseBearer, type TokenKind } from './token-kind.js';
