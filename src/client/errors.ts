// Errors the client throws: the service's error envelope as a typed error, or no answer at all.
import type { ErrorType } from '../contract/errors.js';

/** `type` values of the error envelope (CONTRACT.md section 4); a proxy's own error page maps to `api_error`. */
export type ApiErrorType = ErrorType;

export interface ApiErrorFields {
  status: number;
  type: ApiErrorType;
  code: string;
  message: string;
  /** The `req_…` id of the response (envelope or `X-Request-Id`); quote it when reporting a problem. */
  requestId: string | null;
  /** Seconds from the `Retry-After` header (429, 503), else null. */
  retryAfter: number | null;
  /** Requests made before giving up (1 when the error was not retryable). */
  attempts: number;
  method: string;
  path: string;
}

/** The service answered with an error status. */
export class TrackcheckApiError extends Error implements ApiErrorFields {
  readonly status: number;
  readonly type: ApiErrorType;
  readonly code: string;
  readonly requestId: string | null;
  readonly retryAfter: number | null;
  readonly attempts: number;
  readonly method: string;
  readonly path: string;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.name = 'TrackcheckApiError';
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.attempts = fields.attempts;
    this.method = fields.method;
    this.path = fields.path;
  }
}

/** No answer: refused connection, reset, DNS failure or the per-request timeout. `cause` holds the original error. */
export class TrackcheckConnectionError extends Error {
  readonly attempts: number;
  readonly method: string;
  readonly path: string;

  constructor(fields: { message: string; attempts: number; method: string; path: string; cause: unknown }) {
    super(fields.message, { cause: fields.cause });
    this.name = 'TrackcheckConnectionError';
    this.attempts = fields.attempts;
    this.method = fields.method;
    this.path = fields.path;
  }
}

const ERROR_TYPES: readonly string[] = [
  'invalid_request_error',
  'authentication_error',
  'usage_limit_error',
  'api_error',
] satisfies ApiErrorType[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The envelope's fields when `body` is one, else null (a proxy's HTML page, an empty body). */
export function readEnvelope(body: unknown): { type: ApiErrorType; code: string; message: string; requestId: string | null } | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { type, code, message, request_id: requestId } = body.error;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return {
    type: typeof type === 'string' && ERROR_TYPES.includes(type) ? (type as ApiErrorType) : 'api_error',
    code,
    message,
    requestId: typeof requestId === 'string' ? requestId : null,
  };
}

/** `waitFor` gave up: the check or batch was still not finished after `timeoutMs`. */
export class TrackcheckTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrackcheckTimeoutError';
  }
}
