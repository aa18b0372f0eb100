// One test per agent rule, against the source's own example where it has one (quoted with its source).
import { describe, expect, it } from 'vitest';
import { matchesGlob, matchesHost } from '../../../src/checker/privacy/match.js';
import {
  findSkip,
  PRIVACY_AGENTS,
  stripUrl,
  walkChain,
  type PrivacyAgent,
  type PrivacyAgentId,
} from '../../../src/checker/privacy/index.js';

const agent = (id: PrivacyAgentId): PrivacyAgent => {
  const found = PRIVACY_AGENTS.find((a) => a.id === id);
  if (found === undefined) throw new Error(id);
  return found;
};
const hop = (url: string) => ({ url, status: 302, kind: 'http' as const, network: null });

describe('Brave query filter', () => {
  const brave = agent('brave');
  it('strips gclid and keeps the rest, cross-site', () => {
    // brave/brave-core components/query_filter/utils_unittest.cc: initiator https://brave.com,
    // "https://test.com/?gclid=123&unsubscribe=123" → "https://test.com/?unsubscribe=123"
    expect(stripUrl(brave, 'https://test.com/?gclid=123&unsubscribe=123', true).url).toBe('https://test.com/?unsubscribe=123');
  });
  it('leaves same-site redirects alone', () => {
    // utils_unittest.cc: "Test nothing is filtered with same origin `redirect_source_url`" (https://test.com →
    // https://test.com/?gclid=123)
    const walk = walkChain(brave, [hop('https://test.com/go'), hop('https://test.com/?gclid=123')]);
    expect(walk.steps.map((s) => s.url)).toEqual(['https://test.com/go', 'https://test.com/?gclid=123']);
  });
  it('keeps a parameter with an empty value', () => {
    // components/query_filter/browser/utils.cc: 'For cases like "https://example.com/?fbclid=&foo=1" … an empty
    // value string' the token is put back as it is.
    expect(stripUrl(brave, 'https://example.com/?fbclid=&foo=1', true).url).toBe('https://example.com/?fbclid=&foo=1');
  });
  it('strips irclickid (Impact), the only affiliate click id in the list', () => {
    expect(stripUrl(brave, 'https://shop.example/p?irclickid=abc&awc=1_x', true).removed.map((r) => r.name)).toEqual(['irclickid']);
  });
});

describe('Brave debouncing', () => {
  const brave = agent('brave');
  it('jumps to the decoded destination of a matching URL', () => {
    // brave-core components/debounce/core/common/features.cc: URLs "of the form
    // https://tracker.example.com/?url=http://final.example.com/" go "to the final URL without sending any network
    // requests to the tracker". debounce.json: *://www.awin1.com/cread.php?* with param ued.
    const skip = findSkip(brave, 'https://www.awin1.com/cread.php?awinmid=1&ued=http%3A%2F%2Ffinal.example.com%2F');
    expect(skip?.destination).toBe('http://final.example.com/');
  });
  it('prepend_scheme: applies to a scheme-less value, and a value with a scheme voids the rule', () => {
    // debounce_rule_unittest.cc ParamCapturesNonURLWithPrependScheme: "https://test.com/brave.com" →
    // "http://brave.com/"; ParamCapturesURLWithPrependScheme: "https://test.com/https://brave.com" → no debounce.
    const base = 'https://shareasale.com/r.cfm?b=1&u=2&m=3&urllink=';
    expect(findSkip(brave, `${base}brave.com`)?.destination).toBe('https://brave.com/');
    expect(findSkip(brave, `${base}https%3A%2F%2Fbrave.com`)).toBeNull();
  });
  it('never redirects to the same site', () => {
    // debounce_rule.cc: "Failsafe: never redirect to the same site."
    expect(findSkip(brave, 'https://www.awin1.com/cread.php?ued=https%3A%2F%2Fui.awin1.com%2F')).toBeNull();
  });
  it('matches Chrome URLPattern globs: path and query, * as wildcard, ? literal', () => {
    expect(matchesGlob('/cread.php?*', '/cread.php?awinmid=1')).toBe(true);
    expect(matchesGlob('/cread.php?*', '/cread.phpx')).toBe(false);
    expect(matchesGlob('/click-', '/click-123-456?url=x')).toBe(false);
    expect(matchesHost('*.sjv.io', 'sjv.io') && matchesHost('*.sjv.io', 'brand.sjv.io')).toBe(true);
  });
});

describe('AdGuard URL Tracking filter', () => {
  it('$removeparam=param, as the knowledge base shows it', () => {
    // AdGuard KB, $removeparam: "a request to http://example.com/page?param=1&another=2 will be transformed to
    // http://example.com/page?another=2" (rule shape restated with the KB's own parameter name).
    const kb: PrivacyAgent = { ...agent('adguard_url_tracking'), strips: [{ params: ['param'], source: 'kb', read: '2026-11-24' }] };
    expect(stripUrl(kb, 'http://example.com/page?param=1&another=2', false).url).toBe('http://example.com/page?another=2');
  });
  const adguard = agent('adguard_url_tracking');
  it('general_url.txt: awc, sscid, irclickid, tduid, admitad_uid on every site, same-site too', () => {
    const url = 'https://shop.example/p?awc=1&sscid=2&irclickid=3&tduid=4&admitad_uid=5&cjevent=6';
    expect(stripUrl(adguard, url, false).url).toBe('https://shop.example/p?cjevent=6');
  });
  it('specific.txt: ||amazon.*$removeparam=tag on any Amazon storefront', () => {
    expect(stripUrl(adguard, 'https://www.amazon.co.uk/dp/B0X?tag=pub-21&th=1', false).url).toBe('https://www.amazon.co.uk/dp/B0X?th=1');
    expect(stripUrl(adguard, 'https://shop.example/p?tag=summer', false).removed).toEqual([]);
  });
  it('specific.txt: awinaffid on awin1.com is marked as the publisher id', () => {
    const { removed } = stripUrl(adguard, 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&clickref=x', false);
    expect(removed.map((r) => [r.name, r.rule.identifiesPublisher === true])).toEqual([
      ['awinaffid', true],
      ['clickref', false],
    ]);
  });
  it('specific.txt: campid on www.ebay.*, customid only under /itm', () => {
    expect(stripUrl(adguard, 'https://www.ebay.de/itm/1?campid=5&customid=g&x=1', false).url).toBe('https://www.ebay.de/itm/1?x=1');
    expect(stripUrl(adguard, 'https://www.ebay.de/sch/1?customid=g', false).removed).toEqual([]);
  });
});

describe('ClearURLs', () => {
  const clearurls = agent('clearurls');
  it('global rules compare names without regard to case', () => {
    expect(stripUrl(clearurls, 'https://shop.example/p?GCLID=1&UTM_Source=x&id=2', false).url).toBe('https://shop.example/p?id=2');
  });
  it('referral marketing (release default): Amazon tag is removed', () => {
    expect(stripUrl(clearurls, 'https://www.amazon.com/dp/B0EXAMPLE12?tag=examplepub-20&linkCode=ll1', false).url).toBe(
      'https://www.amazon.com/dp/B0EXAMPLE12',
    );
  });
  it('redirections: decodes repeatedly and prefixes http:// when there is no scheme', () => {
    // ClearURLs/Addon core_js/tools.js decodeURL: decodeURIComponent until not encoded; "if (!rtn.startsWith('http'))
    // rtn = 'http://' + rtn".
    expect(findSkip(clearurls, 'https://www.awin1.com/cread.php?ued=https%253A%252F%252Fshop.example%252Fp')?.destination).toBe(
      'https://shop.example/p',
    );
    expect(findSkip(clearurls, 'https://go.skimresources.com/?id=1&url=shop.example%2Fp')?.destination).toBe('http://shop.example/p');
  });
});

describe('Firefox and Safari', () => {
  it('Firefox strict strips fbclid on a cross-site navigation, not a same-site one', () => {
    // Mozilla's query stripping announcement: a link from facebook.com to example.com gets "example.com?fbclid=ABC";
    // "We don't strip query string for same-site navigations".
    const firefox = agent('firefox_strict');
    expect(stripUrl(firefox, 'https://example.com/?fbclid=ABC', true).url).toBe('https://example.com/');
    expect(stripUrl(firefox, 'https://example.com/?fbclid=ABC', false).url).toBe('https://example.com/?fbclid=ABC');
  });
  it('Safari private strips the PrivacyTests click ids and keeps the control parameter', () => {
    // privacytests live/results.js queryParameterTestUrl: "?controlParam=controlValue" then "&<param>=<secret>".
    const url = 'https://example.org/query.html?controlParam=controlValue&fbclid=1&gclid=1&msclkid=1';
    expect(stripUrl(agent('safari_private'), url, true).url).toBe('https://example.org/query.html?controlParam=controlValue');
  });
  it('Chrome, default Safari and default Firefox change nothing', () => {
    for (const id of ['chrome', 'safari', 'firefox'] as const) {
      expect(stripUrl(agent(id), 'https://shop.example/p?gclid=1&fbclid=2&awc=3', true).removed).toEqual([]);
      expect(agent(id).skips).toEqual([]);
    }
  });
});
