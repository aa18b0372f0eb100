// Token classification by format alone (CONTRACT.md section 2): no lookup, no crypto.

export type TokenKind = 'api_key' | 'session' | 'invalid';

// Lowercase only, exactly as the contract states: generateApiKey() never produces uppercase.
const API_KEY_PATTERN = /^pg_live_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// The signature segment may be empty so that `alg: none` tokens reach the verifier and are refused there
// with a precise message; they end as invalid_credentials either way.
const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
// RFC 6750 section 2.1: "Bearer" 1*SP b64token. The scheme name is case-insensitive (RFC 9110 11.1).
const BEARER_PATTERN = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export function detectTokenKind(token: string): TokenKind {
  if (API_KEY_PATTERN.test(token)) return 'api_key';
  if (SESSION_TOKEN_PATTERN.test(token)) return 'session';
  return 'invalid';
}

/**
 * `null`: no Authorization header at all (anonymous). `{ ok: false }`: a header is present but is not a
 * well-formed Bearer credential (other scheme, empty, missing token, spaces inside the token): a 401, never
 * anonymous.
 */
export function parseBearer(header: string | undefined): { ok: true; token: string } | { ok: false } | null {
  if (header === undefined) return null;
  const match = BEARER_PATTERN.exec(header.trim());
  const token = match?.[1];
  return token === undefined ? { ok: false } : { ok: true, token };
}
