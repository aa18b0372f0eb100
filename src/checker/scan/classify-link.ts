// Which links of a page a scan checks. Host knowledge comes only from the network catalogue (detectNetwork):
// a host list here would drift from the one the follower uses to judge the chain.
import { detectNetwork } from '../networks/detect.js';
import { registrableDomain } from '../analysis/url-facts.js';
import type { PageLink } from './extract-links.js';

export type LinkReason = 'network' | 'aggregator' | 'shortener' | 'cloaked';

export interface LinkClass {
  reason: LinkReason;
  /** The catalogue entry the link's own URL matches; null for a cloaked path (its network shows only when followed). */
  networkId: string | null;
}

export interface LinkToCheck extends PageLink, LinkClass {}

/** CONTRACT.md §9: at most this many links of a scan are checked; the rest are only counted. */
export const MAX_CHECKED_LINKS = 500;

/**
 * First path segments that link-cloaking plugins use for a site's own redirects (Pretty Links `/go/`,
 * ThirstyAffiliates `/recommends/`, and the common `/out/`, `/visit/`, `/refer/`, `/link/`, `/aff/`).
 */
export const CLOAKED_PATH_PREFIXES: readonly string[] = ['go', 'out', 'recommends', 'visit', 'refer', 'link', 'aff'];

const cloakedPrefixes = new Set(CLOAKED_PATH_PREFIXES);

/** `/go/nike-pegasus` or `/recommends/x/`, but not `/go/` itself (an index page, not a redirect) nor `/goods/x`. */
function isCloakedPath(pathname: string): boolean {
  const segments = pathname.split('/');
  const first = segments[1]?.toLowerCase() ?? '';
  const second = segments[2] ?? '';
  return cloakedPrefixes.has(first) && second !== '';
}

/** An absolute http(s) URL, else null. */
export function parseHttp(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Why a link is worth checking, or null when it is not: a catalogue network, aggregator or shortener (by host,
 * path and parameter rules, or a network's signature parameter on any host), else a cloaked path on the page's
 * own registrable domain (`www.site.com` and `deals.site.com` are one site).
 */
export function classifyLink(linkUrl: string, pageUrl: string): LinkClass | null {
  const url = parseHttp(linkUrl);
  if (url === null) return null;
  const def = detectNetwork(url);
  if (def !== null) return { reason: def.role, networkId: def.id };
  if (!isCloakedPath(url.pathname)) return null;
  const site = registrableDomain(pageUrl);
  return site !== null && registrableDomain(url.href) === site ? { reason: 'cloaked', networkId: null } : null;
}

/** The links a scan checks, in page order, at most `max`. */
export function selectLinksToCheck(links: readonly PageLink[], pageUrl: string, max: number = MAX_CHECKED_LINKS): LinkToCheck[] {
  const selected: LinkToCheck[] = [];
  for (const link of links) {
    if (selected.length >= max) break;
    const found = classifyLink(link.url, pageUrl);
    if (found !== null) selected.push({ ...link, ...found });
  }
  return selected;
}
