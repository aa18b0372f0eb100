// Catalogue part: what a consent banner does to the attribution (cmp checks only). Documented for users
// in docs/issues.md ("Consent issues") and docs/consent.md.
import { list, net, type IssueDetails, type IssueSpec } from './text.js';

/** What a consent finding knows beyond the shared details. */
export interface ConsentIssueDetails extends IssueDetails {
  /** Display name of the consent platform ("OneTrust", "IAB TCF"), null when none was recognised. */
  platform?: string | null;
  choice?: 'accept' | 'reject';
  /** Attribution cookie names involved. */
  cookieNames?: string[];
  /** How long the check waited for the banner, in seconds. */
  waitedSeconds?: number;
}

const banner = (d: ConsentIssueDetails): string => (d.platform ? `the ${d.platform} banner` : 'the consent banner');
const choiceWords = (d: ConsentIssueDetails): string => (d.choice === 'reject' ? '"reject all"' : '"accept all"');
const cookies = (d: ConsentIssueDetails): string => list(d.cookieNames, "the network's attribution cookie");

export const CONSENT_ISSUES = {
  attribution_lost_after_accept: {
    severity: 'critical',
    title: 'Accepting cookies loses the attribution',
    describe: (d: ConsentIssueDetails) =>
      `After "accept all" on ${banner(d)}, neither ${net(d)}'s click id in the page URL nor its attribution ` +
      'cookie is left, although the click arrived with them: the consent step itself (typically a reload or ' +
      'redirect without the query string) throws the attribution away, even for shoppers who agree to tracking.',
    fix: (d: ConsentIssueDetails) =>
      `Make the banner keep the URL when it applies consent (reload with \`location.href\`, not the bare path), ` +
      `and let ${net(d)}'s tag store the click id once consent is given; test the landing URL with the click id after clicking accept.`,
  },
  attribution_lost_on_reject: {
    severity: 'warning',
    title: 'Attribution lost when cookies are rejected',
    describe: (d: ConsentIssueDetails) =>
      `After "reject all" on ${banner(d)}, ${cookies(d)} is never written (it is after "accept all"). Shoppers ` +
      `who reject cookies reach the page with the click id, but nothing keeps it until they buy, so ${net(d)} ` +
      'cannot credit those sales. This is how consent is meant to work where the affiliate cookie needs consent; ' +
      'it still costs commission.',
    fix: (d: ConsentIssueDetails) =>
      `Ask the merchant whether ${net(d)}'s tracking can be classified as strictly necessary for the affiliate ` +
      'relationship (several networks offer a consent-exempt mode, e.g. Awin `sn=1`, Partnerize for cashback ' +
      'partners; Dutch law exempts affiliate cookies), or move to server-side / cookieless conversion tracking ' +
      'that passes the click id through the order.',
  },
  attribution_cookie_before_consent: {
    severity: 'warning',
    title: 'Attribution cookie written before consent',
    describe: (d: ConsentIssueDetails) =>
      `${cookies(d)} is written as soon as the page loads, while ${banner(d)} is still waiting for an ` +
      'answer. Attribution works today, but a cookie that needs consent and is set without it is a compliance ' +
      'risk: a merchant who fixes it may start losing these commissions, and networks can void sales tracked that way.',
    fix: (d: ConsentIssueDetails) =>
      `Gate ${net(d)}'s tag on the consent platform (tag manager consent trigger, ${d.platform ?? 'the platform'}'s ` +
      'category for advertising), or document why the cookie is strictly necessary and mark it so in the banner.',
  },
  attribution_cookie_despite_reject: {
    severity: 'warning',
    title: 'Attribution cookie written after "reject all"',
    describe: (d: ConsentIssueDetails) =>
      `${cookies(d)} is written after the shopper clicks "reject all" on ${banner(d)}: the tag ignores the ` +
      'refusal. Attribution survives, but the merchant is exposed to a consent complaint, and the fix will remove it.',
    fix: (d: ConsentIssueDetails) =>
      `Make ${net(d)}'s tag read the consent decision before writing its cookie, or declare the cookie strictly ` +
      'necessary in the consent platform if that is the legal position.',
  },
  attribution_blocked_until_consent: {
    severity: 'info',
    title: 'Attribution cookie waits for consent',
    describe: (d: ConsentIssueDetails) =>
      `${cookies(d)} is written only after "accept all" on ${banner(d)}: shoppers who ignore the banner or ` +
      'reject it are not credited unless the click id is carried some other way.',
    fix: () =>
      'Nothing is broken. To keep attribution for shoppers who do not accept, check whether the network offers a ' +
      'consent-exempt (strictly necessary) mode or server-side conversion tracking.',
  },
  consent_banner_not_found: {
    severity: 'info',
    title: 'No consent banner found',
    describe: (d: ConsentIssueDetails) =>
      `No consent platform (none of DuckDuckGo's autoconsent rules nor our catalogue knew one), no IAB TCF API and no "accept all" / "reject all" control appeared ` +
      `on the landing page within ${d.waitedSeconds ?? 'a few'} s, so the three scenarios are the same visit. ` +
      "Many sites show a banner only to visitors from some countries; this check ran from the server's location.",
    fix: () =>
      'If the site does show a banner to your shoppers, tell us which platform it is; if it should show one ' +
      '(EU/UK visitors), the merchant needs a consent banner before setting tracking cookies.',
  },
  consent_banner_not_shown: {
    severity: 'info',
    title: 'Consent platform present, banner not shown',
    describe: (d: ConsentIssueDetails) =>
      `The page loads ${d.platform ?? 'a consent platform'}, but no banner appeared within ${d.waitedSeconds ?? 'a few'} s ` +
      '(it may be configured for other regions only), so the scenarios could not differ.',
    fix: () => "Re-run the check from the region your shoppers are in, or check the consent platform's geolocation rules.",
  },
  consent_button_not_found: {
    severity: 'warning',
    title: 'Consent choice not offered',
    describe: (d: ConsentIssueDetails) =>
      `${banner(d).charAt(0).toUpperCase()}${banner(d).slice(1)} shows no ${choiceWords(d)} control the check could ` +
      `click${d.choice === 'reject' ? ' (a first layer without "reject all" is itself a finding in several EU countries)' : ''}, so the ` +
      `${d.choice === 'reject' ? 'reject_all' : 'accept_all'} scenario shows the page without that choice.`,
    fix: (d: ConsentIssueDetails) =>
      d.choice === 'reject'
        ? 'Offer "reject all" next to "accept all" on the first layer of the banner (CNIL and EDPB guidance).'
        : 'If the banner uses unusual markup, tell us which platform it is so the catalogue can learn its controls.',
  },
} satisfies Record<string, IssueSpec>;
