// Where a response sends the browser next: a 3xx Location, a refresh (header or <meta>), or a literal
// script redirect — or nowhere (the landing page).
import { TextDecoder } from 'node:util';
import { parseRefresh } from './html.js';
import { refererFor, relateSites, worstSite, type Navigation } from '../net/http-client.js';
import { REDIRECT_STATUSES } from './hop.js';
import { headerValue, type HeaderMap } from './page-facts.js';
import { pageFactsOf } from './page-read.js';
import { readPageOffThread } from './page-reader.js';
import type { HopKind, PageFacts } from '../types.js';
import { documentBase } from '../analysis/url-facts.js';

/** Browsers follow a refresh after at most this long; longer ones are pages, not redirects. */
export const MAX_REFRESH_DELAY_SECONDS = 10;

/** Navigation state carried along the chain (the page that started the current navigation). */
export interface NavState extends Navigation {
  initiator: URL | null;
}

export type NextStep =
  | { kind: 'follow'; url: URL; hopKind: HopKind; nav: NavState; facts: PageFacts }
  | { kind: 'landed'; facts: PageFacts }
  | { kind: 'invalid'; error: string; facts: PageFacts };

/** Location bytes arrive as latin1; browsers read them as UTF-8 when they are valid UTF-8. */
export function decodeLocation(raw: string): string {
  if (!/[\u0080-\u00ff]/.test(raw) || /[^\u0000-\u00ff]/.test(raw)) return raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

function isNavigable(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** Resolves a client-side target; null for non-navigations (empty, fragment-only, javascript:, …). */
function resolveClientTarget(raw: string, base: URL, current: URL): URL | null {
  const text = raw.trim();
  if (text === '' || text.startsWith('#')) return null;
  try {
    const url = new URL(text, base);
    if (!isNavigable(url)) return null;
    const sameDocument = url.href.split('#')[0] === current.href.split('#')[0] && url.hash !== '';
    return sameDocument ? null : url;
  } catch {
    return null;
  }
}

function followRedirect(current: URL, location: string, nav: NavState, facts: PageFacts): NextStep {
  let next: URL;
  try {
    next = new URL(decodeLocation(location).trim(), current);
  } catch {
    return { kind: 'invalid', error: 'invalid Location header', facts };
  }
  if (!isNavigable(next)) return { kind: 'invalid', error: `redirect to an unsupported scheme (${next.protocol})`, facts };
  // A Location without a fragment keeps the current one (Fetch spec).
  if (next.hash === '' && current.hash !== '') next.hash = current.hash;
  const site = nav.initiator === null ? nav.site : worstSite(nav.site, relateSites(nav.initiator, next));
  const referer = nav.referer !== null && current.protocol === 'https:' && next.protocol === 'http:' ? null : nav.referer;
  return { kind: 'follow', url: next, hopKind: 'http', nav: { ...nav, site, referer }, facts };
}

function clientNavigation(current: URL, next: URL): NavState {
  return { site: relateSites(current, next), userActivated: false, referer: refererFor(current, next), initiator: current };
}

/**
 * Decides the next request from a response (status, headers, and the decoded HTML when read). The page is
 * read off the main thread on a budget (page-reader.ts).
 */
export async function decideNext(current: URL, status: number, headers: HeaderMap, html: string | null, nav: NavState): Promise<NextStep> {
  const page = await readPageOffThread(status, headers, html);
  const { scripts } = page;
  const base = documentBase(current, page.baseHref);
  const literal = scripts.literals.map((t) => resolveClientTarget(t, base, current)).find((u) => u !== null) ?? null;
  const facts = pageFactsOf(page, headers, scripts.nonLiteral && literal === null);

  if (REDIRECT_STATUSES.has(status)) {
    const all = headers['location'];
    // Chrome refuses a redirect with differing Location headers (ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION).
    if (Array.isArray(all) && new Set(all).size > 1) return { kind: 'invalid', error: 'conflicting Location headers', facts };
    const location = headerValue(headers, 'location');
    return location === undefined ? { kind: 'landed', facts } : followRedirect(current, location, nav, facts);
  }
  if ((status >= 300 && status < 400) || facts.botWall) return { kind: 'landed', facts };

  const refreshText = headerValue(headers, 'refresh') ?? page.metaRefresh;
  const refresh = refreshText === null ? null : parseRefresh(refreshText);
  const refreshTarget =
    refresh !== null && refresh.url !== null && refresh.delaySeconds <= MAX_REFRESH_DELAY_SECONDS
      ? resolveClientTarget(refresh.url, base, current)
      : null;
  // A script navigates while the page is parsed; a refresh fires only after load (plus its delay).
  // An instant refresh usually wins the race against a script's network request, a delayed one loses.
  const refreshFirst = refreshTarget !== null && (refresh?.delaySeconds ?? 0) === 0;
  if (refreshTarget !== null && (refreshFirst || literal === null)) {
    return { kind: 'follow', url: refreshTarget, hopKind: 'meta-refresh', nav: clientNavigation(current, refreshTarget), facts };
  }
  if (literal !== null) return { kind: 'follow', url: literal, hopKind: 'javascript', nav: clientNavigation(current, literal), facts };
  return { kind: 'landed', facts };
}
