// Findings about the attribution target's click id on its way to the landing page.
import { clickIdsIn, readClickId, receivedByStorefront, type AttributionTarget } from './attribution.js';
import { makeIssue } from '../issues/catalogue.js';
import type { LandingState } from './landing-state.js';
import type { CookieRecord, Hop, Issue, NetworkDefinition } from '../types.js';

export interface ClickIdFacts {
  target: AttributionTarget;
  hops: readonly Hop[];
  landing: LandingState;
  /** Standing first-party cookies matching the target's cookie names. */
  attributionCookies: readonly CookieRecord[];
  /** The catalogue entry per hop, same indices as hops. */
  defs: readonly (NetworkDefinition | null)[];
  /** The target's companion parameters this chain carried after the target's hop (sentCompanions). */
  companions: readonly string[];
}

/**
 * Click ids a hop carries to pass on. A tracker's own link parameter of the same name (Awin's publisher
 * `clickref` vs Partnerize's click id `clickref`) is consumed by that tracker by design, not carried.
 */
function carriedClickIds(hop: Hop, def: NetworkDefinition | null, expected: readonly string[]): string[] {
  return clickIdsIn(hop.url, expected).filter((name) => def === null || !def.linkParams.includes(name));
}

/**
 * stripped / stripped-but-cookie-set / missing / mismatch. A click id that reached a hop and is gone at landing
 * is URL evidence (it stands behind a bot wall too); "never arrived" needs the real page, because only the
 * page can show that no first-party cookie stands in.
 */
export function findClickIdIssues(facts: ClickIdFacts): Issue[] {
  const { target, hops, landing } = facts;
  const expected = target.clickIdParams;
  if (expected.length === 0 || !landing.urlEvidence) return [];
  const network = target.ref.name;
  const finalUrl = landing.last.url;
  const present = clickIdsIn(finalUrl, expected);
  if (present.length > 0) return [...findMismatch(facts, present), ...findLostCompanions(facts)];
  if (receivedByStorefront(target, hops, finalUrl)) return [];

  const cookieStandsIn = facts.attributionCookies.length > 0;
  let lastCarrier = -1;
  for (const [index, hop] of hops.entries()) {
    if (index < landing.lastIndex && carriedClickIds(hop, facts.defs[index] ?? null, expected).length > 0) lastCarrier = index;
  }
  if (lastCarrier >= 0) {
    const carrier = hops[lastCarrier];
    const params = carrier === undefined ? expected : carriedClickIds(carrier, facts.defs[lastCarrier] ?? null, expected);
    const details = {
      hop: lastCarrier,
      params,
      network,
      url: carrier?.url ?? null,
      otherUrl: hops[lastCarrier + 1]?.url ?? null,
    };
    return [makeIssue(cookieStandsIn ? 'tracking_parameter_stripped_cookie_set' : 'tracking_parameter_stripped', details)];
  }
  if (!landing.reached || cookieStandsIn) return [];
  const states = expected.map((name) => readClickId(finalUrl, name).state);
  const variant = states.includes('placeholder') ? 'placeholder' : states.includes('empty') ? 'empty' : null;
  return [makeIssue('tracking_parameter_missing', { hop: null, params: expected, network, url: finalUrl, variant })];
}

/**
 * The target's companion parameters (ClickBank's `hopId`, `tid`) that a hop after the target's carried and the
 * landing URL lacks: the vendor page lost part of the landing id.
 */
export function sentCompanions(
  target: AttributionTarget,
  hops: readonly Hop[],
  defs: readonly (NetworkDefinition | null)[],
  landingIndex: number,
): string[] {
  const names = target.def?.companionClickIdParams ?? [];
  const first = target.hops[0] ?? 0;
  if (names.length === 0) return [];
  const sent = new Set<string>();
  for (let index = first + 1; index <= landingIndex; index += 1) {
    const hop = hops[index];
    if (hop !== undefined) for (const name of carriedClickIds(hop, defs[index] ?? null, names)) sent.add(name);
  }
  return names.filter((name) => sent.has(name));
}

function findLostCompanions(facts: ClickIdFacts): Issue[] {
  const { hops, landing } = facts;
  const lost = facts.companions.filter((name) => readClickId(landing.last.url, name).state !== 'present');
  if (lost.length === 0) return [];
  let lastCarrier = -1;
  for (const [index, hop] of hops.entries()) {
    if (index < landing.lastIndex && carriedClickIds(hop, facts.defs[index] ?? null, lost).length > 0) lastCarrier = index;
  }
  const details = {
    hop: lastCarrier,
    params: lost,
    network: facts.target.ref.name,
    url: hops[lastCarrier]?.url ?? null,
    otherUrl: hops[lastCarrier + 1]?.url ?? null,
  };
  return [
    makeIssue(facts.attributionCookies.length > 0 ? 'tracking_parameter_stripped_cookie_set' : 'tracking_parameter_stripped', details),
  ];
}

/**
 * The click id arrived, but not as the network issued it: several different values at landing, or a value
 * rewritten after the target's first hop (values seen before the network's hop are stale, not rewrites).
 */
function findMismatch(facts: ClickIdFacts, present: string[]): Issue[] {
  const { target, hops, landing } = facts;
  const network = target.ref.name;
  const firstTargetHop = target.hops[0] ?? 0;
  for (const name of present) {
    const atLanding = new Set(readClickId(landing.last.url, name).values);
    if (atLanding.size > 1) {
      return [makeIssue('click_id_mismatch', { hop: landing.lastIndex, params: [name], network, variant: 'duplicate' })];
    }
    let issued: string | null = null;
    let lastWithIssued = -1;
    for (const [index, hop] of hops.entries()) {
      if (index < firstTargetHop) continue;
      const { state, values } = readClickId(hop.url, name);
      if (state !== 'present') continue;
      issued ??= values[0] ?? null;
      if (issued !== null && values.includes(issued)) lastWithIssued = index;
    }
    if (issued !== null && !atLanding.has(issued) && lastWithIssued >= 0) {
      return [makeIssue('click_id_mismatch', { hop: lastWithIssued, params: [name], network, variant: 'changed' })];
    }
  }
  return [];
}
