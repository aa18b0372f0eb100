// Findings a single link check cannot make: they need every checked link of one page side by side. All are
// info: they point at money or search visibility left on the table, never at a broken click.
import { getNetwork } from '../networks/detect.js';
import { registrableDomain } from '../analysis/url-facts.js';
import type { NetworkRole } from '../types.js';

export type PageFindingCode = 'merchant_multiple_networks' | 'sponsored_rel_missing';

export interface PageFinding {
  code: PageFindingCode;
  severity: 'info';
  title: string;
  description: string;
  fix: string;
  /** The page links concerned, in page order. */
  links: string[];
}

/** What a completed check found; a CheckResult fits as is. */
export interface LinkOutcome {
  /** The network whose click id must survive (CONTRACT.md §3), null when none. */
  networkId: string | null;
  /** Every network and aggregator of the chain; without it an aggregator-only chain is not seen as affiliate. */
  networks?: readonly { id: string; role: NetworkRole }[];
  finalUrl: string | null;
}

export interface CheckedPageLink {
  url: string;
  rel: readonly string[];
  /** null while the check has not completed (or failed): such a link takes part in no finding. */
  outcome: LinkOutcome | null;
}

const GOOGLE_GUIDANCE = 'https://developers.google.com/search/docs/crawling-indexing/qualify-outbound-links';

function networkName(id: string): string {
  return getNetwork(id)?.name ?? id;
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}

/**
 * A merchant (registrable domain of the landing page) reached through two or more networks from one page. Only
 * `networkId` counts: an aggregator hands the click to some network we may not see, so it proves no second one.
 */
function findMerchantsOnSeveralNetworks(links: readonly CheckedPageLink[]): PageFinding[] {
  const byMerchant = new Map<string, { networks: string[]; links: string[] }>();
  for (const link of links) {
    const networkId = link.outcome?.networkId ?? null;
    const finalUrl = link.outcome?.finalUrl ?? null;
    const merchant = finalUrl === null ? null : registrableDomain(finalUrl);
    if (networkId === null || merchant === null) continue;
    const group = byMerchant.get(merchant) ?? { networks: [], links: [] };
    if (!group.networks.includes(networkId)) group.networks.push(networkId);
    group.links.push(link.url);
    byMerchant.set(merchant, group);
  }
  return [...byMerchant.entries()]
    .filter(([, group]) => group.networks.length > 1)
    .map(([merchant, group]): PageFinding => {
      const names = listWords(group.networks.map(networkName));
      return {
        code: 'merchant_multiple_networks',
        severity: 'info',
        title: 'One merchant, several networks',
        description:
          `${group.links.length} links on this page lead to ${merchant} through ${names}. A merchant's terms ` +
          `(commission rate, cookie window) usually differ from one network to another, so some of these links ` +
          `probably earn less than they could, and a shopper who clicks two of them is credited to one network only.`,
        fix:
          `Compare ${merchant}'s terms on ${names} and link through the one that pays you best, using the same ` +
          `network for every link to this merchant.`,
        links: group.links,
      };
    });
}

function isAffiliate(outcome: LinkOutcome): boolean {
  return outcome.networkId !== null || (outcome.networks ?? []).some((n) => n.role === 'network' || n.role === 'aggregator');
}

/** Affiliate links without rel="sponsored", which Google asks of every affiliate link (nofollow is still accepted). */
function findSponsoredRelMissing(links: readonly CheckedPageLink[]): PageFinding[] {
  const missing = links.filter((link) => link.outcome !== null && isAffiliate(link.outcome) && !link.rel.includes('sponsored'));
  if (missing.length === 0) return [];
  const bare = missing.filter((link) => !link.rel.includes('nofollow')).length;
  const plural = missing.length === 1 ? 'affiliate link lacks' : 'affiliate links lack';
  const nofollowNote =
    bare === missing.length
      ? 'none of them is marked nofollow either'
      : `${missing.length - bare} of them ${missing.length - bare === 1 ? 'has' : 'have'} nofollow, which Google ` +
        `still accepts, though it prefers sponsored`;
  return [
    {
      code: 'sponsored_rel_missing',
      severity: 'info',
      title: 'Affiliate links not marked sponsored',
      description:
        `${missing.length} ${plural} rel="sponsored" (${nofollowNote}). Google asks sites to qualify affiliate ` +
        `links with rel="sponsored" and may take manual or algorithmic action when they are not (${GOOGLE_GUIDANCE}). ` +
        `Attribution is not affected.`,
      fix:
        'Add rel="sponsored" to these links (most link-cloaking and affiliate plugins have a setting that does it ' +
        'for every affiliate link); keeping nofollow next to it is fine.',
      links: missing.map((link) => link.url),
    },
  ];
}

/** The page-level findings of one scanned page, from its checked links in page order. Pure. */
export function findPageLinkFindings(links: readonly CheckedPageLink[]): PageFinding[] {
  return [...findMerchantsOnSeveralNetworks(links), ...findSponsoredRelMissing(links)];
}
