// AdGuard's URL Tracking filter (opt-in in AdGuard's apps and extensions; also offered by uBlock Origin, off
// by default). Facts from its GPL-3.0 sources, restated in our own structure: no rule text is copied.
// Subset taken: from general_url.txt, the affiliate networks' click ids and the ad-platform click ids plus the
// standard utm_ names; from specific.txt, the rules scoped to catalogue networks' own hosts, storefront
// programmes (Amazon, eBay) and merchants that carry a catalogue network's click id.
import { READ_ON, SOURCES } from './sources.js';
import type { PrivacyAgent, StripRule } from './types.js';

type Extra = Pick<StripRule, 'note' | 'identifiesPublisher'> & { path?: string };

const specific = (hosts: string[], params: string[], { path, ...rest }: Extra = {}): StripRule => ({
  params,
  scope: path === undefined ? { hosts } : { hosts, path },
  source: SOURCES.adguardSpecific,
  read: READ_ON,
  ...rest,
});

export const ADGUARD_AGENT: PrivacyAgent = {
  id: 'adguard_url_tracking',
  name: 'AdGuard URL Tracking filter',
  strips: [
    {
      params: [
        'awc', 'irclickid', 'irgwc', 'ir_campaignid', 'ir_adid', 'ir_partnerid', 'sscid', 'tduid', 'admitad_uid',
        'cuid', 'maf', 'vc_lpp', 'gclid', 'gbraid', 'wbraid', 'gclsrc', 'fbclid', 'msclkid', 'twclid', 'yclid', '_gl',
        'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'utm_id',
      ],
      source: SOURCES.adguardGeneral,
      read: READ_ON,
      note:
        'Applied to every site. The list names some thirty utm_ parameters one by one (no prefix rule); we encode ' +
        'the six standard ones. cuid is Sovrn\'s custom id, maf moshimo\'s, vc_lpp ValueCommerce\'s. cjevent, ' +
        'ranSiteID, clickref and dclid are not in this section.',
    },
    specific(['*.amazon.*'], ['tag', 'ascsubtag', 'linkCode', 'linkId', 'creativeASIN'], {
      note: 'Any Amazon storefront (amazon under any public suffix, any subdomain): the Associates tag is removed.',
    }),
    specific(['*.awin1.com'], ['awinaffid'], {
      identifiesPublisher: true,
      note:
        'Removed from Awin\'s own click URL. awinaffid is the publisher id; what Awin does with a click that lacks ' +
        'it is not documented, so we count the click as lost to the affiliate (conservative reading).',
    }),
    specific(['*.awin1.com'], ['clickref', 'linkid']),
    specific(['*.zenaps.com'], ['cookie', 'bId']),
    specific(['*.go.skimresources.com', '*.go.redirectingat.com'], ['id'], {
      identifiesPublisher: true,
      note:
        'Removed from Skimlinks\' own click URL; id is the publisher id (the rule cites Skimlinks\' link ' +
        'documentation). Skimlinks then cannot credit the click: counted as lost (conservative reading).',
    }),
    specific(['*.go.skimresources.com', '*.go.redirectingat.com'], ['xcust']),
    specific(['*.go.redirectingat.com'], ['sref']),
    specific(['*.click.linksynergy.com'], ['u1', 'u2'], { path: '/fs-bin/click?id=*' }),
    specific(['*.track.webgains.com'], ['clickref'], { path: '/click.html?*' }),
    specific(['*.ad.admitad.com'], ['subid*'], { note: 'A regular expression on names starting with subid.' }),
    specific(['*.microsoft.msafflnk.net'], ['sharedid', 'subid*']),
    specific(['*.ojrq.net'], ['tpsync', 'cid'], { path: '/p/*' }),
    specific(['*.shareasale-analytics.com'], ['afftrack', 'lplid', 'shrsl_analytics_sscid', 'shrsl_analytics_sstid', 'ref']),
    specific(['www.ebay.*'], ['campid', 'mkevt', 'mkcid', 'mkrid'], {
      note: 'eBay storefronts (www.ebay under any public suffix): the eBay Partner Network campaign id is removed.',
    }),
    specific(['*.ebay.*'], ['customid', 'toolid'], { path: '/itm*' }),
    specific(['*.microsoft.com'], ['ranSiteID', 'ranEAID'], { note: 'A merchant landing with Rakuten\'s click id.' }),
    specific(['*.fanatical.com'], ['CJEVENT'], {
      note: 'A merchant landing with CJ\'s click id, upper case as listed. Whether AdGuard compares names without ' +
        'regard to case is not documented: we match the case as written.',
    }),
    specific(['*.coolblue.nl', '*.wise.com'], ['clickref'], { note: 'Merchant landings with Partnerize\'s click id.' }),
  ],
  skips: [],
  cookies: null,
  source: SOURCES.adguardSyntax,
  read: READ_ON,
  note:
    '$removeparam without a content-type modifier acts on document requests, i.e. every top-level navigation and ' +
    'redirect, same-site or not; basic rules remove the parameter with exactly that name (any value). The filter ' +
    'has no redirect-skipping rules. Rules scoped with $domain= (which AdGuard matches against the referring page, ' +
    'not the URL) are left out.',
};
