// Brave with default Shields: the query filter and debouncing, both on by default. Data only; walk.ts applies it.
// Subset taken: from the query filter, Impact's irclickid plus the ad-platform click ids; from debounce.json,
// the rules whose hosts are affiliate networks or aggregators in our catalogue (email, news and AMP redirectors
// are left out). Host and path patterns are Brave's include patterns (Chrome URLPattern: the path glob covers
// path and query, `?` is literal), restated in our own structure.
import { READ_ON, SOURCES } from './sources.js';
import type { PrivacyAgent, SkipRule } from './types.js';

const debounce = (
  hosts: string[],
  path: string,
  param: string,
  extra: Pick<SkipRule, 'note' | 'prependScheme' | 'onlySchemeless'> = {},
): SkipRule => ({ scope: { hosts, path }, param, otherSiteOnly: true, source: SOURCES.braveDebounceList, read: READ_ON, ...extra });

// Impact's click domains: brand subdomains of Impact's own domains, and brands' goto.* vanity hosts.
const IMPACT_HOSTS = [
  '*.sjv.io', '*.pxf.io', '*.7eer.net', '*.evyy.net', '*.dttq.net', '*.c9ftyd.net', '*.iyhh.net', '*.glg9ob.net',
  '*.uikc.net', '*.8ocm68.net', '*.xovt.net', '*.i114863.net', '*.58dp.net', '*.7tiv.net', '*.5ad6.net', '*.q77h.net',
  '*.3uu8.net', '*.uxsi.net', '*.njih.net', '*.pdy5.net', '*.igs4ds.net', '*.mvvx.net', '*.xwrk.net', '*.fziv.net',
  '*.lvuv.net', '*.xibx.net', '*.attfm2.net', '*.tkjf.net', '*.a9yw.net', '*.pfm4.net', '*.i254217.net',
  '*.i182465.net', '*.vthnbx.net', '*.ryvx.net', '*.i312864.net', '*.tmfhgn.net', '*.obak77.net', '*.yvzx.net',
  '*.ioym.net', '*.ntaf.net', '*.zlwlj8.net', '*.uvwgb9.net', '*.3anx.net', '*.rrmo.net', '*.i308314.net',
  '*.uqhv.net', '*.vzew.net', '*.qflm.net', '*.rfvk.net', 'microsoft.msafflnk.net', 'goto.target.com',
  'goto.walmart.com', 'goto.carters.com',
];

export const BRAVE_AGENT: PrivacyAgent = {
  id: 'brave',
  name: 'Brave (default Shields)',
  strips: [
    {
      params: [
        'irclickid', 'gclid', 'dclid', 'wbraid', 'fbclid', 'msclkid', 'twclid', 'ttclid', 'yclid', 'ymclid', '_gl',
        'srsltid', 's_cid', 'mc_eid',
      ],
      crossSiteOnly: true,
      keepsEmpty: true,
      source: SOURCES.braveQueryFilterList,
      read: READ_ON,
      note:
        'The list is applied by ' + SOURCES.braveQueryFilterCode + ' (feature on by default): GET navigations only, ' +
        'not when the redirecting URL (or, for the first request, the page the click came from) is the same site, ' +
        'and only name=value pairs with a value. The first hop is taken to come from a publisher\'s page on ' +
        'another site. gbraid is not in the list.',
    },
  ],
  skips: [
    debounce(['www.awin1.com'], '/cread.php?*', 'ued'),
    debounce(['www.awin1.com'], '/cread.php?*', 'p', { note: 'Awin product links carry the destination in p.' }),
    debounce(['www.awin1.com'], '/awclick.php?*', 'p'),
    debounce(['www.zenaps.com'], '/rclick.php*', 'pr'),
    debounce(
      ['www.shareasale.com', 'shareasale.com', 'www.shareasale-analytics.com', 'shareasale-analytics.com'],
      '/r.cfm?*',
      'urllink',
      {
        prependScheme: 'https',
        onlySchemeless: true,
        note:
          'prepend_scheme https: applies only when urllink has no scheme (www.shop.com/p); with one (https://…) ' +
          SOURCES.braveDebounceCode + ' treats the rule as erroneous and the hop runs.',
      },
    ),
    debounce(['www.dpbolvw.net', 'www.jdoqocy.com', 'www.kqzyfj.com', 'www.anrdoezrs.net'], '/click-*', 'url', {
      note:
        'Only the www. hosts and /click- links. Brave lists www.tkqlhce.com with the path "/click-" and no ' +
        'wildcard, which matches no real link; we encode it as written.',
    }),
    debounce(['www.tkqlhce.com'], '/click-', 'url'),
    debounce(IMPACT_HOSTS, '/c/*', 'u'),
    debounce(['www.ojrq.net'], '/p/*', 'return'),
    debounce(['click.linksynergy.com'], '/deeplink*', 'murl'),
    debounce(['go.skimresources.com', 'go.redirectingat.com'], '/*', 'url'),
    debounce(['redirect.viglink.com'], '/*', 'u'),
    debounce(['www.pntrac.com', 'www.pjtra.com', '*.pjatr.com', 'www.pntrs.com', 'www.gopjn.com'], '/t/*', 'url'),
    debounce(['c.pepperjamnetwork.com'], '/click*', 'url'),
    debounce(['*.tradedoubler.com'], '/click?*', 'url'),
    debounce(['redir.tradedoubler.com'], '/*', '_td_deeplink'),
    debounce(['*.avantlink.com'], '/click.php?*', 'url'),
    debounce(['track.flexlinks.com'], '/a.ashx?*', 'url'),
    debounce(['track.effiliation.com'], '/servlet/effi.redir*', 'url'),
    debounce(['t.cfjump.com'], '/*', 'Url'),
    debounce(['howl.me'], '/link/?*', 'url'),
    debounce(['shop-links.co'], '/link*', 'url'),
  ],
  cookies: null,
  source: SOURCES.braveDebounceCode,
  read: READ_ON,
  note:
    'Debouncing is on by default and acts on every main-frame request and redirect: a matching URL is never ' +
    'requested, the browser goes to the decoded parameter value instead, unless that is on the same site or not an ' +
    'http(s) URL. The first listed rule that applies wins; the destination may be debounced again. No cookie ' +
    'lifetime cap is encoded for Brave: we found no primary source for one.',
};
