// The closed set of error codes (CONTRACT.md section 4): each code's HTTP status and envelope type, stated once.
// Every error the service sends is one of these (src/http/errors.ts builds the envelope from this table);
// the OpenAPI error descriptions in common.ts name every code under its status (test/http/error-codes.test.ts).

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'usage_limit_error' | 'api_error';

export const ERRORS = {
  invalid_json: [400, 'invalid_request_error'],
  missing_parameter: [400, 'invalid_request_error'],
  invalid_parameter: [400, 'invalid_request_error'],
  invalid_url: [400, 'invalid_request_error'],
  url_not_allowed: [400, 'invalid_request_error'],
  too_many_urls: [400, 'invalid_request_error'],
  malformed_request: [400, 'invalid_request_error'],
  authentication_required: [401, 'authentication_error'],
  invalid_credentials: [401, 'authentication_error'],
  invalid_api_key: [401, 'authentication_error'],
  api_key_expired: [401, 'authentication_error'],
  token_expired: [401, 'authentication_error'],
  session_token_required: [403, 'authentication_error'],
  // The web pages only: a form without a valid CSRF token, or posted from another site.
  csrf_token_invalid: [403, 'invalid_request_error'],
  cross_site_request: [403, 'invalid_request_error'],
  not_found: [404, 'invalid_request_error'],
  method_not_allowed: [405, 'invalid_request_error'],
  request_timeout: [408, 'invalid_request_error'],
  cannot_revoke_current_key: [409, 'invalid_request_error'],
  too_many_batches: [409, 'invalid_request_error'],
  too_many_scans: [409, 'invalid_request_error'],
  too_many_monitors: [409, 'invalid_request_error'],
  payload_too_large: [413, 'invalid_request_error'],
  uri_too_long: [414, 'invalid_request_error'],
  unsupported_media_type: [415, 'invalid_request_error'],
  rate_limited: [429, 'invalid_request_error'],
  anonymous_check_limit_reached: [429, 'usage_limit_error'],
  headers_too_large: [431, 'invalid_request_error'],
  internal_error: [500, 'api_error'],
  service_unavailable: [503, 'api_error'],
} as const satisfies Record<string, readonly [number, ErrorType]>;

export type ErrorCode = keyof typeof ERRORS;

/** The codes of one status, e.g. CodeWithStatus<401>. */
export type CodeWithStatus<S extends number> = { [C in ErrorCode]: (typeof ERRORS)[C][0] extends S ? C : never }[ErrorCode];

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export const errorStatus = (code: ErrorCode): number => ERRORS[code][0];
export const errorType = (code: ErrorCode): ErrorType => ERRORS[code][1];
