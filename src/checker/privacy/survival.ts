// Privacy survival (CONTRACT.md section 10): for each agent of the catalogue, does the network's hop still run
// and does its click id still reach the landing page? Pure: computed from the recorded chain and the catalogue.
import { clickIdsIn } from '../analysis/attribution.js';
import type { Issue } from '../types.js';
import { PRIVACY_AGENTS } from './catalogue.js';
import { attributionCandidates, effectiveLifetime, landedFromDecoratedTracker } from './cookie-lifetime.js';
import { clickIdStrippedIssue, trackerSkippedIssue, type LostClickId, type PrivacyIssueFacts } from './issues.js';
import type { PrivacyAgent, PrivacyAssessment, PrivacyCookie, PrivacyEntry, PrivacyInput } from './types.js';
import { walkChain, type AgentWalk } from './walk.js';

interface AgentOutcome {
  agent: PrivacyAgent;
  entry: PrivacyEntry;
  walk: AgentWalk;
  /** Publisher-id parameters removed from the network's own hop. */
  publisherIdsStripped: string[];
  /** Click-id parameters removed anywhere on the way. */
  clickIdsStripped: string[];
}

const distinctSorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();

function assessAgent(
  agent: PrivacyAgent,
  input: PrivacyInput,
  networkHops: readonly number[],
  cookies: readonly PrivacyCookie[],
): AgentOutcome {
  const walk = walkChain(agent, input.hops);
  const requested = new Set(walk.steps.map((step) => step.hop));
  const removals = walk.steps.flatMap((step) => step.removed.map((removal) => ({ ...removal, hop: step.hop })));
  const publisherIdsStripped = distinctSorted(
    removals.filter((r) => r.rule.identifiesPublisher === true && r.hop !== null && networkHops.includes(r.hop)).map((r) => r.name),
  );
  const clickIdsStripped = distinctSorted(removals.filter((r) => input.clickIdParams.includes(r.name)).map((r) => r.name));
  const landing = walk.steps[walk.steps.length - 1];
  const noNetwork = input.networkId === null;
  const trackerVisited = noNetwork || networkHops.length === 0 || networkHops.some((hop) => requested.has(hop));
  let clickIdSurvives: boolean;
  if (noNetwork) clickIdSurvives = true;
  else if (publisherIdsStripped.length > 0) clickIdSurvives = false;
  else if (input.clickIdParams.length === 0) clickIdSurvives = trackerVisited;
  else if (input.landingUrl === null || landing === undefined) clickIdSurvives = false;
  else {
    const carriers =
      input.storefront === true
        ? walk.steps.filter((step) => step.hop !== null && networkHops.includes(step.hop)).concat(landing)
        : [landing];
    clickIdSurvives = carriers.some((step) => clickIdsIn(step.url, input.clickIdParams).length > 0);
  }
  // Without the click id the merchant has nothing to store, so no attribution cookie is written for this agent.
  const candidates = noNetwork || !clickIdSurvives ? [] : cookies;
  const entry: PrivacyEntry = {
    agent: agent.id,
    clickIdSurvives,
    trackerVisited,
    strippedParameters: distinctSorted(removals.map((r) => r.name)),
    cookieLifetimeDays: effectiveLifetime(agent, candidates, landedFromDecoratedTracker(walk, input.hops)),
  };
  return { agent, entry, walk, publisherIdsStripped, clickIdsStripped };
}

function findIssues(outcomes: readonly AgentOutcome[], input: PrivacyInput, networkHops: readonly number[]): Issue[] {
  const baseline = outcomes.find((o) => o.agent.id === 'chrome')?.entry;
  if (input.networkId === null || baseline === undefined) return [];
  const hop = networkHops[0] ?? null;
  const network = hop === null ? null : (input.hops[hop]?.network?.name ?? null);
  const facts: PrivacyIssueFacts = { network, clickIdParams: input.clickIdParams, hop };
  const issues: Issue[] = [];
  // A chain that loses the click id in a default browser already has its own critical issue; only report
  // what the privacy tools add on top of that.
  if (baseline.clickIdSurvives) {
    const losses: LostClickId[] = outcomes
      .filter((o) => !o.entry.clickIdSurvives)
      .map((o) => {
        if (!o.entry.trackerVisited) return { agent: o.agent.name, reason: 'skipped', params: [] };
        if (o.publisherIdsStripped.length > 0) {
          return { agent: o.agent.name, reason: 'publisher_id_stripped', params: o.publisherIdsStripped };
        }
        return { agent: o.agent.name, reason: 'stripped', params: o.clickIdsStripped };
      });
    if (losses.length > 0) issues.push(clickIdStrippedIssue(losses, facts));
  }
  if (baseline.trackerVisited) {
    const skipping = outcomes.filter((o) => !o.entry.trackerVisited).map((o) => o.agent.name);
    if (skipping.length > 0) issues.push(trackerSkippedIssue(skipping, facts));
  }
  return issues;
}

/**
 * One PrivacyEntry per agent, in the contract's order, plus the findings. `input.networkId` is the network the
 * verdict follows, or the aggregator when it is the only tracker (the chain's attribution target).
 */
export function assessPrivacy(input: PrivacyInput): PrivacyAssessment {
  const networkHops = input.hops.flatMap((hop, index) => (input.networkId !== null && hop.network?.id === input.networkId ? [index] : []));
  // The same for every agent: which of the landing site's cookies could hold the attribution.
  const cookies = attributionCandidates(input.cookies, input.cookieNames);
  const outcomes = PRIVACY_AGENTS.map((agent) => assessAgent(agent, input, networkHops, cookies));
  return { privacy: outcomes.map((o) => o.entry), issues: findIssues(outcomes, input, networkHops) };
}
