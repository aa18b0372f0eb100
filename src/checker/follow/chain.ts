// The hop-by-hop follower: request, record, decide the next hop, stop at the landing page, a loop,
// the hop limit, a refused address or a timeout. Nothing about the target makes it throw.
import { performance } from 'node:perf_hooks';
import { DEFAULT_LIMITS, DEFAULT_MAX_BODY_BYTES } from '../engine-record.js';
import type { ResolveMap } from '../net/address-policy.js';
import { cookieHeaderFor, createCookieJar, markFirstParty, MAX_COOKIES_PER_CHECK, storeResponseCookies } from '../analysis/cookies.js';
import { DEFAULT_USER_AGENT } from '../net/http-client.js';
import { performHop, type HopOutcome, type HopSettings } from './hop.js';
import { describeBlocked, type LookupAll } from '../net/net-guard.js';
import { decideNext, type NavState, type NextStep } from './next-hop.js';
import { getPinnedClient } from '../net/pinned-agent.js';
import type { ChainEnd, ChainTrace, CookieRecord, Hop, HopKind, PageFacts } from '../types.js';
import { invalidStart, parseStart } from './chain-start.js';
import { isTransientError } from '../net/transient-errors.js';

export { DEFAULT_USER_AGENT } from '../net/http-client.js';

export interface ChainOptions {
  /** Static DNS (TRACKCHECK_RESOLVE); hosts named here may resolve to private addresses. */
  resolve?: ResolveMap;
  userAgent?: string;
  /** Redirects to follow (any kind); the chain makes at most maxHops + 1 requests. Default 20. */
  maxHops?: number;
  /** Per hop: DNS, connect, headers and the body we read. Default 10 s. */
  hopTimeoutMs?: number;
  /** The whole chain. Default 30 s. */
  checkTimeoutMs?: number;
  /** Most of a page body read (after decompression). Default 512 KiB. */
  maxBodyBytes?: number;
  /** Extra trusted CA certificates (PEM), e.g. a test CA. */
  extraCaCerts?: string[];
  signal?: AbortSignal;
  /** Test seam: replaces the system resolver (dns.lookup with all: true). */
  lookupAll?: LookupAll;
}

/** "10", "0.25": seconds for messages. */
function formatSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

function queryNames(url: URL): string[] {
  return [...new Set(url.searchParams.keys())];
}

function paramChanges(previous: URL | null, current: URL): { paramsAdded: string[]; paramsRemoved: string[] } {
  if (previous === null) return { paramsAdded: [], paramsRemoved: [] };
  const before = queryNames(previous);
  const after = queryNames(current);
  return { paramsAdded: after.filter((n) => !before.includes(n)), paramsRemoved: before.filter((n) => !after.includes(n)) };
}

/** Same URL (fragment aside) with the same Cookie header is the same request: a loop. */
function loopKey(url: URL, cookieHeader: string): string {
  return `${url.href.split('#')[0] ?? url.href}\n${cookieHeader}`;
}

function newHop(url: URL, kind: HopKind, previous: URL | null): Hop {
  return {
    url: url.href,
    status: null,
    location: null,
    kind,
    timeMs: 0,
    network: null,
    ...paramChanges(previous, url),
    cookies: [],
    error: null,
  };
}

function finish(hops: Hop[], end: ChainEnd, landing: PageFacts | null, cookies: CookieRecord[]): ChainTrace {
  const last = hops[hops.length - 1];
  if (last !== undefined) {
    try {
      markFirstParty(cookies, new URL(last.url).hostname);
    } catch {
      // hop URLs are always parsed URLs; nothing to mark otherwise
    }
  }
  return { hops, end, landing: last?.status === null ? null : landing, cookies };
}

/** Fills the hop from a failed or blocked outcome and says how the chain ends. */
function endForFailure(
  hop: Hop,
  index: number,
  outcome: Exclude<HopOutcome, { kind: 'response' }>,
  limits: { hopMs: number; checkMs: number; checkBound: boolean },
): ChainEnd {
  if (outcome.kind === 'blocked') {
    hop.error = describeBlocked(outcome.range);
    return { reason: 'blocked_private_address', hop: index, address: outcome.address };
  }
  if (outcome.cause === 'aborted') {
    hop.error = 'check aborted';
    return { reason: 'check_timeout', hop: index };
  }
  if (outcome.cause === 'timeout' && limits.checkBound) {
    hop.error = `check timed out after ${formatSeconds(limits.checkMs)} s`;
    return { reason: 'check_timeout', hop: index };
  }
  hop.error = outcome.cause === 'timeout' ? `timed out after ${formatSeconds(limits.hopMs)} s` : outcome.error;
  return { reason: 'unreachable', hop: index, error: hop.error };
}

function isWorthRetrying(outcome: HopOutcome, checkBound: boolean): boolean {
  if (outcome.kind !== 'failed') return false;
  if (outcome.cause === 'timeout') return !checkBound;
  return outcome.cause === 'error' && isTransientError(outcome.error);
}

/** A page the readers choke on must not break the check: it becomes a landing with what is certain. */
async function decideSafely(...args: Parameters<typeof decideNext>): Promise<NextStep> {
  try {
    return await decideNext(...args);
  } catch {
    const [, status, headers] = args;
    const contentType = headers['content-type'];
    const facts: PageFacts = {
      contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? null,
      title: null,
      botWall: status === 403 || status === 429,
      availability: null,
      scriptNavigation: false,
    };
    return { kind: 'landed', facts };
  }
}

/**
 * Follows `url` hop by hop like a shopper's browser and returns the raw trace (hop.network is left
 * null for the catalogue to fill). Never throws for anything the target does.
 *
 * End hops: `redirect_loop.hop` is the earlier hop the chain would repeat; `too_many_redirects.hop`
 * is the last hop made (its redirect was not followed); the others name the hop that failed.
 * `landing` describes the last hop's response whenever it has one (also for loops and the hop limit).
 */
export async function followChain(url: string, options: ChainOptions = {}): Promise<ChainTrace> {
  const maxHops = options.maxHops ?? DEFAULT_LIMITS.maxHops;
  const hopMs = options.hopTimeoutMs ?? DEFAULT_LIMITS.hopTimeoutMs;
  const checkMs = options.checkTimeoutMs ?? DEFAULT_LIMITS.checkTimeoutMs;
  const settings: HopSettings = {
    client: getPinnedClient(options.resolve, options.extraCaCerts),
    resolve: options.resolve,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...(options.lookupAll !== undefined ? { lookupAll: options.lookupAll } : {}),
  };
  const hops: Hop[] = [];
  const cookies: CookieRecord[] = [];
  const start = parseStart(url);
  if (start === null) return invalidStart(url);

  const jar = createCookieJar();
  const deadline = performance.now() + checkMs;
  const seen = new Map<string, number>();
  let target = start;
  let previous: URL | null = null;
  let kind: HopKind = 'http';
  // Hop 0 is a click the browser did not initiate from a known page (Sec-Fetch-Site: none).
  let nav: NavState = { site: 'none', userActivated: true, referer: null, initiator: null };
  seen.set(loopKey(target, cookieHeaderFor(jar, target)), 0);

  for (let index = 0; ; index += 1) {
    const hop = newHop(target, kind, previous);
    hops.push(hop);
    const attempt = async (): Promise<{ outcome: HopOutcome; checkBound: boolean }> => {
      const remaining = deadline - performance.now();
      const checkBound = remaining < hopMs;
      const outcome: HopOutcome =
        remaining <= 0 || options.signal?.aborted === true
          ? { kind: 'failed', error: 'timed out', cause: options.signal?.aborted === true ? 'aborted' : 'timeout', timeMs: 0 }
          : await performHop(settings, target, nav, cookieHeaderFor(jar, target), Math.min(hopMs, remaining), options.signal);
      return { outcome, checkBound };
    };
    let { outcome, checkBound } = await attempt();
    // A timeout or a dropped connection is tried once more before the check gives up on the hop (section 7).
    if (isWorthRetrying(outcome, checkBound)) ({ outcome, checkBound } = await attempt());
    hop.timeMs = Math.round(outcome.timeMs);
    if (outcome.kind !== 'response') return finish(hops, endForFailure(hop, index, outcome, { hopMs, checkMs, checkBound }), null, cookies);

    hop.status = outcome.status;
    hop.cookies = storeResponseCookies(jar, target, outcome.headers['set-cookie'], index, { room: MAX_COOKIES_PER_CHECK - cookies.length });
    cookies.push(...hop.cookies);
    const next = await decideSafely(target, outcome.status, outcome.headers, outcome.html, nav);
    if (outcome.status >= 300 && outcome.status < 400) {
      const location = outcome.headers['location'];
      hop.location = (Array.isArray(location) ? location[0] : location) ?? null;
    }
    if (next.kind === 'landed') return finish(hops, { reason: 'landed' }, next.facts, cookies);
    if (next.kind === 'invalid') return finish(hops, { reason: 'unreachable', hop: index, error: next.error }, next.facts, cookies);

    const key = loopKey(next.url, cookieHeaderFor(jar, next.url));
    const repeated = seen.get(key);
    if (repeated !== undefined) return finish(hops, { reason: 'redirect_loop', hop: repeated }, next.facts, cookies);
    if (index >= maxHops) return finish(hops, { reason: 'too_many_redirects', hop: index }, next.facts, cookies);
    seen.set(key, index + 1);
    previous = target;
    target = next.url;
    kind = next.hopKind;
    nav = next.nav;
  }
}
