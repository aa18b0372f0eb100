// Services throw DomainError with a contract code (contract/errors.ts); the HTTP layer gives it the code's status and type.
import type { ErrorCode } from '../contract/errors.js';

/** The codes a use case may refuse with: a subset of the closed set. */
export type DomainErrorCode = Extract<
  ErrorCode,
  | 'invalid_parameter'
  | 'invalid_url'
  | 'url_not_allowed'
  | 'too_many_urls'
  | 'not_found'
  | 'cannot_revoke_current_key'
  | 'too_many_batches'
  | 'too_many_scans'
  | 'too_many_monitors'
  | 'anonymous_check_limit_reached'
>;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After for a usage limit. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
