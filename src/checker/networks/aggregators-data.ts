// Aggregators (sub-networks): they wrap a merchant URL, then hand the click to the merchant's own affiliate
// network link (Skimlinks -> Awin -> merchant), so the click id that must survive is the downstream network's.
// Role "aggregator" keeps them out of networkId. Data only; see README.md.
import type { NetworkDefinition } from '../types.js';

export const AGGREGATORS: readonly NetworkDefinition[] = [
  {
    id: 'skimlinks',
    name: 'Skimlinks',
    role: 'aggregator',
    hosts: ['go.skimresources.com', 'go.redirectingat.com'],
    paths: [],
    linkParams: ['id', 'xs', 'url', 'xcust', 'xguid', 'xuuid', 'sref', 'pref', 'isjs', 'jv', 'xjsf'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://missinglinkz.io/blog/utm-builder-skimlinks/',
      'https://support.skimlinks.com/hc/en-us/articles/360005908078',
    ],
    notes:
      'Shape go.skimresources.com/?id=<pubId>&xs=1&url=<dest>&xcust=<custom id> (query shape unverified in the ' +
      'research file; seen in publisher page code, also on go.redirectingat.com). The JavaScript rewrites outbound ' +
      'links the same way. Stacks on the merchant\'s programme link, whose click id is the one checked.',
  },
  {
    id: 'sovrn',
    name: 'Sovrn Commerce (VigLink)',
    role: 'aggregator',
    hosts: ['redirect.viglink.com', 'api.viglink.com', 'sovrn.co', 'vig.gl'],
    paths: [],
    linkParams: ['key', 'u', 'cuid', 'opt', 'type', 'loc', 'ref', 'out', 'format', 'v'],
    signatureParams: [],
    deepLinkParam: 'u',
    deepLinkPathPattern: null,
    refusals: [{ status: 403, meaning: 'which is how it declines to redirect to a destination (u=) it considers unsafe' }],
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: [
      'https://developer.sovrn.com/reference/building-monetized-urls',
      'https://support.viglink.com/hc/en-us/articles/205077864',
    ],
    notes:
      'Shape redirect.viglink.com?key=<key>&u=<encoded dest>&cuid=<custom id>; the JavaScript routes clicks through ' +
      'api.viglink.com/api. Answers 302 on success and 403 for unsafe URLs (reported as its refusal, not as bot ' +
      'protection); rel="norewrite" opts a link out. ' +
      'sovrn.co short links are unverified.',
  },
  {
    id: 'ltk',
    name: 'LTK (rewardStyle)',
    role: 'aggregator',
    hosts: ['rstyle.me', 'liketk.it'],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['https://www.toptut.com/the-bloggers-guide-to-affiliate-links-rstyle-shopstyle-amazon'],
    notes:
      'Creator links rstyle.me/+<code> and liketk.it/<code>. Classed as an aggregator because rewardStyle routes ' +
      'retailer links through the retailer\'s own affiliate network (Rakuten, Impact, CJ...), whose click id decides ' +
      'attribution. Window set by the retailer (blogs say 30-60 days; secondary source).',
  },
  {
    id: 'howl',
    name: 'Howl (Narrativ)',
    role: 'aggregator',
    hosts: ['shop-links.co', 'howl.me', 'howl.link'],
    paths: [],
    linkParams: ['publisher_slug', 'url'],
    signatureParams: [],
    deepLinkParam: 'url',
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['https://howl.link/'],
    notes:
      'unverified: shop-links.co/link/?publisher_slug=&url=<dest> is seen in page code (one public classifier maps ' +
      'shop-links.co to ShopMy instead); howl.me / howl.link are Howl\'s creator link hosts.',
  },
  {
    id: 'wildfire',
    name: 'Wildfire Systems',
    role: 'aggregator',
    hosts: ['wild.link', 'www.wild.link'],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['https://www.wildfire-corp.com/'],
    notes: 'unverified: wild.link/<merchant>/<code> share links; Wildfire forwards to the merchant\'s own programme link.',
  },
  {
    id: 'shopstyle_collective',
    name: 'ShopStyle Collective',
    role: 'aggregator',
    hosts: ['shopstyle.it', 'www.shopstyle.it'],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['https://www.toptut.com/the-bloggers-guide-to-affiliate-links-rstyle-shopstyle-amazon'],
    notes: 'unverified: shopstyle.it/l/<code> creator links, forwarded through the retailer\'s programme link.',
  },
  {
    id: 'shopmy',
    name: 'ShopMy',
    role: 'aggregator',
    hosts: ['go.shopmy.us'],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['https://shopmy.us/'],
    notes: 'unverified: go.shopmy.us/p-<code> creator links, forwarded through the retailer\'s programme link.',
  },
];
