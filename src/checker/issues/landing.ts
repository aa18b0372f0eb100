// Catalogue part: how the chain ends and what the landing page turns out to be.
import { at, hopName, type IssueSpec } from './text.js';

const UNREACHABLE_CAUSES = 'no response (DNS failure, refused connection, TLS failure or timeout)';

export const LANDING_ISSUES = {
  landing_error_status: {
    severity: 'critical',
    title: 'Landing page answers with an error',
    describe: (d) =>
      d.meaning
        ? `${d.network ?? 'The network'} refused the link: it answered HTTP ${d.status ?? '4xx'}${at(d.url)}, ${d.meaning}. ` +
          `The shopper never reaches the merchant.`
        : `The chain ends on HTTP ${d.status ?? '4xx/5xx'}${at(d.url)}: the shopper sees an error page instead of ` +
          `the merchant's page.${d.status !== undefined && d.status !== null && d.status >= 500 ? ' A 5xx can be temporary; re-run the check to confirm.' : ''}`,
    fix: (d) =>
      d.meaning
        ? `Check the destination the link carries: link to a page ${d.network ?? 'the network'} accepts (the merchant's own ` +
          `product or category page), or ask ${d.network ?? 'the network'}'s support why it refuses it. Re-check once fixed.`
        : `Point the link (or the network's deep link) at a live page, or add a redirect from the removed URL` +
          `${at(d.url)} to its replacement that keeps the query string. Re-check once fixed.`,
  },
  landing_unreachable: {
    severity: 'critical',
    title: 'Landing page unreachable',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)} could not be loaded: ${d.error ?? UNREACHABLE_CAUSES}. Nobody who ` +
      'clicks the link reaches the merchant.',
    fix: (d) =>
      `Check the host of ${hopName(d.hop)}: its DNS record, that the server accepts HTTPS with a valid ` +
      `certificate, and that it answers within a few seconds. If the domain was retired, update the link ` +
      `(or the network's landing URL) to the current one.`,
  },
  landing_timeout: {
    severity: 'warning',
    title: 'Could not verify: the page did not answer in time',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)} ${d.error ? `failed twice (${d.error})` : 'did not answer in time, twice'}: the ` +
      'server was slow or dropped the connection, so the real landing page is unknown. This is not proof that the ' +
      'link is broken; it may answer for shoppers a minute from now.',
    fix: (d) =>
      `Re-run the check in a few minutes. If ${hopName(d.hop)} keeps timing out, its server is overloaded or ` +
      'blocks this checker: open the link yourself, and ask the site owner (or the network, if it is their hop) ' +
      'to look at response times and rate limits.',
  },
  redirect_loop: {
    severity: 'critical',
    title: 'Redirect loop',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)} sends the browser back to a URL it already visited` +
      `${d.otherUrl ? ` (${d.otherUrl})` : ''}, so the page never loads (browsers show "too many redirects").`,
    fix: (d) =>
      `Inspect the redirect rules behind ${hopName(d.hop)}: a common cause is two rules that undo each other ` +
      `(http↔https, www↔bare domain, trailing slash added and removed, a geo or cookie-consent redirect that ` +
      `expects a cookie the first visit does not have).`,
  },
  too_many_redirects: {
    severity: 'critical',
    title: 'Too many redirects',
    describe: (d) =>
      `The chain was still redirecting at ${hopName(d.hop)}${at(d.url)}, where the hop limit stopped the check. ` +
      `Browsers give up on long chains too, and every hop is a chance to lose the click id.`,
    fix: () =>
      'Link directly to the final tracking URL or landing page instead of nesting shorteners, cloakers and ' +
      'trackers, and collapse consecutive redirects on the merchant side into one.',
  },
  blocked_private_address: {
    severity: 'critical',
    title: 'Redirect to a private address',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)} resolves to a non-public address${d.address ? ` (${d.address})` : ''}. ` +
      `The check does not follow it, and shoppers outside that private network cannot reach it either.`,
    fix: () =>
      'Replace the internal or staging host in the link (or in the redirect that leads to it) with the public ' +
      'production URL, and check the DNS record of that host.',
  },
  broken_redirect: {
    severity: 'critical',
    title: 'Redirect without a destination',
    describe: (d) =>
      `The chain ends on HTTP ${d.status ?? '3xx'}${at(d.url)}, a redirect with no usable Location` +
      `${d.error ? ` (${d.error})` : ''}, so the browser has nowhere to go.`,
    fix: (d) =>
      `Make ${hopName(d.hop)} send a valid absolute https \`Location\` header with its redirect. App links ` +
      `(\`myapp://…\`) belong behind a web page or a universal link, never in a tracking redirect.`,
  },
  homepage_fallback: {
    severity: 'critical',
    title: 'Deep link falls back to the homepage',
    describe: (d) =>
      `The link asks for ${d.otherUrl ?? 'a specific page'} but lands on the site's front page${at(d.url)}. ` +
      `Shoppers lose the product they clicked for, and some programmes do not credit sales from homepage fallbacks.`,
    fix: (d) =>
      `Check that the requested page still exists and that deep links are allowed for this programme ` +
      `(some networks and merchants restrict them). If the page moved, update the deep link; if ` +
      `${hopName(d.hop)} redirects every unknown path to the homepage, redirect to the new product URL instead.`,
  },
  could_not_verify: {
    severity: 'warning',
    title: 'Could not verify: bot protection',
    describe: (d) =>
      `${hopName(d.hop)}${at(d.url)} answered with bot protection${d.status ? ` (HTTP ${d.status})` : ''} ` +
      `instead of the page. Shoppers' browsers usually pass; this says nothing about whether the link works.`,
    fix: () =>
      'Re-run the check in browser mode, or open the link yourself in a private window. Merchants can allow-list ' +
      'link-checking traffic in their bot-protection settings to get a full verdict.',
  },
  script_redirect_unresolved: {
    severity: 'warning',
    title: 'Could not verify: script redirect not followed',
    describe: (d) =>
      `The page at ${hopName(d.hop)}${at(d.url)} navigates elsewhere by JavaScript that the check could not ` +
      `follow, so the real landing page and what it receives are unknown.`,
    fix: () =>
      'Re-run the check in browser mode so the script can run. To make the link robust, use an HTTP redirect ' +
      '(302) instead of a script navigation.',
  },
  soft_404: {
    severity: 'warning',
    title: 'Landing page says "not found"',
    describe: (d) =>
      `The landing page${at(d.url)} answers 200 but its title${d.pageTitle ? ` "${d.pageTitle}"` : ''} says ` +
      `the page was not found: shoppers see an error page, and they rarely buy from one.`,
    fix: () =>
      'Update the link or deep link to the current product or category URL. Merchants: answer removed pages ' +
      'with a 301 to their replacement (keeping the query string), or with a real 404/410 so link checkers see it.',
  },
  out_of_stock: {
    severity: 'warning',
    title: 'Product out of stock',
    describe: (d) =>
      `The landing page${at(d.url)} declares its product unavailable (schema.org availability): the click is ` +
      `tracked, but shoppers are unlikely to buy.`,
    fix: () => 'Link to an available product, a category page or an in-stock alternative until the product is back.',
  },
} satisfies Record<string, IssueSpec>;
