// The one place where a session JWT is verified, whatever the key source. Every mode shares this policy:
// pinned algorithms, exp and sub required, nbf honoured, issuer/audience when configured, small clock skew.
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { AuthFailure, IdentityProviderUnavailable } from './errors.js';

export interface VerifyPolicy {
  algorithms: readonly string[];
  issuer?: string;
  audience?: string;
}

export const CLOCK_TOLERANCE_SECONDS = 5;
// A user id ends up in database rows and rate-limit keys; no real identity provider needs more.
export const MAX_SUBJECT_LENGTH = 255;

export async function verifySessionJwt(token: string, getKey: JWTVerifyGetKey, policy: VerifyPolicy): Promise<{ userId: string }> {
  const options: JWTVerifyOptions = {
    algorithms: [...policy.algorithms],
    issuer: policy.issuer,
    audience: policy.audience,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['exp', 'sub'],
  };
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, getKey, options));
  } catch (err) {
    if (!(err instanceof errors.JWKSMultipleMatchingKeys)) throw toAuthFailure(err, policy);
    payload = await verifyWithEachCandidate(token, err, options, policy);
  }
  return { userId: readSubject(payload) };
}

// A token without `kid` while the provider publishes several keys of the same type (typical during a
// rotation): jose hands back the candidates and leaves the choice to us; the one whose signature holds wins.
async function verifyWithEachCandidate(
  token: string,
  candidates: errors.JWKSMultipleMatchingKeys,
  options: JWTVerifyOptions,
  policy: VerifyPolicy,
): Promise<JWTPayload> {
  let lastError: unknown = new errors.JWSSignatureVerificationFailed();
  for await (const key of candidates) {
    try {
      return (await jwtVerify(token, key, options)).payload;
    } catch (err) {
      if (!(err instanceof errors.JWSSignatureVerificationFailed)) throw toAuthFailure(err, policy);
      lastError = err;
    }
  }
  throw toAuthFailure(lastError, policy);
}

function readSubject(payload: JWTPayload): string {
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.trim() === '') {
    throw new AuthFailure('invalid_credentials', 'Session token has no subject: the sub claim must be a non-empty string.');
  }
  // The user id is stored as text, where PostgreSQL refuses U+0000 (a 500 instead of a 401).
  if (sub.includes('\u0000'))
    throw new AuthFailure('invalid_credentials', 'Session token subject must not contain the NUL character (U+0000).');
  if (sub.length > MAX_SUBJECT_LENGTH) {
    throw new AuthFailure('invalid_credentials', `Session token subject is longer than ${MAX_SUBJECT_LENGTH} characters.`);
  }
  return sub;
}

const CLAIM_MESSAGES: Record<string, { missing: string; other: string }> = {
  exp: { missing: 'Session token has no expiry: the exp claim is required.', other: 'Session token exp claim is not a number.' },
  sub: { missing: 'Session token has no subject: the sub claim is required.', other: 'Session token subject is not accepted.' },
  nbf: { missing: 'Session token has no nbf claim.', other: 'Session token is not valid yet (nbf is in the future).' },
  iss: { missing: 'Session token has no issuer: the iss claim is required.', other: 'Session token issuer is not accepted.' },
  aud: { missing: 'Session token has no audience: the aud claim is required.', other: 'Session token audience is not accepted.' },
  iat: { missing: 'Session token has no iat claim.', other: 'Session token iat claim is not a number.' },
};

/** jose error → client-safe AuthFailure. Messages name the failed check, never the token or its claims. */
export function toAuthFailure(err: unknown, policy: VerifyPolicy): AuthFailure | IdentityProviderUnavailable {
  if (err instanceof AuthFailure || err instanceof IdentityProviderUnavailable) return err;
  const fail = (message: string): AuthFailure => new AuthFailure('invalid_credentials', message, { cause: err });
  if (err instanceof errors.JWTExpired) {
    return new AuthFailure('token_expired', 'Session token has expired; sign in again to get a new one.', { cause: err });
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    const texts = CLAIM_MESSAGES[err.claim];
    if (texts) return fail(err.reason === 'missing' ? texts.missing : texts.other);
    return fail('Session token claims are not accepted.');
  }
  if (err instanceof errors.JOSEAlgNotAllowed) {
    return fail(`Session token algorithm is not accepted; accepted: ${policy.algorithms.join(', ')}.`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return fail('Session token signature is invalid.');
  if (err instanceof errors.JWKSNoMatchingKey) return fail('Session token was signed with an unknown key.');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return fail('Session token is malformed.');
  if (err instanceof errors.JOSENotSupported) return fail('Session token uses an unsupported algorithm or key type.');
  return fail('Session token could not be verified.');
}
