// Marketplaces and digital-product platforms that run their own affiliate programme: the "network" is the
// merchant itself (Amazon, eBay) or owns the checkout (ClickBank, Digistore24). Data only; see README.md.
import type { NetworkDefinition } from '../types.js';

export const MARKETPLACE_PROGRAMS: readonly NetworkDefinition[] = [
  {
    id: 'amazon',
    name: 'Amazon Associates',
    role: 'network',
    hosts: [
      'amazon.com', 'www.amazon.com', 'amazon.co.uk', 'www.amazon.co.uk', 'amazon.de', 'www.amazon.de',
      'amazon.fr', 'www.amazon.fr', 'amazon.it', 'www.amazon.it', 'amazon.es', 'www.amazon.es', 'amazon.ca',
      'www.amazon.ca', 'amazon.co.jp', 'www.amazon.co.jp', 'amazon.com.au', 'www.amazon.com.au', 'amazon.com.mx',
      'www.amazon.com.mx', 'amazon.com.br', 'www.amazon.com.br', 'amazon.in', 'www.amazon.in', 'amazon.nl',
      'www.amazon.nl', 'amazon.se', 'www.amazon.se', 'amazon.pl', 'www.amazon.pl', 'amazon.sg', 'www.amazon.sg',
      'amazon.ae', 'www.amazon.ae', 'amazon.sa', 'www.amazon.sa', 'amazon.com.tr', 'www.amazon.com.tr',
      'amazon.com.be', 'www.amazon.com.be', 'amazon.eg', 'www.amazon.eg', 'amazon.ie', 'www.amazon.ie',
    ],
    paths: [],
    requiredParams: ['tag'],
    excludedParams: ['maas'],
    linkParams: ['linkCode', 'linkId', 'ref_', 'camp', 'creative', 'creativeASIN', 'ascsubtag', 'language'],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['tag'],
    cookieNames: [],
    defaultWindowDays: 1,
    sources: [
      'https://feralfinance.com/2026/03/05/how-long-amazon-affiliate-links-last/',
      'https://knowledge.levanta.io/amazon-associates-policy-update-faq',
    ],
    notes:
      'The merchant is the programme: an Amazon storefront URL is an Associates link only when it carries tag=<storeid> ' +
      '(a bare amazon.* URL is just the shop). Amazon Attribution URLs (maas=..., tag=maas) are not Associates links ' +
      'and are excluded (see levanta). Attribution is server-side on the tag; no documented cookie. Window 24 hours; an ' +
      'item added to the cart within it counts for 90 days (secondary source). Since 20 Dec 2024 Amazon bars adding an ' +
      'Associates tag to Levanta links. Short links: see amazon_short.',
  },
  {
    id: 'ebay_partner_network',
    name: 'eBay Partner Network',
    role: 'network',
    hosts: [
      'rover.ebay.com', 'ebay.com', 'www.ebay.com', 'ebay.co.uk', 'www.ebay.co.uk', 'ebay.de', 'www.ebay.de',
      'ebay.fr', 'www.ebay.fr', 'ebay.it', 'www.ebay.it', 'ebay.es', 'www.ebay.es', 'ebay.com.au', 'www.ebay.com.au',
      'ebay.ca', 'www.ebay.ca', 'ebay.at', 'www.ebay.at', 'ebay.ch', 'www.ebay.ch', 'ebay.ie', 'www.ebay.ie',
      'ebay.nl', 'www.ebay.nl', 'ebay.pl', 'www.ebay.pl', 'befr.ebay.be', 'benl.ebay.be',
    ],
    paths: [],
    requiredParams: ['campid'],
    linkParams: ['mkevt', 'mkcid', 'mkrid', 'toolid', 'customid', 'mpre'],
    signatureParams: [],
    deepLinkParam: 'mpre',
    deepLinkPathPattern: null,
    clickIdParams: ['campid'],
    cookieNames: [],
    defaultWindowDays: 1,
    sources: [
      'https://www.developer.ebay.com/api-docs/buy/static/ref-epn-link.html',
      'https://partnerhelp.ebay.com/helpcenter/knowledgebase/All-About-Tracking/United%20States%20(EN)',
    ],
    notes:
      'Tracking rides on eBay\'s own URLs: <item>?mkevt=1&mkcid=1&mkrid=<rotation>&campid=<10 digits>&toolid=10001' +
      '&customid=. An eBay URL is an EPN link only with campid. Legacy rover.ebay.com/rover/... links (unverified in ' +
      'the research file) carry campid and the destination in mpre. mkrid is per marketplace (e.g. AU ' +
      '705-53470-19255-0). 24-hour window. Short links: see ebay_short.',
  },
  {
    id: 'clickbank',
    name: 'ClickBank',
    role: 'network',
    hosts: ['hop.clickbank.net', '*.hop.clickbank.net'],
    paths: [],
    linkParams: ['tid', 'affiliate', 'vendor', 'cbpage'],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['hop'],
    companionClickIdParams: ['hopId', 'tid'],
    cookieNames: [],
    ownsCheckout: true,
    defaultWindowDays: 60,
    sources: ['https://support.clickbank.com/hc/en-us/articles/220365867-HopLinks-Overview-'],
    notes:
      'HopLinks: <affiliate>.<vendor>.hop.clickbank.net, hop.clickbank.net/?affiliate=&vendor=, or an encrypted ' +
      '<hash>.hop.clickbank.net; tid is the affiliate tracking id. ClickBank owns the order form, but the vendor page ' +
      'must keep the landing id it receives: hop=<affiliate> (with hopId and tid when ClickBank sends them), which the ' +
      'vendor\'s order links carry to the order form (CONTRACT.md section 7). 60-day window.',
  },
  {
    id: 'digistore24',
    name: 'Digistore24',
    role: 'network',
    hosts: ['digistore24.com', 'www.digistore24.com', 'checkout-ds24.com', 'www.checkout-ds24.com'],
    paths: ['^/(?:redir|content)/'],
    linkParams: ['ds24tr', 'campaignkey'],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['aff'],
    cookieNames: [],
    ownsCheckout: true,
    defaultWindowDays: 180,
    sources: [
      'https://docs.digistore24.com/knowledge-base/promolink-and-content-link-for-affiliates/?lang=en',
      'https://docs.digistore24.com/knowledge-base/track-advertising-campaigns/?lang=en',
    ],
    notes:
      'Promolinks /redir/<product>/<affiliate>/<campaignkey> and content links /content/...; only those paths are ' +
      'tracking hops (the rest of the domain is the shop and checkout). Digistore24 owns the checkout, but the vendor ' +
      'page must keep the aff=<affiliate> it receives for its order buttons (CONTRACT.md section 7). 180 days. ' +
      'Digistore24 warns that shorteners break attribution.',
  },
  {
    id: 'levanta',
    name: 'Levanta',
    role: 'network',
    hosts: ['lvnta.com', 'www.lvnta.com'],
    paths: [],
    linkParams: ['source_id', 'source_sub_id'],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: ['maas'],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://knowledge.levanta.io/amazon-associates-policy-update-faq',
      'https://notion.so/levanta/links-386d5ea5e6aa4451ba8673114427bbda',
    ],
    notes:
      'Creator links lvnta.com/lv_<code> redirect to Amazon with Amazon Attribution parameters; the Associates tag ' +
      'falls back to "maas". The maas parameter carries the attribution at landing (parameter name from Amazon ' +
      'Attribution URL format, not stated in the research file: verify). Amazon bars stacking an Associates tag on ' +
      'Levanta links since 20 Dec 2024.',
  },
];
