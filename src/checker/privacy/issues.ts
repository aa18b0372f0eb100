// The two privacy-survival findings (CONTRACT.md section 10). Each names the agents in human words and gives
// fixes an affiliate or merchant can act on with the network, never a way around the blocker.
import type { Issue } from '../types.js';

export const PRIVACY_ISSUE_CODES = ['click_id_stripped_by_privacy_tools', 'tracker_skipped_by_privacy_tools'] as const;

export interface LostClickId {
  /** Human name of the agent, e.g. "Brave (default Shields)". */
  agent: string;
  /** Why: the parameters it removes, or the hop it skips. */
  reason: 'skipped' | 'stripped' | 'publisher_id_stripped';
  params: string[];
}

export interface PrivacyIssueFacts {
  /** Display name of the network, null when unknown. */
  network: string | null;
  clickIdParams: readonly string[];
  /** Index of the network's (first) hop, null when it has none in the chain. */
  hop: number | null;
}

const code = (names: readonly string[]): string => names.map((name) => `\`${name}\``).join(', ');

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

function explain(loss: LostClickId, network: string): string {
  if (loss.reason === 'skipped') return `${loss.agent} (never requests ${network}'s hop)`;
  if (loss.reason === 'publisher_id_stripped') {
    return `${loss.agent} (removes ${code(loss.params)}, the publisher id, from ${network}'s own link)`;
  }
  return loss.params.length === 0 ? loss.agent : `${loss.agent} (removes ${code(loss.params)})`;
}

const SERVER_SIDE_FIX = (network: string): string =>
  `Ask the merchant to record ${network} clicks server-side: capture the click id on the landing request and ` +
  `report sales through ${network}'s server-to-server (S2S) conversion API, so a sale is matched even when the ` +
  `browser never shows the click id to the page's scripts. Have the merchant's server store the click id in a ` +
  `first-party cookie it sets itself (Set-Cookie with HttpOnly and Secure) rather than in a cookie written by ` +
  `script, which Safari keeps for at most 7 days (1 day after a tracked link).`;

export function clickIdStrippedIssue(losses: readonly LostClickId[], facts: PrivacyIssueFacts): Issue {
  const network = facts.network ?? 'the network';
  const id = facts.clickIdParams.length > 0 ? `click id ${code(facts.clickIdParams)}` : 'click';
  return {
    code: 'click_id_stripped_by_privacy_tools',
    severity: 'warning',
    title: 'Privacy tools lose the click id',
    description:
      `In a default browser ${network}'s ${id} reaches the landing page, but not for shoppers using ` +
      `${joinNames(losses.map((loss) => explain(loss, network)))}. Their sales cannot be matched to this click ` +
      `through the landing URL. This is the user's choice of browser or extension, not a fault in the link.`,
    fix:
      `${SERVER_SIDE_FIX(network)} Where ${network} offers it, serve its tracking from a first-party tracking ` +
      `domain (a subdomain of the merchant's own site), which the merchant sets up with ${network}.`,
    hop: facts.hop,
  };
}

export function trackerSkippedIssue(agents: readonly string[], facts: PrivacyIssueFacts): Issue {
  const network = facts.network ?? 'the network';
  return {
    code: 'tracker_skipped_by_privacy_tools',
    severity: 'warning',
    title: 'Privacy tools skip the tracking hop',
    description:
      `${joinNames(agents)} ${agents.length > 1 ? 'recognise' : 'recognises'} ${network}'s deep link and send the ` +
      `shopper straight to the destination URL it carries: ${network}'s hop never runs, so the click is not ` +
      `recorded and no click id is added.`,
    fix:
      `Where the merchant's programme allows it, use a direct link to the merchant (its standard tracking link ` +
      `without a destination URL, or a link on the merchant's own domain issued by ${network}) instead of a ` +
      `deep link. ${SERVER_SIDE_FIX(network)}`,
    hop: facts.hop,
  };
}
