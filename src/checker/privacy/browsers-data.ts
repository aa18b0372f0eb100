// Browsers in their default or private configurations. Data only; the rules are applied by walk.ts.
// Subset taken: parameters that are ad-platform click ids or campaign ids. None of these browsers strips an
// affiliate network's click id or skips a network hop, which is the finding that matters to an affiliate.
import { READ_ON, SOURCES } from './sources.js';
import type { CookiePolicy, PrivacyAgent } from './types.js';

// Safari's storage policy applies in every Safari mode: ITP is on by default for all browsing.
const SAFARI_COOKIES: CookiePolicy = {
  scriptCap: {
    days: 7,
    source: SOURCES.webkitItp21,
    read: READ_ON,
    note:
      'ITP 2.1 caps document.cookie cookies to a 7-day expiry. Later WebKit releases are reported to replace the ' +
      'cap by deleting script-written storage after 7 days of browser use without interaction with the site; the ' +
      'effective lifetime for a shopper who does not come back is the same 7 days, which is what we encode.',
  },
  decoratedLandingCap: {
    days: 1,
    source: SOURCES.webkitItp22,
    read: READ_ON,
    note:
      'ITP 2.2: 1 day when a domain classified with cross-site tracking capabilities navigated the user to a URL with ' +
      'a query string or fragment. The classification is made on each device and is not published: we assume the ' +
      'click domains of catalogue networks and aggregators are classified (they are cross-site redirectors by design).',
  },
};

export const BROWSER_AGENTS: readonly PrivacyAgent[] = [
  {
    id: 'chrome',
    name: 'Chrome',
    strips: [],
    skips: [],
    cookies: null,
    source: SOURCES.chromeBounceTracking,
    read: READ_ON,
    note:
      'Chrome neither strips query parameters nor skips redirectors. Its bounce-tracking mitigation deletes the ' +
      'storage of redirect-only sites, and only where third-party cookies are blocked; it never changes a URL.',
  },
  {
    id: 'safari',
    name: 'Safari',
    strips: [],
    skips: [],
    cookies: SAFARI_COOKIES,
    source: SOURCES.webkitPrivateBrowsing,
    read: READ_ON,
    note:
      'Link Tracking Protection runs in Private Browsing (and on links opened from Mail and Messages); in normal ' +
      'browsing only when the user turns Advanced Tracking and Fingerprinting Protection on for all browsing, ' +
      'which is not the default, so default Safari strips nothing. Third-party reports that Safari 26 made ' +
      'Advanced Fingerprinting Protection the default describe script restrictions, not URL stripping (unverified ' +
      'at a primary source).',
  },
  {
    id: 'safari_private',
    name: 'Safari Private Browsing (and links opened from Mail or Messages)',
    strips: [
      {
        params: ['gclid', 'dclid', 'fbclid', 'msclkid', 'yclid', '_openstat', 's_cid', 'wickedid', 'rb_clickid', 'mc_eid'],
        source: SOURCES.privacyTestsParams,
        read: READ_ON,
        note:
          "Apple's list (QUERY_PARAM.wplist, 25 parameters, fetched remotely) is not published. It is reported to come " +
          "from PrivacyTests.org's test set (" + SOURCES.safariLinkTrackingList + '), whose 23 parameters we read; we ' +
          'encode its ad-platform click ids and campaign ids. Apple\'s two extra parameters are unknown. Whether Safari ' +
          'limits stripping to cross-site navigations is not documented: we apply it to every navigation.',
      },
    ],
    skips: [],
    cookies: SAFARI_COOKIES,
    source: SOURCES.safariLinkTrackingList,
    read: READ_ON,
    note:
      'In a Private Browsing tab all storage ends with the tab; links opened from Mail or Messages load in normal ' +
      'browsing, so the cookie caps shown are those of normal Safari.',
  },
  {
    id: 'firefox',
    name: 'Firefox',
    strips: [],
    skips: [],
    cookies: null,
    source: SOURCES.firefoxQueryStripping,
    read: READ_ON,
    note: 'Query stripping is not on in the default Enhanced Tracking Protection (Standard).',
  },
  {
    id: 'firefox_strict',
    name: 'Firefox (Strict tracking protection)',
    strips: [
      {
        params: ['mc_eid', 'oly_anon_id', 'oly_enc_id', '__s', 'vero_id', '_hsenc', 'mkt_tok', 'fbclid'],
        crossSiteOnly: true,
        source: SOURCES.firefoxQueryStripping,
        read: READ_ON,
        note:
          'The documented initial list, on top-level navigations (links, redirects, script navigations) that are ' +
          'not same-site. The live list is served from Remote Settings, which we could not read; third-party mirrors ' +
          'say it adds gclid, dclid, msclkid, twclid and similar ad click ids, never an affiliate network\'s click id.',
      },
    ],
    skips: [],
    cookies: null,
    source: SOURCES.firefoxQueryStripping,
    read: READ_ON,
    note:
      'The documentation we read ships query stripping in ETP Strict and says Private Browsing was being ' +
      'considered; third-party reports say Private Browsing windows strip too since Firefox 102 (unverified at a ' +
      'primary source). The agent stands for Strict, and for Private Browsing if those reports hold.',
  },
];
