// Small HTTP helpers for the scale suite: real requests to child processes, spread over the API instances.
import type { TrackcheckProcess } from './processes.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  /** Which API instance answered. */
  instance: string;
}

export interface CallOptions {
  method?: string;
  token?: string;
  /** Sent as X-Forwarded-For (the instances trust it): the anonymous caller's address. */
  ip?: string;
  json?: unknown;
}

export function baseUrl(api: TrackcheckProcess): string {
  if (api.url === null) throw new Error(`${api.name} is not an API instance`);
  return api.url;
}

export async function call(api: TrackcheckProcess, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl(api)}${path}`, {
    method: opts.method ?? (opts.json === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text) as unknown;
  return { status: res.status, headers: res.headers, body, instance: api.name };
}

/** `count` requests at once, request i sent to instance i % apis.length. */
export function callSpread(
  apis: TrackcheckProcess[],
  count: number,
  path: string,
  opts: CallOptions | ((i: number) => CallOptions) = {},
): Promise<Reply[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const api = apis[i % apis.length];
      if (!api) throw new Error('no API instances');
      return call(api, path, typeof opts === 'function' ? opts(i) : opts);
    }),
  );
}

/** The `data` of a success body. */
export function dataOf<T>(reply: Reply): T {
  return (reply.body as { data: T }).data;
}

/** The `error` of an error envelope. */
export function errorOf(reply: Reply): { type: string; code: string; message: string; request_id: string } {
  return (reply.body as { error: { type: string; code: string; message: string; request_id: string } }).error;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await sleep(everyMs);
  }
}

/** The UTC minute a timestamp falls in: the rate-limit window. */
export const windowOf = (ms: number): number => Math.floor(ms / 60_000);
