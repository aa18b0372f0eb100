// One request with the retry policy around it: builds the URL and headers, sends with the injected fetch,
// turns error responses into TrackcheckApiError and waits (with the injected sleep) between attempts.
import { TrackcheckApiError, TrackcheckConnectionError, readEnvelope } from './errors.js';
import { parseRetryAfter, retryDelayMs, type RetryOptions } from './retry.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What the client tells `onRetry` before it waits. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed (1 = the first request). */
  attempt: number;
  delayMs: number;
  error: TrackcheckApiError | TrackcheckConnectionError;
}

export interface TransportOptions {
  baseUrl: string;
  token: string | null;
  fetch: FetchLike;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  retry: RetryOptions;
  timeoutMs: number;
  userAgent: string | null;
  onRetry?: (event: RetryEvent) => void;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Route template as the OpenAPI document writes it, e.g. `/v1/checks/{slug}`. */
  template: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  accept: 'json' | 'text';
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function buildUrl(baseUrl: string, spec: Pick<RequestSpec, 'template' | 'params' | 'query'>): string {
  const path = spec.template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = spec.params?.[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) search.set(name, String(value));
  const qs = search.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

async function readBody(response: Response, accept: 'json' | 'text'): Promise<unknown> {
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  if (accept === 'text' && response.ok) return text;
  if (!isJson || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(spec: RequestSpec, response: Response, body: unknown, attempts: number, now: number): TrackcheckApiError {
  const envelope = readEnvelope(body);
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now);
  return new TrackcheckApiError({
    status: response.status,
    type: envelope?.type ?? 'api_error',
    code: envelope?.code ?? `http_${response.status}`,
    message: envelope?.message ?? `HTTP ${response.status} ${response.statusText}`.trim(),
    requestId: envelope?.requestId ?? response.headers.get('x-request-id'),
    retryAfter: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
    attempts,
    method: spec.method,
    path: spec.template,
  });
}

function describeNetworkError(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'the request timed out';
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : null;
  return cause ?? (err instanceof Error ? err.message : String(err));
}

export async function sendRequest(options: TransportOptions, spec: RequestSpec): Promise<RawResponse> {
  const url = buildUrl(options.baseUrl, spec);
  const headers: Record<string, string> = { accept: spec.accept === 'json' ? 'application/json' : 'text/plain, text/csv, */*' };
  if (options.token !== null) headers.authorization = `Bearer ${options.token}`;
  if (options.userAgent !== null) headers['user-agent'] = options.userAgent;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);

  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    let response: Response;
    let body: unknown;
    try {
      response = await options.fetch(url, { method: spec.method, headers, body: payload, signal });
      body = await readBody(response, spec.accept);
    } catch (err) {
      if (spec.signal?.aborted) throw err;
      const error = new TrackcheckConnectionError({
        message: `${spec.method} ${url}: ${describeNetworkError(err)}`,
        attempts: attempt,
        method: spec.method,
        path: spec.template,
        cause: err,
      });
      const delayMs = retryDelayMs({ method: spec.method, path: spec.template, attempt, status: null }, options.retry, options.random);
      if (delayMs === null) throw error;
      options.onRetry?.({ method: spec.method, path: spec.template, attempt, delayMs, error });
      await options.sleep(delayMs, spec.signal);
      continue;
    }
    if (response.ok) return { status: response.status, headers: response.headers, body };
    const error = toApiError(spec, response, body, attempt, options.now());
    const delayMs = retryDelayMs(
      {
        method: spec.method,
        path: spec.template,
        attempt,
        status: response.status,
        errorType: error.type,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), options.now()),
      },
      options.retry,
      options.random,
    );
    if (delayMs === null) throw error;
    options.onRetry?.({ method: spec.method, path: spec.template, attempt, delayMs, error });
    await options.sleep(delayMs, spec.signal);
  }
}
