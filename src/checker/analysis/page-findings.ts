// Findings about the landing page and what reached it: deep-link fallback, lost campaign parameters,
// soft 404, stock, cookies.
import { makeIssue } from '../issues/catalogue.js';
import type { LandingState } from './landing-state.js';
import { extractDeepLink } from '../networks/detect.js';
import { isRootPath, parseUrl, readParams, registrableDomain } from './url-facts.js';
import type { CheckMode, Hop, Issue, NetworkDefinition, NetworkRef, PageFacts } from '../types.js';

/** Ad-platform click ids that must survive to the landing page (CONTRACT.md §3, `parameter_lost`). */
export const AD_CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'dclid', 'fbclid', 'msclkid', 'ttclid', 'twclid', 'li_fat_id'];

/**
 * The last deep link a tracker hop carries that points at the landing site (the innermost destination when an
 * aggregator wraps a network link), and whether the chain ended on that site's front page instead.
 */
export function findHomepageFallback(hops: readonly Hop[], defs: readonly (NetworkDefinition | null)[], landing: LandingState): Issue[] {
  if (!landing.urlEvidence) return [];
  const final = parseUrl(landing.last.url);
  const site = registrableDomain(landing.last.url);
  if (final === null || site === null || !isRootPath(final.pathname)) return [];
  let requested: URL | null = null;
  for (const [index, hop] of hops.entries()) {
    const def = defs[index] ?? null;
    const deepLink = def === null ? null : parseUrl(extractDeepLink(hop.url, def) ?? '');
    if (deepLink !== null && registrableDomain(deepLink.href) === site) requested = deepLink;
  }
  if (requested === null || isRootPath(requested.pathname)) return [];
  // The hop that sent the chain to the front page: the one before the final run of front-page hops on this site.
  let firstRootHop = landing.lastIndex;
  while (firstRootHop > 0) {
    const previous = parseUrl(hops[firstRootHop - 1]?.url ?? '');
    if (previous === null || registrableDomain(previous.href) !== site || !isRootPath(previous.pathname)) break;
    firstRootHop -= 1;
  }
  const hop = firstRootHop > 0 ? firstRootHop - 1 : null;
  return [makeIssue('homepage_fallback', { hop, url: landing.last.url, otherUrl: requested.href })];
}

function isCampaignParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || AD_CLICK_IDS.includes(lower);
}

/**
 * utm_* and ad click ids of the submitted URL's own query that are gone at landing. Names a tracker in the chain
 * declares as its own (link, signature or click-id parameters) are excluded: networks consume those by design.
 */
export function findLostParameters(
  submittedUrl: string,
  hops: readonly Hop[],
  defs: readonly (NetworkDefinition | null)[],
  landing: LandingState,
): Issue[] {
  if (!landing.urlEvidence) return [];
  const submitted = parseUrl(submittedUrl) ?? parseUrl(hops[0]?.url ?? '');
  if (submitted === null) return [];
  const owned = new Set(
    defs
      .flatMap((def) => (def === null ? [] : [...def.linkParams, ...def.signatureParams, ...def.clickIdParams]))
      .map((n) => n.toLowerCase()),
  );
  const atLanding = readParams(landing.last.url);
  const lost = [...new Set(submitted.searchParams.keys())].filter(
    (name) => isCampaignParam(name) && !owned.has(name.toLowerCase()) && !atLanding.has(name),
  );
  if (lost.length === 0) return [];
  // Each parameter was dropped by the response of the last hop that still carried it.
  const droppedAt = lost.map((name) => {
    let last = 0;
    for (const [index, hop] of hops.entries()) if (readParams(hop.url).has(name)) last = index;
    return last;
  });
  return [makeIssue('parameter_lost', { hop: Math.min(...droppedAt), params: lost })];
}

// A 200 page whose title says the page does not exist. "404" alone is not enough (a product can be called
// "Peugeot 404"): it must open the title or stand next to an error word.
const NOT_FOUND_PHRASES =
  /\bnot\s+found\b|seite\s+nicht\s+gefunden|page\s+introuvable|p[aá]gina\s+no\s+encontrada|pagina\s+non\s+trovata|pagina\s+niet\s+gevonden|sidan\s+hittades\s+inte|strony\s+nie\s+znaleziono/i;
const TITLE_404 =
  /^\W*(?:error\s*)?404\b|\b(?:error|fehler|erreur|errore|http)\s*404\b|\b404\b.*\b(?:error|fehler|erreur|page|seite|p[aá]gina|introuvable)\b/i;

export function isSoft404Title(title: string | null): boolean {
  return title !== null && (NOT_FOUND_PHRASES.test(title) || TITLE_404.test(title));
}

export function findPageIssues(page: PageFacts | null, landing: LandingState): Issue[] {
  if (!landing.reached || page === null) return [];
  const url = landing.last.url;
  if (isSoft404Title(page.title)) return [makeIssue('soft_404', { hop: landing.lastIndex, url, pageTitle: page.title })];
  if (page.availability === 'out_of_stock') return [makeIssue('out_of_stock', { hop: landing.lastIndex, url })];
  return [];
}

export interface CookieFacts {
  landing: LandingState;
  mode: CheckMode;
  firstPartyCookieSet: boolean;
  thirdPartyCookieSet: boolean;
  /** The trackers matched per hop, same indices as the hops. */
  trackers: readonly (NetworkRef | null)[];
  hops: readonly Hop[];
  targetName: string | null;
  /** The verdict's network runs the checkout itself (NetworkDefinition.ownsCheckout). */
  targetOwnsCheckout: boolean;
}

export function findCookieIssues(facts: CookieFacts): Issue[] {
  const { landing } = facts;
  const issues: Issue[] = [];
  // A network that owns the checkout keeps the click in its own cookie: the landing site has nothing to store.
  if (landing.reached && !facts.firstPartyCookieSet && !facts.targetOwnsCheckout) {
    issues.push(makeIssue('first_party_cookie_missing', { mode: facts.mode, network: facts.targetName }));
  }
  // Only trackers on another site than the landing page could set a tracking-domain cookie, and only if the
  // chain got past them (it ended on a response, not on bot protection at the tracker itself).
  const site = registrableDomain(landing.last.url);
  const offsiteTrackers = facts.trackers.flatMap((tracker, index) =>
    tracker !== null && tracker.role !== 'shortener' && registrableDomain(facts.hops[index]?.url ?? '') !== site ? [tracker] : [],
  );
  const lastIsTracker = (facts.trackers[landing.lastIndex] ?? null) !== null;
  const passedTrackers = landing.landed && (landing.reached || landing.errorStatus || !lastIsTracker);
  if (passedTrackers && offsiteTrackers.length > 0 && !facts.thirdPartyCookieSet) {
    issues.push(makeIssue('third_party_cookie_missing', { network: offsiteTrackers[offsiteTrackers.length - 1]?.name ?? null }));
  }
  return issues;
}
