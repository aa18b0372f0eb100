// Link shorteners: a redirect that adds no attribution of its own. Some belong to a network (tidd.ly is
// Awin's, amzn.to Amazon's); they stay role "shortener" so they never become networkId. Data only.
import type { NetworkDefinition } from '../types.js';

/** What every shortener shares: no parameters, no cookies, no window. */
const SHORTENER: Omit<NetworkDefinition, 'id' | 'name' | 'hosts' | 'sources' | 'notes'> = {
  role: 'shortener',
  paths: [],
  linkParams: [],
  signatureParams: [],
  deepLinkParam: null,
  deepLinkPathPattern: null,
  clickIdParams: [],
  cookieNames: [],
  defaultWindowDays: null,
};

export const SHORTENERS: readonly NetworkDefinition[] = [
  {
    ...SHORTENER,
    id: 'bitly',
    name: 'Bitly',
    hosts: ['bit.ly', 'j.mp'],
    sources: ['https://support.bitly.com/hc/en-us'],
  },
  {
    ...SHORTENER,
    id: 'amazon_short',
    name: 'Amazon short link',
    hosts: ['amzn.to', 'amzn.eu', 'amzn.asia', 'a.co'],
    sources: ['https://affiliate-program.amazon.com/'],
    notes:
      'Associates SiteStripe short links (amzn.to, amzn.eu, amzn.asia) and Amazon share links (a.co/d/...). They expand ' +
      'to an amazon.* URL; whether an Associates tag survives is decided on that URL (entry amazon).',
  },
  {
    ...SHORTENER,
    id: 'ebay_short',
    name: 'eBay short link',
    hosts: ['ebay.us'],
    sources: ['https://partnerhelp.ebay.com/helpcenter/knowledgebase/All-About-Tracking/United%20States%20(EN)'],
    notes:
      'unverified: EPN share links ebay.us/<code> expand to an eBay URL carrying the campid (entry ebay_partner_network).',
  },
  {
    ...SHORTENER,
    id: 'awin_short',
    name: 'Awin short link (tidd.ly)',
    hosts: ['tidd.ly'],
    sources: ['https://success.awin.com/articles/en_US/Knowledge/What-does-an-affiliate-link-look-like'],
    notes:
      'unverified in the research file: Awin\'s link builder shortens to tidd.ly/<code>, which redirects to awin1.com.',
  },
  {
    ...SHORTENER,
    id: 'shareasale_short',
    name: 'ShareASale short link (shrsl.com)',
    hosts: ['shrsl.com', 'www.shrsl.com'],
    sources: ['https://docs.fmtc.co/kb/shareasale'],
    notes:
      'unverified in the research file: ShareASale short links shrsl.com/<code> redirect to shareasale.com/r.cfm.',
  },
  {
    ...SHORTENER,
    id: 'geniuslink',
    name: 'Geniuslink',
    hosts: ['geni.us'],
    sources: ['https://geniuslink.com/'],
    notes:
      'Smart links that localise the storefront and may insert the owner\'s affiliate tag; custom domains are not recognised.',
  },
  {
    ...SHORTENER,
    id: 'tinyurl',
    name: 'TinyURL',
    hosts: ['tinyurl.com', 'www.tinyurl.com'],
    sources: ['https://tinyurl.com/'],
  },
  {
    ...SHORTENER,
    id: 'x_tco',
    name: 'X (Twitter) t.co',
    hosts: ['t.co'],
    sources: ['https://help.x.com/en/using-x/url-shortener'],
  },
  {
    ...SHORTENER,
    id: 'owly',
    name: 'Hootsuite ow.ly',
    hosts: ['ow.ly'],
    sources: ['https://www.hootsuite.com/'],
  },
  {
    ...SHORTENER,
    id: 'rebrandly',
    name: 'Rebrandly',
    hosts: ['rebrand.ly'],
    sources: ['https://support.rebrandly.com/'],
  },
  {
    ...SHORTENER,
    id: 'cuttly',
    name: 'Cuttly',
    hosts: ['cutt.ly'],
    sources: ['https://cutt.ly/'],
  },
  {
    ...SHORTENER,
    id: 'isgd',
    name: 'is.gd / v.gd',
    hosts: ['is.gd', 'v.gd'],
    sources: ['https://is.gd/developers.php'],
  },
  {
    ...SHORTENER,
    id: 'buffer',
    name: 'Buffer buff.ly',
    hosts: ['buff.ly'],
    sources: ['https://support.buffer.com/'],
  },
  {
    ...SHORTENER,
    id: 'linkedin_short',
    name: 'LinkedIn lnkd.in',
    hosts: ['lnkd.in'],
    sources: ['https://www.linkedin.com/help/linkedin'],
  },
  {
    ...SHORTENER,
    id: 'googl',
    name: 'Google goo.gl (legacy)',
    hosts: ['goo.gl'],
    sources: ['https://developers.googleblog.com/en/google-url-shortener-links-will-no-longer-be-available/'],
    notes:
      'Legacy: Google stopped creating goo.gl links in 2019 and announced that old links stop redirecting; expect dead ends.',
  },
  {
    ...SHORTENER,
    id: 'shorturl_at',
    name: 'ShortURL',
    hosts: ['shorturl.at'],
    sources: ['https://www.shorturl.at/'],
  },
];
