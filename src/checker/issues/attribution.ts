// Catalogue part: whether the network's click id and cookie survive the chain.
import { at, hopName, list, net, nextHop, type IssueSpec } from './text.js';

export const ATTRIBUTION_ISSUES = {
  tracking_parameter_stripped: {
    severity: 'critical',
    title: 'Click id stripped by a redirect',
    describe: (d) =>
      `${net(d)}'s click id ${list(d.params, '')} is on ${hopName(d.hop)}${at(d.url)} but the redirect it answers ` +
      `with drops it: ${nextHop(d.hop)}${at(d.otherUrl)} and the landing page no longer carry it, and no ` +
      `first-party ${net(d)} cookie was set, so the sale cannot be matched to this click.`,
    fix: (d) =>
      `Make the redirect at ${hopName(d.hop)} keep the query string: redirect to the target plus the incoming ` +
      `query (nginx \`return 301 https://$host$request_uri;\`, Apache \`RewriteRule … [R=301,QSA]\`, "preserve ` +
      `query parameters" in the CMS, CDN or landing-page builder), or allow-list ${list(d.params, 'the click id')} ` +
      `in the canonical/trailing-slash rule. Re-run the check afterwards.`,
  },
  tracking_parameter_missing: {
    severity: 'critical',
    title: 'Click id never reaches the landing page',
    describe: (d) =>
      d.variant === 'empty' || d.variant === 'placeholder'
        ? `${net(d)}'s click id ${list(d.params, '')} reaches the landing URL ` +
          `${d.variant === 'empty' ? 'with an empty value' : 'as an unfilled placeholder'}, and no first-party ` +
          `${net(d)} cookie was set: the sale cannot be matched to this click.`
        : `The link goes through ${net(d)}, but none of its click-id parameters (${list(d.params, 'none')}) ` +
          `reaches the landing URL and no first-party ${net(d)} cookie was set: the sale cannot be matched to this click.`,
    fix: (d) =>
      `In ${net(d)}'s programme settings, check that the click id is appended to the landing URL (Awin: \`awc\`; ` +
      `Impact: \`irclickid={clickid}\` in the tracking template; CJ: \`cjevent\`), that the programme is active ` +
      `and the deep link is allowed. If the merchant stores the click server-side instead, set the first-party ` +
      `attribution cookie on the merchant's redirect so the check can see it.`,
  },
  tracking_parameter_stripped_cookie_set: {
    severity: 'info',
    title: 'Click id dropped after its cookie was set',
    describe: (d) =>
      `${net(d)}'s click id ${list(d.params, '')} is dropped by the redirect at ${hopName(d.hop)}, but a ` +
      `first-party ${net(d)} cookie was already set, so attribution survives. Scripts that read the click id ` +
      `from the landing URL (the network's on-page tag, analytics) will not see it.`,
    fix: (d) =>
      `Nothing is broken. To be safe, let the redirect at ${hopName(d.hop)} keep the query string so the click ` +
      `id ${list(d.params, '')} also reaches the landing page.`,
  },
  click_id_mismatch: {
    severity: 'warning',
    title: 'Click id changed on the way',
    describe: (d) =>
      d.variant === 'duplicate'
        ? `The landing URL carries ${net(d)}'s click id ${list(d.params, '')} more than once with different ` +
          `values; the merchant's tag may read the wrong one.`
        : `${net(d)}'s click id ${list(d.params, '')} has a different value at landing than when it first ` +
          `appeared: the redirect at ${hopName(d.hop)} rewrote it, so the sale may be credited to another click.`,
    fix: (d) =>
      `Find what rewrites ${list(d.params, 'the click id')} (a second tracker, a coupon/cashback redirect, a ` +
      `template that appends its own value) at ${hopName(d.hop)} and make it pass the incoming value through ` +
      `unchanged instead of appending or replacing it.`,
  },
  parameter_lost: {
    severity: 'warning',
    title: 'Campaign parameters lost',
    describe: (d) =>
      `${list(d.params, 'Campaign parameters')} of the submitted link ${d.params !== undefined && d.params.length > 1 ? 'are' : 'is'} ` +
      `gone at landing (dropped by the redirect at ${hopName(d.hop)}): analytics and ad platforms cannot ` +
      `attribute the visit to its campaign. (The network's own link parameters are not counted; networks ` +
      `consume them by design.)`,
    fix: (d) =>
      `If ${hopName(d.hop)} is a network or shortener, put the parameters into the destination (deep-link) URL ` +
      `instead of the tracking URL, or enable its parameter pass-through; if it is the merchant's redirect, ` +
      `make it keep the query string.`,
  },
  first_party_cookie_missing: {
    severity: 'warning',
    title: 'No first-party cookie set',
    describe: (d) =>
      `No cookie was set on the landing site's own domain${d.mode === 'http' ? ' by any HTTP response' : ''}: ` +
      `if the click id is not stored, a purchase on a later visit or page cannot be attributed.` +
      (d.mode === 'http' ? ' Cookies set by JavaScript are not visible in an HTTP check.' : ''),
    fix: (d) =>
      (d.mode === 'http' ? 'Re-run the check in browser mode to see cookies set by scripts. ' : '') +
      `Merchants: install ${d.network ?? "the network's"} tracking tag or server-side integration so the click ` +
      `id is stored in a first-party cookie on landing (server-set cookies last longer under Safari ITP), and ` +
      `make sure the consent banner does not block it where the cookie counts as necessary.`,
  },
  third_party_cookie_missing: {
    severity: 'info',
    title: 'No tracking-domain cookie',
    describe: (d) =>
      `No cookie was set by ${d.network ?? 'the tracking hops'} on its own domain. Most browsers block ` +
      `third-party cookies anyway, so attribution rests on the click id and first-party cookies.`,
    fix: () => 'Usually nothing to do. Make sure the click id reaches the landing page and the merchant stores it first-party.',
  },
} satisfies Record<string, IssueSpec>;
