// When the client tries a request again, and how long it waits first. Pure functions: the transport feeds them
// what happened, tests feed them everything.
//
// The rule (docs/integrations/typescript-client.md):
// - 429 `rate_limited`: retried for every method. The per-minute limiter refuses in the request hook, before any
//   handler ran, so nothing was created. The wait is the Retry-After seconds plus a little jitter, so a fleet of
//   clients refused in the same window does not return in the same millisecond. A Retry-After longer than
//   `maxRetryAfterMs` is not waited out: the error surfaces with `retryAfter` for the caller to decide.
// - 429 `usage_limit_error` (the anonymous weekly cap): never retried; it lifts on Monday, not in seconds.
// - 503, 502, 504: retried for idempotent methods (GET, HEAD, DELETE…) with exponential backoff and full jitter,
//   waiting at least the Retry-After when one is sent. POST is retried on 503 only where the service's 503 means
//   its single transaction failed, so nothing exists: POST /v1/batches, POST /v1/scans and POST /v1/keys. POST /v1/checks is NOT:
//   it stores the check first and then waits for the verdict, and a database outage during that wait is a 503 for
//   a check that exists and will run, so a retry would create a second check (and for an anonymous caller spend a
//   second weekly allowance).
// - No answer (refused, reset, timeout): retried for idempotent methods only; a POST may have been created.
// - Everything else (400, 401, 403, 404, 409, 500, …) is final.

export interface RetryOptions {
  /** Requests in total, the first included (1 = never retry). Default 4. */
  maxAttempts: number;
  /** First backoff ceiling; doubles per retry. Default 500 ms. */
  baseDelayMs: number;
  /** Backoff ceiling cap. Default 30 s. */
  maxDelayMs: number;
  /** Longest Retry-After the client waits out by itself. Default 60 s (the rate-limit window). */
  maxRetryAfterMs: number;
  /** Random extra wait after a Retry-After. Default 500 ms. */
  retryAfterJitterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  retryAfterJitterMs: 500,
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** POST routes whose only 503 is a failed single transaction (nothing created). Path templates. */
const POST_SAFE_ON_503 = new Set(['/v1/batches', '/v1/scans', '/v1/keys']);
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export interface AttemptOutcome {
  method: string;
  /** The route template, e.g. `/v1/checks/{slug}`. */
  path: string;
  /** 1 for the first request. */
  attempt: number;
  /** The response status, or null when no response arrived. */
  status: number | null;
  errorType?: string | null;
  /** Retry-After in milliseconds, null when absent or unreadable. */
  retryAfterMs?: number | null;
}

/** Full jitter: a uniformly random wait between 0 and the exponential ceiling of this retry. */
export function backoffDelayMs(attempt: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

function mayRetryUnanswered(method: string): boolean {
  return IDEMPOTENT.has(method);
}

function mayRetryGateway(method: string, path: string, status: number): boolean {
  if (IDEMPOTENT.has(method)) return true;
  return method === 'POST' && status === 503 && POST_SAFE_ON_503.has(path);
}

/** Milliseconds to wait before the next attempt, or null when the outcome is final. */
export function retryDelayMs(outcome: AttemptOutcome, options: RetryOptions, random: () => number): number | null {
  if (outcome.attempt >= options.maxAttempts) return null;
  const method = outcome.method.toUpperCase();
  const retryAfter = outcome.retryAfterMs ?? null;
  if (retryAfter !== null && retryAfter > options.maxRetryAfterMs) return null;
  if (outcome.status === null) return mayRetryUnanswered(method) ? backoffDelayMs(outcome.attempt, options, random) : null;
  if (outcome.status === 429) {
    if (outcome.errorType === 'usage_limit_error') return null;
    if (retryAfter === null) return backoffDelayMs(outcome.attempt, options, random);
    return retryAfter + Math.floor(random() * options.retryAfterJitterMs);
  }
  if (GATEWAY_STATUSES.has(outcome.status) && mayRetryGateway(method, outcome.path, outcome.status)) {
    return Math.max(retryAfter ?? 0, backoffDelayMs(outcome.attempt, options, random));
  }
  return null;
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
