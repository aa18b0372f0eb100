// Errors of the authentication building blocks. The HTTP layer maps them onto the contract's envelope:
// AuthFailure → 401 authentication_error with `code`; IdentityProviderUnavailable → 503 service_unavailable.

export type AuthFailureCode = 'invalid_credentials' | 'token_expired' | 'invalid_api_key' | 'api_key_expired';

/**
 * The caller's credentials were refused. `message` is safe to show to the client: it never contains the
 * token or key material. `cause` (when set) is for logs only.
 */
export class AuthFailure extends Error {
  override readonly name = 'AuthFailure';
  readonly code: AuthFailureCode;

  constructor(code: AuthFailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The identity provider's key set could not be obtained (unreachable, timeout, non-200, not a JWK set).
 * Not the client's fault, so not a 401: the HTTP layer answers 503 service_unavailable and logs `cause`.
 */
export class IdentityProviderUnavailable extends Error {
  override readonly name = 'IdentityProviderUnavailable';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A verifier was configured with values it cannot work with; the message names the variable. */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError';
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}
