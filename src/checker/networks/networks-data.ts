// The large redirect networks: the publisher's link points at the network's own click host, which records
// the click and redirects to the merchant with its click id appended. Data only; see README.md.
import type { NetworkDefinition } from '../types.js';

export const MAJOR_NETWORKS: readonly NetworkDefinition[] = [
  {
    id: 'awin',
    name: 'Awin',
    role: 'network',
    hosts: ['www.awin1.com', 'awin1.com', 'www.zenaps.com', 'zenaps.com'],
    paths: [],
    linkParams: ['awinmid', 'awinaffid', 'mid', 'id', 'linkid', 'clickref', 'clickref2', 'clickref3', 'ued', 'p', 'platform'],
    signatureParams: [],
    deepLinkParam: 'ued',
    deepLinkPathPattern: null,
    clickIdParams: ['awc'],
    cookieNames: ['_aw_m_*', '_aw_j_*', '_aw_sn_*'],
    defaultWindowDays: 30,
    sources: [
      'https://success.awin.com/articles/en_US/Knowledge/What-does-an-affiliate-link-look-like',
      'https://help.awin.com/docs/awin-cookie-types-and-attribution-hierarchy',
      'https://help.awin.com/docs/understanding-cookies-in-affiliate-marketing',
    ],
    notes:
      'Link shapes: cread.php?awinmid=&awinaffid=&ued=, awclick.php?mid=&id=, pclick.php (product feed). Landing gets ' +
      'awc (plus source=aw by default; sn=1 for strictly-necessary partners). MasterTag first-party cookies: _aw_m_<mid> ' +
      '(1 year), _aw_j_<mid> (~3 months), _aw_sn_<mid> (strictly necessary). Awin\'s own cookie on awin1.com is ' +
      'aw<mid>; not listed because a bare "aw*" prefix would match unrelated cookies. zenaps.com is Awin\'s ' +
      'alternative click domain (unverified in the research file). Window is set per programme; 30 days is the usual default.',
  },
  {
    id: 'shareasale',
    name: 'ShareASale',
    role: 'network',
    hosts: ['shareasale.com', 'www.shareasale.com', 'shareasale-analytics.com', 'www.shareasale-analytics.com'],
    paths: ['^/(?:r|u|m-pr)\\.cfm'],
    linkParams: ['u', 'b', 'm', 'U', 'B', 'M', 'afftrack', 'urllink', 'xs'],
    signatureParams: [],
    deepLinkParam: 'urllink',
    deepLinkPathPattern: null,
    clickIdParams: ['sscid'],
    cookieNames: ['shrsl_analytics_sscid', '_aw_m_*'],
    defaultWindowDays: null,
    sources: [
      'https://docs.fmtc.co/kb/shareasale',
      'https://help.shareasale.com/hc/en-us/articles/6473924583959',
      'https://help.shareasale.com/hc/en-us/articles/6451610083863',
    ],
    notes:
      'Now part of Awin. Only the click scripts (r.cfm, u.cfm deals, m-pr.cfm products) are tracking hops; the rest of ' +
      'shareasale.com is the platform UI. Parameter names appear in both cases (u/U, b/B, m/M). urllink is often ' +
      'written without a scheme. sscid is the landing click id (also used with Google Ads parallel tracking, ' +
      'sscid={gclid}&xrdrm=1). First-party cookie names: shrsl_analytics_sscid is unverified; Awin MasterTag ' +
      '_aw_m_<mid> for migrated merchants. Window set per merchant (often 30-90 days). Short links: see shareasale_short.',
  },
  {
    id: 'cj',
    name: 'CJ Affiliate',
    role: 'network',
    hosts: [
      'anrdoezrs.net', '*.anrdoezrs.net', 'dpbolvw.net', '*.dpbolvw.net', 'jdoqocy.com', '*.jdoqocy.com',
      'kqzyfj.com', '*.kqzyfj.com', 'tkqlhce.com', '*.tkqlhce.com', 'qksrv.net', '*.qksrv.net',
      'ftjcfx.com', '*.ftjcfx.com', 'lduhtrp.net', '*.lduhtrp.net', 'awltovhc.com', '*.awltovhc.com',
    ],
    paths: [],
    linkParams: ['url', 'sid', 'cjsku', 'pubdata'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: '^/links/[^/]+/type/dlg/(?:sid/[^/]+/)?(.+)$',
    clickIdParams: ['cjevent'],
    cookieNames: ['cje', 'cjevent_dc', 'cjevent_sc'],
    defaultWindowDays: null,
    sources: [
      'https://docs.cj.com/docs/click-events',
      'https://docs.cj.com/docs/http-cookie',
      'https://docs.cj.com/docs/universal-tag-implementation',
    ],
    notes:
      'Shapes: /click-<PID>-<AID>[?url=<dest>] and /links/<PID>/type/dlg/[sid/<x>/]<dest> (destination in the path, ' +
      'its query string included). Landing gets cjevent. cje is the server-set first-party cookie (395 days); the ' +
      'Universal Tag sets cjevent_dc / cjevent_sc. tqlkg.com (impressions) and emjcd.com (conversions) are never ' +
      'click hops and are not listed. qksrv.net, ftjcfx.com, lduhtrp.net, awltovhc.com are older CJ click domains ' +
      '(unverified in the research file, seen in public link classifiers). Window set per advertiser.',
  },
  {
    id: 'impact',
    name: 'Impact',
    role: 'network',
    hosts: [
      '*.sjv.io', '*.pxf.io', '*.ojrq.net', '*.7eer.net', '*.evyy.net', '*.eqjw.net', '*.audw.net', '*.pvxt.net',
      '*.snlv.net',
    ],
    paths: [],
    linkParams: ['u', 'subId1', 'subId2', 'subId3', 'sharedid', 'partnerpropertyid', 'irgwc'],
    signatureParams: [],
    deepLinkParam: 'u',
    deepLinkPathPattern: null,
    vanityLinks: { pathPattern: '^/c/\\d+/\\d+/\\d+/?$', nextHopParams: ['irclickid', 'irgwc'] },
    clickIdParams: ['irclickid'],
    cookieNames: ['IR_*'],
    defaultWindowDays: 30,
    sources: [
      'https://docs.fmtc.co/kb/',
      'https://integrations.impact.com/impact-brand/docs/api-tracking-integration',
      'https://help.impact.com/en/support/solutions/articles/48001235676',
    ],
    notes:
      'Shape <brand>.<impact-domain>/c/<partnerId>/<adId>/<campaignId>?u=<dest>. Landing gets irclickid (Gateway template ' +
      'irclickid={clickid}). UTT first-party cookies: IR_gbd, IR_<campaignId>, IR_PI. Brand vanity click domains ' +
      '(goto.<brand>.com) cannot be recognised by host and are not matched by path alone: a /c/<n>/<n>/<n> hop is ' +
      'Impact when the URL it sends the shopper to carries irclickid or irgwc. Referral window typically 30 days, ' +
      'set per programme.',
  },
  {
    id: 'rakuten',
    name: 'Rakuten Advertising',
    role: 'network',
    hosts: ['click.linksynergy.com', 'linksynergy.walmart.com'],
    paths: [],
    linkParams: ['id', 'mid', 'murl', 'offerid', 'type', 'subid', 'u1', 'tmpid', 'RD_PARM1'],
    signatureParams: [],
    deepLinkParam: 'murl',
    deepLinkPathPattern: null,
    clickIdParams: ['ranSiteID'],
    cookieNames: ['rmStore'],
    defaultWindowDays: null,
    sources: [
      'https://docs.fmtc.co/kb/rakuten',
      'https://doc.commandersact.com/features/destinations/destinations-catalog/rakuten/rakuten-events',
      'https://docs.metarouter.io/docs/rakuten-sync',
    ],
    notes:
      'LinkShare shapes: /fs-bin/click?id=&offerid=&type=&subid= and /deeplink?id=&mid=&murl=. Landing gets ranSiteID ' +
      '(usually with ranMID, ranEAID and a landing timestamp); the tag stores it in rmStore. Some advertisers restrict ' +
      'deep links and send them to the homepage. linksynergy.walmart.com is a merchant-branded LinkShare host ' +
      '(unverified). Window set per advertiser.',
  },
  {
    id: 'partnerize',
    name: 'Partnerize',
    role: 'network',
    hosts: ['prf.hn', '*.prf.hn'],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: '/destination:(.+)$',
    clickIdParams: ['clickref'],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://docs.fmtc.co/kb/partnerize',
      'https://help.phgsupport.com/hc/en-us/articles/4834811308957',
      'https://help.phgsupport.com/hc/en-us/articles/22128531269533',
    ],
    notes:
      'Shape prf.hn/click/camref:<id>[/pubref:][/adref:][/creativeref:][/destination:<url>]: identifiers are path ' +
      'segments, not query parameters, and segment order matters (destination last). Landing gets clickref ' +
      '(case-sensitive), stored first-party by the Partnerize tag; the cookie name is not documented in the ' +
      'research, so none is listed. Consent choice per partner type (cashback can be strictly necessary).',
  },
  {
    id: 'pepperjam',
    name: 'Pepperjam (Ascend)',
    role: 'network',
    hosts: [
      'pjtra.com', '*.pjtra.com', 'pntra.com', '*.pntra.com', 'pntrac.com', '*.pntrac.com', 'pntrs.com', '*.pntrs.com',
      'pjatr.com', '*.pjatr.com', 'gopjn.com', '*.gopjn.com', 'c.pepperjamnetwork.com',
    ],
    paths: [],
    linkParams: ['url', 'sid'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: ['clickId'],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://ascendpartner.zendesk.com/hc/en-gb/articles/13220229738909',
      'https://missinglinkz.io/blog/utm-builder-pepperjam/',
    ],
    notes:
      'Now Partnerize Ascend. pjtra.com and pntra.com are documented; pntrac.com, pntrs.com, pjatr.com, gopjn.com and ' +
      'c.pepperjamnetwork.com are unverified (seen in public link classifiers). Landing gets clickId={clid} through ' +
      'the advertiser\'s destination template. Cookie names not documented.',
  },
  {
    id: 'tradedoubler',
    name: 'Tradedoubler',
    role: 'network',
    hosts: ['*.tradedoubler.com'],
    paths: ['^/click'],
    linkParams: ['p', 'a', 'g', 'epi', 'epi2', 'url'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: ['tduid'],
    cookieNames: ['TRADEDOUBLER', 'tduid'],
    defaultWindowDays: null,
    sources: [
      'https://dev.tradedoubler.com/tracking/advertiser',
      'http://www.kelkoo.co.uk/co_15259-overview-of-tradedoubler.html',
    ],
    notes:
      'Shape clk.tradedoubler.com/click?p=<program>&a=<site>&g=<ad>[&url=<dest>] (also clkuk., clkde.): any ' +
      'tradedoubler.com subdomain, but only the /click path, so the corporate site is never a hop. Landing gets ' +
      'tduid, kept first-party; the classic redirect-page sample stores it in a TRADEDOUBLER cookie for 365 days. ' +
      'Window set per programme.',
  },
  {
    id: 'webgains',
    name: 'Webgains',
    role: 'network',
    hosts: ['track.webgains.com', 'clicks.webgains.com'],
    paths: [],
    linkParams: ['wgcampaignid', 'wgprogramid', 'wgtarget', 'clickref'],
    signatureParams: [],
    deepLinkParam: 'wgtarget',
    deepLinkPathPattern: null,
    clickIdParams: ['wgu'],
    cookieNames: ['_CK_WG_*'],
    defaultWindowDays: null,
    sources: [
      'https://knowledgehub.webgains.com/home/webgains-dynamic-clickthrough-parameters',
      'https://knowledgehub.webgains.com/home/how-does-webgains-tracking-work',
      'https://docs.dataflysignal.com/integrations/attribution/webgains',
    ],
    notes:
      'Shape track.webgains.com/click.html?wgcampaignid=&wgprogramid=&wgtarget=<dest> (host unverified in the research ' +
      'file; clicks.webgains.com is cited by third parties). Landing gets wgu (click id) plus the default clickthrough ' +
      'parameters source=webgains&siteid=<id>. First-party cookie _CK_WG_ holds the WGU/GCLID.',
  },
  {
    id: 'avantlink',
    name: 'AvantLink',
    role: 'network',
    hosts: ['www.avantlink.com', 'classic.avantlink.com', 'www.avantlink.ca'],
    paths: ['^/click\\.php'],
    linkParams: ['tt', 'tool_type', 'ti', 'mi', 'merchant_id', 'mid', 'pw', 'website_id', 'ctc', 'pri', 'url'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: ['avad'],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://support.avantlink.com/hc/en-us/articles/360061140991-Anatomy-of-an-Affiliate-Tracking-Link',
      'https://support.avantlink.com/hc/en-us/articles/203880255-AvantMetrics-Integration',
    ],
    notes:
      'Not in the research file. Shapes click.php?tt=cl&mi=<merchant>&pw=<website>&url=<dest> and the newer ' +
      'click.php?tool_type=cl&merchant_id=<uuid>&website_id=<uuid>&url=<dest>. AvantLink\'s own support pages say the ' +
      'avad parameter must reach the landing URL (and must not be stripped by redirects). Cookie name not documented.',
  },
  {
    id: 'flexoffers',
    name: 'FlexOffers',
    role: 'network',
    hosts: ['track.flexlinkspro.com', 'track.flexlinks.com'],
    paths: [],
    linkParams: ['foid', 'trid', 'foc', 'fot', 'fos', 'fobs', 'fobs2', 'fobs3', 'fobs4', 'fobs5', 'url', 'URL'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://supportbeta.flexoffers.com/knowledge/do-you-support-global-postback-urls',
      'https://support.flexoffers.com/hc/en-us/articles/360042478232-How-do-Text-Links-Banners-and-Widgets-work',
    ],
    notes:
      'unverified host: track.flexlinkspro.com/{a,g}.ashx?foid=&trid=&foc=&fot=&fos=[&url=<dest>] is seen in public ' +
      'code, not in FlexOffers documentation; track.flexlinks.com is an older host. The destination parameter is ' +
      'written url or URL. fobs..fobs5 are publisher sub-ids. No documented landing click id: attribution through ' +
      'FlexOffers\' own cookie (lifespan per advertiser, 30 days on average per FlexOffers support).',
  },
];
