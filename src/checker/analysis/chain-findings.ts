// Findings about how the chain ended and about the hops themselves (no landing-page evidence needed).
import { makeIssue } from '../issues/catalogue.js';
import { findMacros } from './macros.js';
import { parseUrl } from './url-facts.js';
import { isTransientError } from '../net/transient-errors.js';
import { sawTracker } from './verdict.js';
import type { LandingState } from './landing-state.js';
import type { ChainTrace, Hop, Issue, NetworkRef } from '../types.js';

export const SLOW_CHAIN_MS = 3000;
export const SLOW_HOP_MS = 1000;

/** Exactly one of these describes how the chain ended, when it did not end on a healthy page. */
export function findEndIssues(trace: ChainTrace, landing: LandingState): Issue[] {
  const { end, hops } = trace;
  const url = (index: number): string | null => hops[index]?.url ?? null;
  switch (end.reason) {
    case 'redirect_loop': {
      // The fix belongs to the hop whose redirect closes the loop (the last one), not the URL it revisits.
      const closing = hops.length - 1;
      return [makeIssue('redirect_loop', { hop: closing, url: url(closing), otherUrl: url(end.hop) })];
    }
    case 'too_many_redirects':
      return [makeIssue('too_many_redirects', { hop: end.hop, url: url(end.hop) })];
    case 'blocked_private_address':
      return [makeIssue('blocked_private_address', { hop: end.hop, url: url(end.hop), address: end.address })];
    case 'unreachable': {
      // A 3xx that arrived but points nowhere usable (unparseable Location, an app or other non-web scheme)
      // is a broken redirect, not an unreachable host.
      const status = hops[end.hop]?.status ?? null;
      if (status !== null && status >= 300 && status < 400) {
        return [makeIssue('broken_redirect', { hop: end.hop, url: url(end.hop), status, error: end.error })];
      }
      const code = isTransientError(end.error) ? 'landing_timeout' : 'landing_unreachable';
      return [makeIssue(code, { hop: end.hop, url: url(end.hop), error: end.error })];
    }
    case 'check_timeout':
      return [makeIssue('landing_timeout', { hop: end.hop, url: url(end.hop), error: hops[end.hop]?.error ?? 'the check timed out' })];
    case 'landed':
      break;
  }
  const details = { hop: landing.lastIndex, url: landing.last.url, status: landing.status };
  if (!landing.landed) {
    const code = isTransientError(landing.last.error) ? 'landing_timeout' : 'landing_unreachable';
    return [makeIssue(code, { ...details, error: landing.last.error })];
  }
  if (landing.botWall) return [makeIssue('could_not_verify', details)];
  if (landing.errorStatus)
    return [makeIssue('landing_error_status', { ...details, network: landing.refusal?.network, meaning: landing.refusal?.meaning })];
  if (landing.status !== null && landing.status >= 300 && landing.status < 400) {
    return [makeIssue('broken_redirect', details)];
  }
  if (landing.scriptNavigation) return [makeIssue('script_redirect_unresolved', details)];
  return [];
}

export function findStackedNetworks(networks: readonly NetworkRef[], verdict: NetworkRef | null): Issue[] {
  const trackers = networks.filter((n) => n.role !== 'shortener');
  if (new Set(trackers.map((n) => n.id)).size < 2) return [];
  return [makeIssue('stacked_networks', { networks: trackers.map((n) => n.name), network: verdict?.name ?? null })];
}

/**
 * Only a network's or aggregator's own hop matters: a cached 301 there skips the click recording. A shortener
 * (bit.ly answers 301 for everything) caches only the way to the tracking link, which still runs every time.
 */
export function findPermanentRedirects(hops: readonly Hop[], trackers: readonly (NetworkRef | null)[]): Issue[] {
  return hops.flatMap((hop, index) => {
    const tracker = trackers[index] ?? null;
    if (tracker === null || tracker.role === 'shortener' || (hop.status !== 301 && hop.status !== 308)) return [];
    return [makeIssue('permanent_redirect', { hop: index, url: hop.url, status: hop.status, network: tracker.name })];
  });
}

export function findUnresolvedMacros(hops: readonly Hop[]): Issue[] {
  const tokens: string[] = [];
  const params: string[] = [];
  let first: number | null = null;
  for (const [index, hop] of hops.entries()) {
    for (const hit of findMacros(hop.url)) {
      if (tokens.includes(hit.token)) continue;
      tokens.push(hit.token);
      if (hit.param !== null && !params.includes(hit.param)) params.push(hit.param);
      first ??= index;
    }
  }
  if (first === null) return [];
  return [makeIssue('unresolved_macro', { hop: first, url: hops[first]?.url ?? null, tokens, params })];
}

export function findInsecureHops(hops: readonly Hop[]): Issue[] {
  const isHttp = hops.map((hop) => parseUrl(hop.url)?.protocol === 'http:');
  const insecure = isHttp.flatMap((http, index) => (http ? [index] : []));
  const first = insecure[0];
  if (first === undefined) return [];
  const downgrade = isHttp.some((http, index) => http && index > 0 && parseUrl(hops[index - 1]?.url ?? '')?.protocol === 'https:');
  return [
    makeIssue('insecure_hop', {
      hop: first,
      hops: insecure,
      url: hops[first]?.url ?? null,
      variant: downgrade ? 'downgrade' : null,
    }),
  ];
}

/** Only hops that got a response count: a timeout is already `landing_unreachable`, not slowness. */
export function findSlowChain(hops: readonly Hop[]): Issue[] {
  const answered = hops.flatMap((hop, index) => (hop.status === null ? [] : [{ hop, index }]));
  const totalMs = Math.round(answered.reduce((sum, { hop }) => sum + hop.timeMs, 0));
  const slowest = answered.reduce<{ hop: Hop; index: number } | null>(
    (best, entry) => (best === null || entry.hop.timeMs > best.hop.timeMs ? entry : best),
    null,
  );
  if (slowest !== null && slowest.hop.timeMs > SLOW_HOP_MS) {
    const timeMs = Math.round(slowest.hop.timeMs);
    return [makeIssue('slow_redirect_chain', { hop: slowest.index, url: slowest.hop.url, timeMs, totalMs })];
  }
  if (totalMs > SLOW_CHAIN_MS) return [makeIssue('slow_redirect_chain', { totalMs })];
  return [];
}

/** `hop` points at the page that navigated (i − 1), where the fix belongs. */
export function findClientSideHops(hops: readonly Hop[]): Issue[] {
  const issues: Issue[] = [];
  const kinds = [
    ['meta-refresh', 'meta_refresh_redirect'],
    ['javascript', 'javascript_redirect'],
  ] as const;
  for (const [kind, code] of kinds) {
    const index = hops.findIndex((hop, i) => i > 0 && hop.kind === kind);
    if (index > 0) issues.push(makeIssue(code, { hop: index - 1, url: hops[index - 1]?.url ?? null }));
  }
  return issues;
}

export function findNoNetwork(networks: readonly NetworkRef[]): Issue[] {
  return sawTracker(networks) ? [] : [makeIssue('no_network_detected')];
}
