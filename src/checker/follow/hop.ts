// One hop: guard the host, send the request over a pinned connection, read the body only when the
// page itself matters (non-redirect HTML). Never throws: every failure becomes an outcome.
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { ResolveMap } from '../net/address-policy.js';
import { decodeHtml, destroyQuietly, readBody } from '../net/body.js';
import { buildRequestHeaders, describeRequestError, sendRequest, type Navigation } from '../net/http-client.js';
import { resolveTarget, type LookupAll } from '../net/net-guard.js';
import { headerValue, type HeaderMap } from './page-facts.js';
import type { PinnedClient } from '../net/pinned-agent.js';

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface HopSettings {
  client: PinnedClient;
  resolve: ResolveMap | undefined;
  userAgent: string;
  maxBodyBytes: number;
  lookupAll?: LookupAll;
}

export type HopOutcome =
  | { kind: 'response'; status: number; headers: HeaderMap; html: string | null; timeMs: number }
  | { kind: 'blocked'; address: string; range: string; timeMs: number }
  | { kind: 'failed'; error: string; cause: 'timeout' | 'aborted' | 'error'; timeMs: number };

const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const DISCARD_LIMIT = 64 * 1024;
const DISCARD_TIMEOUT_MS = 5_000;
// How long the next hop waits for an unneeded body to finish so its connection can be reused. A body
// that takes longer drains (or is dropped) in the background while the next hop opens a new one.
const DISCARD_WAIT_MS = 50;

/** Whether the page body matters: non-redirects that are (or may be) HTML. */
function wantsBody(status: number, headers: HeaderMap): boolean {
  if (status >= 300 && status < 400) return false;
  const type = headerValue(headers, 'content-type');
  return type === undefined || type.trim() === '' || HTML_TYPE.test(type);
}

/** Drains a body we do not need (so the connection can be reused); resolves when done, never rejects. */
function discardBody(body: Readable & { dump?: (opts: { limit: number; signal: AbortSignal }) => Promise<unknown> }): Promise<void> {
  if (typeof body.dump !== 'function') {
    destroyQuietly(body);
    return Promise.resolve();
  }
  return (
    body
      .dump({ limit: DISCARD_LIMIT, signal: AbortSignal.timeout(DISCARD_TIMEOUT_MS) })
      .then(
        () => undefined,
        () => undefined,
      )
      // undici marks the connection idle a tick after the body closes; without this turn of the
      // event loop the next hop would open a second connection.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
  );
}

function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Performs one hop within `budgetMs` (the hop limit or what is left of the check). `external` is the
 * caller's cancellation signal.
 */
export async function performHop(
  settings: HopSettings,
  url: URL,
  nav: Navigation,
  cookieHeader: string,
  budgetMs: number,
  external: AbortSignal | undefined,
): Promise<HopOutcome> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new Error('hop timed out'));
    },
    Math.max(0, budgetMs),
  );
  const onExternal = (): void => controller.abort(new Error('check aborted'));
  if (external?.aborted === true) onExternal();
  external?.addEventListener('abort', onExternal, { once: true });
  try {
    const decision = await abortable(resolveTarget(url.hostname, settings.resolve, settings.lookupAll), controller.signal);
    if (!decision.ok) {
      if (decision.kind === 'blocked') return { kind: 'blocked', address: decision.address, range: decision.range, timeMs: elapsed() };
      return { kind: 'failed', error: decision.message, cause: 'error', timeMs: elapsed() };
    }
    const headers = buildRequestHeaders(url, nav, cookieHeader, settings.userAgent);
    const response = await sendRequest(settings.client, url, decision.addresses, headers, controller.signal);
    const responseHeaders = response.headers as HeaderMap;
    if (wantsBody(response.statusCode, responseHeaders)) {
      const bytes = await readBody(response.body, headerValue(responseHeaders, 'content-encoding'), settings.maxBodyBytes);
      const html = decodeHtml(bytes, headerValue(responseHeaders, 'content-type') ?? null);
      const timeMs = elapsed();
      await new Promise<void>((resolve) => setImmediate(resolve)); // lets the connection go idle for reuse
      return { kind: 'response', status: response.statusCode, headers: responseHeaders, html, timeMs };
    }
    // The hop's time ends with its headers; the wait for the unneeded body is not the target's latency.
    const timeMs = elapsed();
    await waitAtMost(discardBody(response.body), DISCARD_WAIT_MS);
    return { kind: 'response', status: response.statusCode, headers: responseHeaders, html: null, timeMs };
  } catch (err) {
    if (timedOut) return { kind: 'failed', error: 'timed out', cause: 'timeout', timeMs: elapsed() };
    if (controller.signal.aborted) return { kind: 'failed', error: 'check aborted', cause: 'aborted', timeMs: elapsed() };
    return { kind: 'failed', error: describeRequestError(err), cause: 'error', timeMs: elapsed() };
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', onExternal);
  }
}
