// Affiliate software that runs on the merchant's own domain (a parameter on the merchant URL, read by the
// merchant's script) or on a per-customer tracking domain. Such programmes are recognised by signature
// parameters, which must be distinctive: a generic name (ref, via, aff_id, tid) on an arbitrary site is not
// a network. Data only; see README.md.
import type { NetworkDefinition } from '../types.js';

export const ONSITE_PROGRAMS: readonly NetworkDefinition[] = [
  {
    id: 'partnerstack',
    name: 'PartnerStack',
    role: 'network',
    hosts: ['*.partnerlinks.io'],
    paths: [],
    linkParams: [],
    signatureParams: ['ps_xid', 'ps_partner_key', 'gspk', 'gsxid'],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['ps_xid', 'gsxid'],
    cookieNames: ['ps_xid', 'ps_partner_key', 'growSumoPartnerKey'],
    defaultWindowDays: 90,
    sources: ['https://docs.partnerstack.com/docs/getting-integrated-with-s2s'],
    notes:
      'Partner links <brand>.partnerlinks.io/<key> (host unverified in the research file, seen widely in page code) ' +
      'redirect to the merchant with ps_xid (click id) and ps_partner_key (base64); legacy GrowSumo names gsxid / ' +
      'gspk. Those names are distinctive, so they identify PartnerStack on any host. First-party cookie names are ' +
      'unverified (the script js.partnerstack.com mirrors the parameters). 90-day last click.',
  },
  {
    id: 'everflow',
    name: 'Everflow',
    role: 'network',
    hosts: [],
    paths: [],
    linkParams: ['oid', 'affid', 'sub1', 'sub2', 'sub3', 'sub4', 'sub5', 'source_id', 'uid'],
    signatureParams: ['_ef_transaction_id'],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['_ef_transaction_id'],
    cookieNames: ['ef_tid_*'],
    defaultWindowDays: null,
    sources: [
      'https://developers.everflow.io/sdk/click-tracking',
      'https://developers.everflow.io/docs/everflow-sdk/conversion_tracking',
    ],
    notes:
      'Each Everflow network has its own tracking domain, so hosts cannot be listed. Redirect links append the ' +
      'transaction id as _ef_transaction_id; direct links carry ?_ef_transaction_id=&oid=&affid= (empty value) on the ' +
      'merchant URL and the EF SDK creates the click. The parameter name is widely used in page code but marked ' +
      'unverified in the research file. The SDK keeps the id in a first-party cookie (ef_tid_* naming unverified), ' +
      'else a third-party cookie on the tracking domain.',
  },
  {
    id: 'tune',
    name: 'TUNE (HasOffers)',
    role: 'network',
    hosts: ['*.go2cloud.org'],
    paths: [],
    linkParams: ['offer_id', 'aff_id', 'aff_sub', 'aff_sub2', 'aff_sub3', 'aff_sub4', 'aff_sub5', 'source', 'url_id', 'file_id', 'url'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: ['transaction_id'],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://support.tune.com/hc/en-us/articles/1500005236422',
      'https://support.tune.com/hc/en-us/articles/1500008418821',
    ],
    notes:
      'Shape <network>.go2cloud.org/aff_c?offer_id=&aff_id=. The offer URL receives {transaction_id}; the parameter ' +
      'name is chosen by the advertiser (transaction_id by default; tid and aff_sub are common), so a different name ' +
      'shows as missing here. Postbacks without the id are rejected quietly (HTTP 200). Networks on their own ' +
      'CNAME domains are not recognised.',
  },
  {
    id: 'refersion',
    name: 'Refersion',
    role: 'network',
    hosts: [],
    paths: [],
    linkParams: [],
    signatureParams: ['rfsn'],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['rfsn'],
    cookieNames: ['rfsn_*'],
    defaultWindowDays: 30,
    sources: [
      'https://support.refersion.com/en/articles/1064022-what-are-cookie-days',
      'https://help.rewardful.com/en/articles/12856689',
    ],
    notes:
      'Links are merchant URLs with ?rfsn=<token>; rfsn is distinctive, so it identifies Refersion on any host. The ' +
      'Refersion script keeps the click in rfsn_* first-party cookies (exact names unverified). "Cookie days" per ' +
      'offer, default 30.',
  },
  {
    id: 'rewardful',
    name: 'Rewardful',
    role: 'network',
    hosts: [],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['via'],
    cookieNames: ['rewardful.referral'],
    defaultWindowDays: 60,
    sources: [
      'https://help.rewardful.com/en/articles/2155812',
      'https://www.rewardful.com/first-or-last-touch-attribution',
    ],
    notes:
      'Links are merchant URLs with ?via=<token>, read by r.wdfl.co/rw.js (data-rewardful-params adds other names). ' +
      'NOT detected from URLs on purpose: "via" is a common share/source parameter (and a FirstPromoter alias), so ' +
      'treating it as a signature would mislabel ordinary links and hijack the verdict of stacked chains. The entry ' +
      'still gives the click id and cookie (rewardful.referral) for the analysis. Default 60 days, first touch by default.',
  },
  {
    id: 'firstpromoter',
    name: 'FirstPromoter',
    role: 'network',
    hosts: [],
    paths: [],
    linkParams: [],
    signatureParams: ['fpr', 'fp_ref'],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['fpr', 'fp_ref'],
    cookieNames: ['_fprom_ref', '_fprom_tid'],
    defaultWindowDays: null,
    sources: ['https://docs.firstpromoter.com/guides/tracking-without-fprjs'],
    notes:
      'Links are merchant URLs with ?fpr=<ref_id>. fpr and fp_ref are distinctive and identify FirstPromoter on any ' +
      'host; the other accepted aliases (via, ref, deal, _from, _by, _go) are generic and are not used for detection. ' +
      'Cookies _fprom_ref and _fprom_tid (plus _fprom_details). Window set per campaign.',
  },
  {
    id: 'tapfiliate',
    name: 'Tapfiliate',
    role: 'network',
    hosts: [],
    paths: [],
    linkParams: ['tap_s'],
    signatureParams: ['tap_a'],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['tap_a'],
    cookieNames: ['tap_vid'],
    defaultWindowDays: 45,
    sources: ['https://support.tapfiliate.com/en/articles/1444510-how-does-tracking-work'],
    notes:
      'Links are merchant URLs with ?tap_a=<asset>&tap_s=<source>, or ?ref=<code>, or a # hash form. Only tap_a is ' +
      'distinctive: ?ref= alone is used by countless sites and is NOT treated as Tapfiliate. Cookie tap_vid; default ' +
      '45 days, maximum 365.',
  },
  {
    id: 'post_affiliate_pro',
    name: 'Post Affiliate Pro',
    role: 'network',
    hosts: ['*.postaffiliatepro.com'],
    paths: [],
    linkParams: ['a_bid', 'chan', 'data1', 'data2', 'desturl'],
    signatureParams: ['a_aid'],
    deepLinkParam: 'desturl',
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: ['PAPVisitorId', 'PAPCookie_*'],
    defaultWindowDays: null,
    sources: ['https://support.qualityunit.com/991920-Redirect-links'],
    notes:
      'Redirect links <pap install>/scripts/click.php?a_aid=<affiliate>&a_bid=<banner>[&desturl=]; the install usually ' +
      'sits on the merchant\'s domain (hosted accounts on <name>.postaffiliatepro.com), so a_aid (distinctive) ' +
      'identifies it on any host, as it does on direct links merchant.com/?a_aid=. The click is kept in PAP cookies ' +
      '(PAPVisitorId, PAPCookie_*: names unverified); visitorId on the landing URL is optional and mode=SC means no ' +
      'cookie, so no landing parameter is required.',
  },
];
