// Every source the privacy catalogue cites, in one place so that the data files spell them identically and
// test/checker/privacy/catalogue.test.ts can check that docs/privacy.md names each one. Repository sources are
// `owner/repo path@commit`: the commit of the snapshot we read, so a refresh can diff against it.

/** The day the sources below were read. */
export const READ_ON = '2026-11-24';

export const SOURCES = {
  chromeBounceTracking: 'https://github.com/privacycg/nav-tracking-mitigations/issues/65',
  webkitPrivateBrowsing: 'https://webkit.org/blog/15697/private-browsing-2-0/',
  webkitItp21: 'https://webkit.org/blog/8613/intelligent-tracking-prevention-2-1/',
  webkitItp22: 'https://webkit.org/blog/8828/intelligent-tracking-prevention-2-2/',
  safariLinkTrackingList: 'http://lapcatsoftware.com/articles/2023/6/2.html',
  privacyTestsParams: 'privacytests/privacytests.org live/results.js@67f510b810132dda221be24c11896dfb380a5bda',
  firefoxQueryStripping: 'https://firefox-source-docs.mozilla.org/toolkit/components/antitracking/anti-tracking/query-stripping/index.html',
  braveQueryFilterCode: 'brave/brave-core components/query_filter/browser/utils.cc@04213f281cc6b8f35495331e1235355cfb04be56',
  braveQueryFilterList: 'brave/adblock-lists brave-lists/query-filter.json@53ba6df288c3ebad3139c331d2f30ffa07de8ce7',
  braveDebounceList: 'brave/adblock-lists brave-lists/debounce.json@53ba6df288c3ebad3139c331d2f30ffa07de8ce7',
  braveDebounceCode: 'brave/brave-core components/debounce/core/browser/debounce_rule.cc@a47e78cb28a939f74b2ea02e0cea834e12be4a69',
  adguardGeneral: 'AdguardTeam/AdguardFilters TrackParamFilter/sections/general_url.txt@002b06615b38c64b27fadafad6cf5323e752090f',
  adguardSpecific: 'AdguardTeam/AdguardFilters TrackParamFilter/sections/specific.txt@00096a40fb0586f1de6b450e3fc160ee2a94f8ce',
  adguardSyntax: 'https://adguard.com/kb/general/ad-filtering/create-own-filters/#removeparam-modifier',
  clearUrlsRules: 'ClearURLs/Rules data.min.json@9317c06bf56ae3b447f56c14dc2e03a68ab53dee',
  clearUrlsDefaults: 'ClearURLs/Addon core_js/storage.js@79770d2aab3d69e4dcd023012df4fe111bf7db34',
} as const;
