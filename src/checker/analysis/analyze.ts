// Turns a followed chain into the verdict: pure, no I/O. The rules are documented for users in docs/issues.md.
import {
  attributionCookies,
  clickIdsIn,
  findAttributionTarget,
  findVerdictNetwork,
  listNetworks,
  receivedByStorefront,
  resolveHopTrackers,
  standingCookies,
  summariseCookies,
  type AttributionTarget,
} from './attribution.js';
import { findClickIdIssues, sentCompanions } from './attribution-findings.js';
import {
  findClientSideHops,
  findEndIssues,
  findInsecureHops,
  findNoNetwork,
  findPermanentRedirects,
  findSlowChain,
  findStackedNetworks,
  findUnresolvedMacros,
} from './chain-findings.js';
import { readLandingState } from './landing-state.js';
import { findCookieIssues, findHomepageFallback, findLostParameters, findPageIssues } from './page-findings.js';
import { computeHealthScore, sortIssues } from './score.js';
import { assessPrivacy } from '../privacy/index.js';
import { sawTracker } from './verdict.js';
import type { ChainTrace, CheckMode, CheckResult, CookieRecord, Hop, NetworkDefinition } from '../types.js';

export interface AnalyzeInput {
  /** The URL exactly as submitted (its utm_* and ad click ids are checked against the landing URL). */
  submittedUrl: string;
  /** The followed chain; hop.network may already be filled by the caller (hopNetworks wins when both are given). */
  trace: ChainTrace;
  /** The catalogue entry matched per hop, same indices as trace.hops (missing entries count as null). */
  hopNetworks: (NetworkDefinition | null)[];
  mode: CheckMode;
}

/**
 * Whether the target's attribution survives. With a click id to carry: the id at landing or its first-party
 * cookie, or, for a storefront programme (Amazon `tag`), the id received by the shop's own server on the
 * programme's hop. A tracker whose links carry no click id to the merchant (Skimlinks, cookie-only programmes)
 * records the click on its own server when its hop answers, so there it survives when one of its hops answered 2xx/3xx.
 * No tracker at all: nothing to lose, the verdict rests on the landing page.
 */
function attributionSurvives(
  target: AttributionTarget | null,
  hops: readonly Hop[],
  present: string[],
  cookies: readonly CookieRecord[],
  finalUrl: string,
): boolean {
  if (target === null || present.length > 0 || cookies.length > 0) return true;
  if (receivedByStorefront(target, hops, finalUrl)) return true;
  if (target.clickIdParams.length > 0) return false;
  return target.hops.some((index) => {
    const status = hops[index]?.status ?? null;
    return status !== null && status >= 200 && status < 400;
  });
}

export function analyzeChain(input: AnalyzeInput): CheckResult {
  const { trace, mode } = input;
  const trackers = resolveHopTrackers(trace, input.hopNetworks);
  const refs = trackers.map((tracker) => tracker?.ref ?? null);
  const defs = trackers.map((tracker) => tracker?.def ?? null);
  const hops = trace.hops.map((hop, index) => ({ ...hop, network: refs[index] ?? null }));

  const networks = listNetworks(trackers);
  const verdict = findVerdictNetwork(trackers);
  const target = findAttributionTarget(trackers);
  const landing = readLandingState(trace, refs[hops.length - 1] != null, defs[hops.length - 1] ?? null);
  const standing = standingCookies(trace.cookies);
  const cookieSummary = summariseCookies(standing);
  const targetCookies = attributionCookies(standing, target);
  const finalUrl = landing.last.url;
  const companions = target === null ? [] : sentCompanions(target, hops, defs, landing.lastIndex);
  // The click id proper (one of them must arrive), then the companions this chain sent, which must all arrive.
  const expected = [...(target?.clickIdParams ?? []), ...companions];
  const present = clickIdsIn(finalUrl, expected);
  const clickIdPresent = clickIdsIn(finalUrl, target?.clickIdParams ?? []);

  // Generation order is the display order within a severity: how it ended, attribution, page, then hops.
  const issues = sortIssues([
    ...findEndIssues(trace, landing),
    ...(target === null ? [] : findClickIdIssues({ target, hops, landing, attributionCookies: targetCookies, defs, companions })),
    ...findHomepageFallback(hops, defs, landing),
    ...findLostParameters(input.submittedUrl, hops, defs, landing),
    ...findPageIssues(trace.landing, landing),
    ...findStackedNetworks(networks, verdict?.ref ?? null),
    ...findPermanentRedirects(hops, refs),
    ...findUnresolvedMacros(hops),
    ...findInsecureHops(hops),
    ...findSlowChain(hops),
    ...findCookieIssues({
      landing,
      mode,
      ...cookieSummary,
      trackers: refs,
      hops,
      targetName: target?.ref.name ?? null,
      targetOwnsCheckout: target?.def?.ownsCheckout === true,
    }),
    ...findClientSideHops(hops),
    ...findNoNetwork(networks),
  ]);

  // A link that no network or aggregator handles attributes nothing, however well it lands (CONTRACT.md §7).
  const willTrack =
    landing.reached &&
    sawTracker(networks) &&
    !issues.some((issue) => issue.severity === 'critical') &&
    attributionSurvives(target, hops, clickIdPresent, targetCookies, finalUrl);

  const privacy = assessPrivacy({
    hops,
    networkId: target?.ref.id ?? null,
    clickIdParams: target?.clickIdParams ?? [],
    landingUrl: landing.reached ? finalUrl : null,
    cookies: trace.cookies,
    storefront: (target?.def?.requiredParams ?? []).length > 0,
    ...(target?.def ? { cookieNames: target.def.cookieNames } : {}),
  });

  const allIssues = sortIssues([...issues, ...privacy.issues]);
  return {
    willTrack,
    healthScore: computeHealthScore(allIssues, willTrack),
    network: verdict?.ref.name ?? null,
    networkId: verdict?.ref.id ?? null,
    networks,
    finalUrl,
    finalStatus: landing.status,
    redirectCount: hops.length - 1,
    totalRedirectTimeMs: Math.round(hops.reduce((sum, hop) => sum + hop.timeMs, 0)),
    hops,
    trackingParameterPresent: clickIdPresent.length > 0,
    trackingParameters: { expected: [...expected], present, missing: expected.filter((name) => !present.includes(name)) },
    firstPartyCookieSet: cookieSummary.firstPartyCookieSet,
    thirdPartyCookieSet: cookieSummary.thirdPartyCookieSet,
    cookieExpiryDays: cookieSummary.cookieExpiryDays,
    cookies: trace.cookies,
    issues: allIssues,
    mode,
    consent: null,
    privacy: privacy.privacy,
  };
}
