// The two privacy-survival findings (CONTRACT.md section 10). Each names the agents in human words and gives
// fixes an affiliate or merchant can act on with the network, never a way around the blocker.
import { makeIssue } from '../issues/catalogue.js';
import { PRIVACY_ISSUES } from '../issues/privacy.js';
import type { Issue } from '../types.js';

export const PRIVACY_ISSUE_CODES = Object.keys(PRIVACY_ISSUES) as (keyof typeof PRIVACY_ISSUES)[];

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

function explain(loss: LostClickId, network: string): string {
  if (loss.reason === 'skipped') return `${loss.agent} (never requests ${network}'s hop)`;
  if (loss.reason === 'publisher_id_stripped') {
    return `${loss.agent} (removes ${code(loss.params)}, the publisher id, from ${network}'s own link)`;
  }
  return loss.params.length === 0 ? loss.agent : `${loss.agent} (removes ${code(loss.params)})`;
}

export function clickIdStrippedIssue(losses: readonly LostClickId[], facts: PrivacyIssueFacts): Issue {
  const network = facts.network ?? 'the network';
  return makeIssue('click_id_stripped_by_privacy_tools', {
    network: facts.network,
    params: [...facts.clickIdParams],
    agents: losses.map((loss) => explain(loss, network)),
    hop: facts.hop,
  });
}

export function trackerSkippedIssue(agents: readonly string[], facts: PrivacyIssueFacts): Issue {
  return makeIssue('tracker_skipped_by_privacy_tools', { network: facts.network, agents: [...agents], hop: facts.hop });
}
