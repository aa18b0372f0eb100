// Fetching a document a scan reads (an article page, a sitemap) under CONTRACT.md §6: every hop's host resolved
// and verified by net-guard, the connection pinned to the verified address, HTTP redirects followed, the body read
// on a byte budget. Never throws for anything the target does: a failure is an outcome with a user-facing reason.
import type { ResolveMap } from './address-policy.js';
import { readBody, destroyQuietly } from './body.js';
import { buildRequestHeaders, describeRequestError, DEFAULT_USER_AGENT, refererFor, sendRequest, type Navigation } from './http-client.js';
import { describeBlocked, resolveTarget, type LookupAll } from './net-guard.js';
import { headerValue, type HeaderMap } from '../follow/page-facts.js';
import { getPinnedClient } from './pinned-agent.js';
import { REDIRECT_STATUSES } from '../follow/hop.js';

export interface DocumentFetchOptions {
  resolve?: ResolveMap;
  extraCaCerts?: string[];
  lookupAll?: LookupAll;
  /** Most bytes read (after content decoding). Default 5 MiB. */
  maxBytes?: number;
  /** The whole fetch, redirects included. Default 20 s. */
  timeoutMs?: number;
  /** Default 10. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export type DocumentFetchFailure = 'blocked_private_address' | 'unreachable' | 'error_status' | 'too_many_redirects';

export type FetchedDocument =
  | { ok: true; url: string; status: number; contentType: string | null; body: Buffer }
  | { ok: false; url: string; code: DocumentFetchFailure; message: string };

export const DEFAULT_DOCUMENT_BYTES = 5 * 1024 * 1024;

function fail(url: URL, code: DocumentFetchFailure, message: string): FetchedDocument {
  return { ok: false, url: url.href, code, message };
}

/** GETs `url`, following HTTP redirects, and returns the final document or why there is none. */
export async function fetchDocument(url: string, options: DocumentFetchOptions = {}): Promise<FetchedDocument> {
  const client = getPinnedClient(options.resolve, options.extraCaCerts);
  const maxRedirects = options.maxRedirects ?? 10;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, url, code: 'unreachable', message: 'not a valid URL' };
  }
  let nav: Navigation = { site: 'none', userActivated: true, referer: null };
  for (let redirects = 0; ; redirects += 1) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return fail(target, 'unreachable', `redirected to a ${target.protocol} URL`);
    const decision = await resolveTarget(target.hostname, options.resolve, options.lookupAll);
    if (!decision.ok) {
      return decision.kind === 'blocked'
        ? fail(target, 'blocked_private_address', `${target.hostname}: ${describeBlocked(decision.range)}`)
        : fail(target, 'unreachable', decision.message);
    }
    let response;
    try {
      const headers = buildRequestHeaders(target, nav, '', DEFAULT_USER_AGENT);
      response = await sendRequest(client, target, decision.addresses, headers, signal);
    } catch (err) {
      if (options.signal?.aborted === true) throw options.signal.reason;
      return fail(target, 'unreachable', timeout.aborted ? 'timed out' : describeRequestError(err));
    }
    const responseHeaders = response.headers as HeaderMap;
    const location = headerValue(responseHeaders, 'location');
    if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
      destroyQuietly(response.body);
      if (redirects >= maxRedirects) return fail(target, 'too_many_redirects', `more than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        return fail(target, 'unreachable', 'redirected to an invalid URL');
      }
      nav = { site: 'none', userActivated: true, referer: refererFor(target, next) };
      target = next;
      continue;
    }
    if (response.statusCode >= 400) {
      destroyQuietly(response.body);
      return fail(target, 'error_status', `the page answered HTTP ${response.statusCode}`);
    }
    const body = await readBody(
      response.body,
      headerValue(responseHeaders, 'content-encoding'),
      options.maxBytes ?? DEFAULT_DOCUMENT_BYTES,
    );
    return {
      ok: true,
      url: target.href,
      status: response.statusCode,
      contentType: headerValue(responseHeaders, 'content-type') ?? null,
      body,
    };
  }
}
