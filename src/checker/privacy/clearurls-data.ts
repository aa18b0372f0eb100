// ClearURLs, the browser extension, with its default settings. Facts from its LGPL-3.0 rule set, restated in
// our own structure: no rule text is copied. Subset taken: the global rules for ad-platform click ids and utm_,
// the global and Amazon "referral marketing" rules, the providers scoped to affiliate click ids (bestbuy.com),
// and every redirection (hop-skipping) rule of a catalogue network or aggregator.
import { READ_ON, SOURCES } from './sources.js';
import type { PrivacyAgent, SkipRule } from './types.js';

// ClearURLs matches a redirection by regular expression on the whole URL and takes the first `param=` after the
// host (a substring match); we read the query parameter of that name, which is the same for real links.
const redirection = (hosts: string[], param: string, path?: string): SkipRule => ({
  scope: path === undefined ? { hosts } : { hosts, path },
  param,
  prependScheme: 'http',
  decodeRepeatedly: true,
  source: SOURCES.clearUrlsRules,
  read: READ_ON,
});

const REFERRAL_NOTE =
  'A "referral marketing" rule: stripped while the add-on\'s "allow referral marketing" setting is off. The ' +
  'latest release, 1.27.3 (' + SOURCES.clearUrlsDefaults + '), defaults it to off, so these are stripped. The ' +
  'main branch changed the default to on (commit 1baab2488ca5acc949d22f8c9a0d8970ce571e69, 2025-02-24), which ' +
  'the next release will ship: then they are kept. We encode the released default.';

export const CLEARURLS_AGENT: PrivacyAgent = {
  id: 'clearurls',
  name: 'ClearURLs extension',
  strips: [
    {
      params: [
        'utm', 'utm_*', 'gclid', 'dclid', 'fbclid', 'msclkid', 'twclid', 'yclid', '_gl', '_openstat', 'srsltid',
        's_cid', 'mc_eid', 'mkt_tok',
      ],
      caseInsensitive: true,
      source: SOURCES.clearUrlsRules,
      read: READ_ON,
      note:
        'The globalRules provider. Its exceptions (login, banking and developer hosts) are not encoded; none is a ' +
        'network hop or a shop. awc, sscid, cjevent, tduid, admitad_uid, ranSiteID and clickref appear in no rule.',
    },
    {
      params: ['ref', 'ref_', 'referrer'],
      caseInsensitive: true,
      referralMarketing: true,
      source: SOURCES.clearUrlsRules,
      read: READ_ON,
      note: REFERRAL_NOTE,
    },
    {
      params: ['linkCode', 'creativeASIN', 'ascsubtag'],
      scope: { hosts: ['*.amazon.*'] },
      caseInsensitive: true,
      source: SOURCES.clearUrlsRules,
      read: READ_ON,
      note: 'The amazon provider (amazon under any top-level domain, any subdomain).',
    },
    {
      params: ['tag'],
      scope: { hosts: ['*.amazon.*'] },
      caseInsensitive: true,
      referralMarketing: true,
      source: SOURCES.clearUrlsRules,
      read: READ_ON,
      note: 'The Amazon Associates tag. ' + REFERRAL_NOTE,
    },
    {
      params: ['irclickid', 'irgwc'],
      scope: { hosts: ['*.bestbuy.com'] },
      caseInsensitive: true,
      source: SOURCES.clearUrlsRules,
      read: READ_ON,
      note: 'Impact\'s click id, removed on bestbuy.com only.',
    },
  ],
  skips: [
    redirection(['*.awin1.com'], 'ued'),
    redirection(['*.linksynergy.com'], 'murl'),
    redirection(['go.skimresources.com'], 'url'),
    redirection(['redirect.viglink.com'], 'u'),
    redirection(['*.tradedoubler.com'], 'url'),
    redirection(['*.tradedoubler.com'], '_td_deeplink'),
    redirection(['*.admitad.com'], 'ulp'),
    redirection(['*.dpbolvw.net'], 'url'),
    redirection(['*.effiliation.com'], 'url'),
    redirection(['*.flexlinkspro.com'], 'url'),
    redirection(['*.webgains.com'], 'wgtarget'),
    redirection(['*.rover.ebay.*'], 'mpre', '/rover*'),
  ],
  cookies: null,
  source: SOURCES.clearUrlsDefaults,
  read: READ_ON,
  note:
    'ClearURLs acts on every request (each redirect included), same-site or not. A redirection rule cancels the ' +
    'request and sends the browser to the decoded destination, prefixed with http:// when it has no scheme; the ' +
    'destination is then cleaned like any URL. Parameter rules compare whole names without regard to case. Of CJ\'s ' +
    'click domains only dpbolvw.net has a rule; Tradedoubler\'s rule takes the last of url= or _td_deeplink=.',
};
