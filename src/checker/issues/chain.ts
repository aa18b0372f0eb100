// Catalogue part: properties of the hops themselves (who tracks, how they redirect, how fast, how safely).
import { at, hopName, list, type IssueSpec } from './text.js';

const hopList = (hops: number[] | undefined): string =>
  hops !== undefined && hops.length > 1 ? `hops ${hops.join(', ')}` : hopName(hops?.[0]);

export const CHAIN_ISSUES = {
  stacked_networks: {
    severity: 'warning',
    title: 'Several trackers on one click',
    describe: (d) =>
      `The click passes through ${d.networks !== undefined && d.networks.length > 0 ? d.networks.join(' → ') : 'more than one network'}. ` +
      `Each can overwrite the other's cookie or click id, and ${d.network ?? 'the last network'} is the one ` +
      `the merchant will credit, if any; commissions can be split, reversed or lost.`,
    fix: (d) =>
      `Link through one network only: use the merchant's ${d.network ?? 'network'} link directly instead of ` +
      `wrapping it in another tracker or aggregator, or exclude this link from the aggregator's automatic ` +
      `link rewriting (Sovrn: \`rel="norewrite"\` on the link; Skimlinks: its link/domain exclusion options).`,
  },
  permanent_redirect: {
    severity: 'warning',
    title: 'Tracking hop uses a permanent redirect',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)}${d.network ? `, which belongs to ${d.network},` : ''} answers ${d.status ?? '301/308'}. ` +
      `Browsers cache permanent redirects, so a shopper's next click on the link can skip the tracker and go ` +
      `unrecorded.`,
    fix: (d) =>
      `Tracking redirects must be temporary: ask ${d.network ?? 'the tracker'} to answer 302 or 307 instead of ` +
      `${d.status ?? '301/308'} (for a self-hosted tracking domain, change its redirect setting). Shoppers whose ` +
      `browser cached the old redirect keep skipping the tracker until their cache expires.`,
  },
  unresolved_macro: {
    severity: 'warning',
    title: 'Unfilled placeholder in the URL',
    describe: (d) =>
      `${list(d.tokens, 'A placeholder')} travels literally ` +
      `${d.params !== undefined && d.params.length > 0 ? `in ${list(d.params, '')} ` : ''}from ${hopName(d.hop)}` +
      `${at(d.url)}: a tracking template was not filled in, so that value (often a click or sub id) is lost.`,
    fix: () =>
      'Fix the template that builds the link: use the macro syntax this network or ad platform actually ' +
      'supports (names and braces are case-sensitive), or remove the parameter if no value is available. Where ' +
      'a link is copied by hand, replace the placeholder with a real value.',
  },
  insecure_hop: {
    severity: 'warning',
    title: 'Plain-http hop',
    describe: (d) =>
      `${hopList(d.hops)} ${d.hops !== undefined && d.hops.length > 1 ? 'use' : 'uses'} plain http` +
      `${d.variant === 'downgrade' ? ', including a downgrade from https to http' : ''}: the click id travels ` +
      'unencrypted, networks on the way can alter it, and browsers may warn or upgrade the request.',
    fix: () =>
      'Use the https form of every tracking and landing URL (all major networks support it), and make the ' +
      'servers redirect http to https while keeping the query string.',
  },
  slow_redirect_chain: {
    severity: 'warning',
    title: 'Slow redirect chain',
    describe: (d) =>
      d.timeMs !== undefined && d.hop !== undefined && d.hop !== null
        ? `${hopName(d.hop)}${at(d.url)} took ${d.timeMs} ms (the whole chain ${d.totalMs ?? '?'} ms). Every ` +
          'slow hop loses shoppers before the tracking completes, on mobile especially.'
        : `The chain took ${d.totalMs ?? 'over 3000'} ms in total. Every slow hop loses shoppers before the ` +
          'tracking completes, on mobile especially.',
    fix: (d) =>
      `Remove redirects that add nothing (shorteners, cloakers, http→https and www hops) and ask the owner of ` +
      `${hopName(d.hop ?? null)} to look at its response time; re-check to rule out a one-off.`,
  },
  meta_refresh_redirect: {
    severity: 'info',
    title: 'Meta-refresh redirect',
    describe: (d) =>
      `The page at ${hopName(d.hop)}${at(d.url)} moves on with a <meta http-equiv="refresh"> tag rather than ` +
      'an HTTP redirect. Link checkers, previews and some in-app browsers stop there, and the extra page load ' +
      'costs time.',
    fix: (d) => `Prefer a server-side 302 at ${hopName(d.hop)}; if the page is needed (e.g. for a script), keep it fast.`,
  },
  javascript_redirect: {
    severity: 'info',
    title: 'JavaScript redirect',
    describe: (d) =>
      `The page at ${hopName(d.hop)}${at(d.url)} moves on by JavaScript. Shoppers with scripts blocked or slow ` +
      'devices may stay on it, and crawlers and previews do not follow it.',
    fix: (d) => `Prefer a server-side 302 at ${hopName(d.hop)} unless the script must run (e.g. fingerprinting or consent).`,
  },
  no_network_detected: {
    severity: 'info',
    title: 'No known network',
    describe: () =>
      'No affiliate network or aggregator from the catalogue handled the click (a shortener alone attributes ' +
      'nothing), so no sale made through this link would be credited to anyone: the verdict is "no tracking found".',
    fix: () =>
      'If this should be an affiliate link, check that it is the tracking link from your network dashboard, ' +
      'not the plain merchant URL. If the network is missing from the catalogue, tell us which one it is.',
  },
} satisfies Record<string, IssueSpec>;
