// Which consent platform each DuckDuckGo autoconsent rule stands for: data, reviewed like code. Contract
// ids (CONTRACT.md section 3) where one applies; otherwise a snake_case id of our own for platforms we name
// here, and for any other platform rule the snake_case form of the rule's name (rule-platform.ts).
// Rule names: @duckduckgo/autoconsent rules/rules.json and lib/cmps/*.ts of the pinned version.
import type { PlatformFacts } from './types.js';

const AUTOCONSENT = 'https://github.com/duckduckgo/autoconsent/blob/main';

/** autoconsent rule name → platform id. */
export const RULE_PLATFORM_IDS: Readonly<Record<string, string>> = {
  Onetrust: 'onetrust',
  Cybotcookiebot: 'cookiebot',
  didomi: 'didomi',
  'usercentrics-api': 'usercentrics',
  'usercentrics-button': 'usercentrics',
  quantcast: 'quantcast',
  'TrustArc-top': 'trustarc',
  'TrustArc-frame': 'trustarc',
  'TrustArc-newcm': 'trustarc',
  'Sourcepoint-frame': 'sourcepoint',
  cookieyes: 'cookieyes',
  // CookieYes' WordPress plugin (slug cookie-law-info) renders the older CookieLawInfo banner.
  'cookie-law-info': 'cookieyes',
  // Only the plugin's own banner markup; the "Complianz categories/optin/…" rules match the open-source
  // cookieconsent library that many other sites use too, so they keep their own rule ids.
  'Complianz banner': 'complianz',
  iubenda: 'iubenda',
  osano: 'osano',
  axeptio: 'axeptio',
  Klaro: 'klaro',
  ketch: 'ketch',
  Termly: 'termly',
  'consentmanager.net': 'consentmanager',
  'consentmanager-ncmp': 'consentmanager',
  'cookiefirst.com': 'cookiefirst',
  borlabs: 'borlabs',
  'funding-choices': 'google_funding_choices',
  cookiehub: 'cookiehub',
  'cookie-script': 'cookie_script',
  'civic-cookie-control': 'civic_cookie_control',
  'Cookie Information Banner': 'cookie_information',
  'tarteaucitron.js': 'tarteaucitron',
  'tarteaucitron deny': 'tarteaucitron',
  hubspot: 'hubspot',
  Evidon: 'evidon',
  Admiral: 'admiral',
  Uniconsent: 'uniconsent',
  Sirdata: 'sirdata',
  shopify: 'shopify',
  wix: 'wix',
  'squarespace-cookie-banner': 'squarespace',
  Moove: 'moove_gdpr',
  'hu-manity': 'cookie_notice',
  'real-cookie-banner': 'real_cookie_banner',
  pandectes: 'pandectes',
  gravito: 'gravito',
  fides: 'fides',
  transcend: 'transcend',
  datagrail: 'datagrail',
  Tealium: 'tealium',
  termsfeed: 'termsfeed',
  termsfeed3: 'termsfeed',
  AppConsent: 'appconsent',
  'AppConsent legacy': 'appconsent',
  EZoic: 'ezoic',
};

/** The class-based rules compiled into the bundle (lib/cmps/all.ts), which rules.json does not list. */
export const DYNAMIC_RULE_NAMES: readonly string[] = [
  'TrustArc-top',
  'Cybotcookiebot',
  'Sourcepoint-frame',
  'consentmanager.net',
  'Evidon',
  'Onetrust',
  'Klaro',
  'Uniconsent',
  'Conversant',
  'tiktok.com',
  'tumblr-com',
  'Admiral',
];

/**
 * Platforms autoconsent answers that our catalogue (catalogue-data.ts) does not describe: display name, the
 * cookies in which the platform stores the visitor's choice (names or `prefix*`), and sources.
 */
export const EXTRA_PLATFORMS: readonly PlatformFacts[] = [
  {
    id: 'ketch',
    name: 'Ketch',
    consentCookies: ['_ketch_consent_v1_'],
    sources: ['https://www.npmjs.com/package/@ketch-sdk/ketch-js', `${AUTOCONSENT}/rules/autoconsent/ketch.json`],
  },
  {
    id: 'termly',
    name: 'Termly',
    consentCookies: [],
    sources: [
      'https://support.termly.io/en/articles/9674733-getting-consent-state-and-handling-consent-changes-with-termly',
      `${AUTOCONSENT}/rules/autoconsent/termly.json`,
    ],
  },
  {
    id: 'consentmanager',
    name: 'consentmanager.net',
    consentCookies: ['__cmpconsent*', '__cmpcccu*', 'ncmp', 'euconsent-v2'],
    tcf: true,
    sources: [
      'https://help.consentmanager.net/books/cmp/page/javascript-api',
      `${AUTOCONSENT}/lib/cmps/consentmanager.ts`,
      `${AUTOCONSENT}/rules/autoconsent/consentmanager-ncmp.json`,
    ],
  },
  {
    id: 'cookiefirst',
    name: 'CookieFirst',
    consentCookies: ['cookiefirst-consent'],
    sources: [
      'https://support.cookiefirst.com/hc/en-us/articles/360011568738-Cookie-Banner-Public-API-documentation',
      `${AUTOCONSENT}/rules/autoconsent/cookiefirst.json`,
    ],
  },
  { id: 'borlabs', name: 'Borlabs Cookie', consentCookies: ['borlabs-cookie'], sources: [`${AUTOCONSENT}/rules/autoconsent/borlabs.json`] },
  {
    id: 'google_funding_choices',
    name: 'Google Funding Choices',
    consentCookies: ['FCCDCF', 'FCNEC'],
    tcf: true,
    sources: [`${AUTOCONSENT}/rules/autoconsent/fundingchoices.json`],
  },
  { id: 'cookiehub', name: 'CookieHub', consentCookies: ['cookiehub'], sources: [`${AUTOCONSENT}/rules/autoconsent/cookiehub.json`] },
  {
    id: 'cookie_script',
    name: 'Cookie-Script',
    consentCookies: ['CookieScriptConsent'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/cookie-script.json`],
  },
  {
    id: 'civic_cookie_control',
    name: 'Civic Cookie Control',
    consentCookies: ['CookieControl'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/civic-cookie-control.json`],
  },
  {
    id: 'cookie_information',
    name: 'Cookie Information',
    consentCookies: ['CookieInformationConsent'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/cookieinformation.json`],
  },
  {
    id: 'tarteaucitron',
    name: 'tarteaucitron.js',
    consentCookies: ['tarteaucitron'],
    sources: [
      'https://github.com/AmauriC/tarteaucitron.js',
      `${AUTOCONSENT}/rules/autoconsent/tarteaucitron.json`,
      `${AUTOCONSENT}/rules/autoconsent/tarteaucitron-deny.json`,
    ],
  },
  {
    id: 'hubspot',
    name: 'HubSpot',
    consentCookies: ['__hs_cookie_cat_pref', '__hs_opt_out'],
    sources: [
      'https://developers.hubspot.com/docs/api-reference/latest/account/settings/tracking-code/add-privacy-consent-listener',
      `${AUTOCONSENT}/rules/autoconsent/hubspot.json`,
    ],
  },
  { id: 'evidon', name: 'Evidon (Crownpeak)', consentCookies: ['_evidon_consent_cookie'], sources: [`${AUTOCONSENT}/lib/cmps/evidon.ts`] },
  { id: 'admiral', name: 'Admiral', consentCookies: [], sources: [`${AUTOCONSENT}/lib/cmps/admiral.ts`] },
  { id: 'uniconsent', name: 'UniConsent', consentCookies: [], tcf: true, sources: [`${AUTOCONSENT}/lib/cmps/uniconsent.ts`] },
  {
    id: 'sirdata',
    name: 'Sirdata',
    consentCookies: ['euconsent-v2'],
    tcf: true,
    sources: [`${AUTOCONSENT}/rules/autoconsent/sirdata.json`],
  },
  {
    id: 'shopify',
    name: 'Shopify',
    consentCookies: ['_tracking_consent'],
    sources: ['https://shopify.dev/docs/api/customer-privacy', `${AUTOCONSENT}/rules/autoconsent/shopify.json`],
  },
  { id: 'wix', name: 'Wix', consentCookies: ['consent-policy'], sources: [`${AUTOCONSENT}/rules/autoconsent/wix.json`] },
  {
    id: 'squarespace',
    name: 'Squarespace',
    consentCookies: [],
    sources: [`${AUTOCONSENT}/rules/autoconsent/squarespace-cookie-banner.json`],
  },
  {
    id: 'moove_gdpr',
    name: 'GDPR Cookie Compliance (Moove)',
    consentCookies: ['moove_gdpr_popup'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/moove.json`],
  },
  {
    id: 'cookie_notice',
    name: 'Cookie Notice (Hu-manity)',
    consentCookies: ['cookie_notice_accepted'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/hu-manity.json`],
  },
  {
    id: 'real_cookie_banner',
    name: 'Real Cookie Banner',
    consentCookies: ['real_cookie_banner*'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/real-cookie-banner.json`],
  },
  { id: 'pandectes', name: 'Pandectes', consentCookies: ['_pandectes_gdpr'], sources: [`${AUTOCONSENT}/rules/autoconsent/pandectes.json`] },
  { id: 'gravito', name: 'Gravito', consentCookies: ['gravitoData'], sources: [`${AUTOCONSENT}/rules/autoconsent/gravito.json`] },
  { id: 'fides', name: 'Fides (Ethyca)', consentCookies: ['fides_consent'], sources: [`${AUTOCONSENT}/rules/autoconsent/fides.json`] },
  { id: 'transcend', name: 'Transcend', consentCookies: [], sources: [`${AUTOCONSENT}/rules/autoconsent/transcend.json`] },
  { id: 'datagrail', name: 'DataGrail', consentCookies: [], sources: [`${AUTOCONSENT}/rules/autoconsent/datagrail.json`] },
  { id: 'tealium', name: 'Tealium', consentCookies: ['CONSENTMGR'], sources: [`${AUTOCONSENT}/rules/autoconsent/tealium.json`] },
  {
    id: 'termsfeed',
    name: 'TermsFeed',
    consentCookies: ['cookie_consent_level'],
    sources: [`${AUTOCONSENT}/rules/autoconsent/termsfeed.json`],
  },
  {
    id: 'appconsent',
    name: 'AppConsent (SFBX)',
    consentCookies: [],
    tcf: true,
    sources: [`${AUTOCONSENT}/rules/autoconsent/appconsent.json`],
  },
  { id: 'ezoic', name: 'Ezoic', consentCookies: [], tcf: true, sources: [`${AUTOCONSENT}/rules/autoconsent/ezoic.json`] },
];
