// Catalogue part: what browsers and blockers do to the link (CONTRACT.md section 10). The findings are made in
// privacy/issues.ts, which words each agent's loss into `agents`; these texts name them and say what to do with
// the network, never how to get around the shopper's choice of browser.
import type { IssueSpec } from './text.js';

const code = (names: readonly string[]): string => names.map((name) => `\`${name}\``).join(', ');

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

const networkOf = (name: string | null | undefined): string => name ?? 'the network';
const agentsOf = (agents: readonly string[] | undefined): string =>
  agents && agents.length > 0 ? joinNames(agents) : 'some browsers and extensions';

const SERVER_SIDE_FIX = (network: string): string =>
  `Ask the merchant to record ${network} clicks server-side: capture the click id on the landing request and ` +
  `report sales through ${network}'s server-to-server (S2S) conversion API, so a sale is matched even when the ` +
  `browser never shows the click id to the page's scripts. Have the merchant's server store the click id in a ` +
  `first-party cookie it sets itself (Set-Cookie with HttpOnly and Secure) rather than in a cookie written by ` +
  `script, which Safari keeps for at most 7 days (1 day after a tracked link).`;

export const PRIVACY_ISSUES = {
  click_id_stripped_by_privacy_tools: {
    severity: 'warning',
    title: 'Privacy tools lose the click id',
    describe: (d) => {
      const network = networkOf(d.network);
      const id = d.params && d.params.length > 0 ? `click id ${code(d.params)}` : 'click';
      return (
        `In a default browser ${network}'s ${id} reaches the landing page, but not for shoppers using ` +
        `${agentsOf(d.agents)}. Their sales cannot be matched to this click through the landing URL. This is the ` +
        `user's choice of browser or extension, not a fault in the link.`
      );
    },
    fix: (d) => {
      const network = networkOf(d.network);
      return (
        `${SERVER_SIDE_FIX(network)} Where ${network} offers it, serve its tracking from a first-party tracking ` +
        `domain (a subdomain of the merchant's own site), which the merchant sets up with ${network}.`
      );
    },
  },
  tracker_skipped_by_privacy_tools: {
    severity: 'warning',
    title: 'Privacy tools skip the tracking hop',
    describe: (d) => {
      const network = networkOf(d.network);
      const many = (d.agents?.length ?? 2) > 1;
      return (
        `${agentsOf(d.agents)} ${many ? 'recognise' : 'recognises'} ${network}'s deep link and send the shopper ` +
        `straight to the destination URL it carries: ${network}'s hop never runs, so the click is not recorded and ` +
        `no click id is added.`
      );
    },
    fix: (d) => {
      const network = networkOf(d.network);
      return (
        `Where the merchant's programme allows it, use a direct link to the merchant (its standard tracking link ` +
        `without a destination URL, or a link on the merchant's own domain issued by ${network}) instead of a ` +
        `deep link. ${SERVER_SIDE_FIX(network)}`
      );
    },
  },
} satisfies Record<string, IssueSpec>;
