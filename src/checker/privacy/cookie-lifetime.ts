// How long the landing page's first-party attribution cookie lives for one agent. Only Safari's ITP caps
// first-party cookies in our catalogue, and only cookies written by script: a Set-Cookie header is not capped.
import { standingCookies } from '../analysis/attribution.js';
import { matchesCookieName } from '../analysis/cookies.js';
import { parseUrl } from '../analysis/url-facts.js';
import { sameSite } from './match.js';
import type { PrivacyAgent, PrivacyCookie, PrivacyHop } from './types.js';
import type { AgentWalk } from './walk.js';

/**
 * Persistent first-party cookies still standing at the end of the chain (a later Set-Cookie replaces or deletes
 * an earlier one) that carry the attribution: the network's cookie names when it has any.
 */
export function attributionCandidates(cookies: readonly PrivacyCookie[], cookieNames?: readonly string[]): PrivacyCookie[] {
  const named = cookieNames !== undefined && cookieNames.length > 0;
  const standing = new Set(standingCookies(cookies));
  return cookies.filter(
    (c) =>
      standing.has(c) && c.firstParty && c.expiryDays !== null && c.expiryDays > 0 && (!named || matchesCookieName(c.name, cookieNames)),
  );
}

/**
 * ITP 2.2's condition: a classified cross-site tracker navigated the shopper to a landing URL that has a query
 * or a fragment. We take the agent's requests before the landing that were hops of a network or aggregator on
 * another site as that navigation (the classification itself is not observable: see browsers-data.ts).
 */
export function landedFromDecoratedTracker(walk: AgentWalk, hops: readonly PrivacyHop[]): boolean {
  const landing = walk.steps[walk.steps.length - 1];
  const url = landing === undefined ? null : parseUrl(landing.url);
  if (landing === undefined || url === null || (url.search === '' && url.hash === '')) return false;
  return walk.steps.slice(0, -1).some((step) => {
    const role = step.hop === null ? null : hops[step.hop]?.network?.role;
    return (role === 'network' || role === 'aggregator') && !sameSite(step.url, landing.url);
  });
}

const oneDecimal = (days: number): number => Math.round(days * 10) / 10;

/**
 * The longest effective lifetime among the candidates, in days with one decimal; null when there is none.
 * A cookie whose writer is unknown (`setBy` null or absent) is treated as script-written: the cap applies
 * unless we know a server set it.
 */
export function effectiveLifetime(agent: PrivacyAgent, candidates: readonly PrivacyCookie[], decoratedLanding: boolean): number | null {
  if (candidates.length === 0) return null;
  const policy = agent.cookies;
  const lifetimes = candidates.map((cookie) => {
    const days = cookie.expiryDays ?? 0;
    if (policy === null || cookie.setBy === 'header') return days;
    const caps = [policy.scriptCap?.days, decoratedLanding ? policy.decoratedLandingCap?.days : undefined];
    return Math.min(days, ...caps.filter((cap): cap is number => cap !== undefined));
  });
  return oneDecimal(Math.max(...lifetimes));
}
