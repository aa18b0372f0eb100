// End to end through runCheck over the simulator: a healthy link per network (every role-network entry of the
// catalogue, from test/fixtures/network-links.ts), plus hand-built realistic chains (Awin in full detail,
// Amazon via amzn.to, eBay via ebay.us, stacked Skimlinks → Awin, shorteners). HTTPS everywhere.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNSCORED_CODES } from '../../../src/checker/analysis/score.js';
import { ISSUE_CODES, severityOf } from '../../../src/checker/issues/catalogue.js';
import type { CheckResult } from '../../../src/checker/types.js';
import { decideVerdict } from '../../../src/checker/analysis/verdict.js';
import { NETWORK_LINK_FIXTURES, type NetworkLinkFixture } from '../../fixtures/network-links.js';
import { buildNetworkChain, expectHealthy, MERCHANT_PAGE } from '../../fixtures/scenarios/network-chains.js';
import {
  explain,
  issueCodes,
  persistentCookie,
  startScenarioWeb,
  withoutTimingFinding,
  type ScenarioWeb,
} from '../../fixtures/scenarios/scenario-web.js';

let sw: ScenarioWeb;
beforeAll(async () => {
  sw = await startScenarioWeb();
});
beforeEach(() => sw.web.reset());
afterAll(async () => {
  await sw.close();
});

// The privacy-tool warnings describe the shopper's browser, not the link: test/checker/privacy asserts them.
const SERIOUS = ISSUE_CODES.filter((code) => severityOf(code) !== 'info' && !UNSCORED_CODES.includes(code));

const check = async (url: string): Promise<CheckResult> => withoutTimingFinding(await sw.check(url));
const fixture = (id: string): NetworkLinkFixture => {
  const f = NETWORK_LINK_FIXTURES.find((x) => x.id === id);
  if (f === undefined) throw new Error(`no fixture ${id}`);
  return f;
};

/** What every healthy chain must show, whatever its network. */
function expectNothingWrong(result: CheckResult): void {
  const why = explain(result);
  expect(result.willTrack, why).toBe(true);
  expect(
    result.issues.filter((issue) => SERIOUS.includes(issue.code as (typeof SERIOUS)[number])),
    why,
  ).toEqual([]);
  expect(result.healthScore, why).toBeGreaterThanOrEqual(90);
  expect(result.finalStatus).toBe(200);
  expect(result.hops.every((hop) => hop.kind === 'http' && hop.url.startsWith('https://') && hop.error === null)).toBe(true);
  expect(result.firstPartyCookieSet).toBe(true);
  expect(result.totalRedirectTimeMs).toBe(result.hops.reduce((sum, hop) => sum + hop.timeMs, 0));
  expect(result.redirectCount).toBe(result.hops.length - 1);
  expect(JSON.stringify(result)).not.toMatch(/=v\d+;|shop_session=s/); // cookie values never leave the engine
}

describe('a healthy link per network', () => {
  it.each(NETWORK_LINK_FIXTURES.map((f) => [f.id, f] as const))('%s', async (_id, f) => {
    const { url, landingUrl } = buildNetworkChain(sw, f);
    const want = expectHealthy(f);
    const result = await check(url);
    if (f.detection === 'none') {
      // Not recognisable from its URL on purpose (docs/networks.md): nobody is seen handling the click.
      expect(decideVerdict(result), explain(result)).toBe('no_tracking_found');
      expect(result.willTrack).toBe(false);
    } else {
      expectNothingWrong(result);
    }
    expect(result.networkId, explain(result)).toBe(want.networkId);
    expect(result.finalUrl).toBe(landingUrl);
    expect(result.trackingParameterPresent).toBe(want.trackingParameterPresent);
    expect(result.cookieExpiryDays).toBe(want.cookieExpiryDays);
    expect(result.redirectCount).toBe(want.redirectCount);
    expect(issueCodes(result), explain(result)).toEqual(want.infos);
    expect(result.hops[0]?.status).toBe(want.redirectCount === 0 ? 200 : 302);
  });

  it('covers at least 15 networks, the contract’s majors among them', () => {
    const ids = NETWORK_LINK_FIXTURES.map((f) => f.id);
    expect(ids.length).toBeGreaterThanOrEqual(15);
    for (const id of [
      'awin',
      'shareasale',
      'cj',
      'impact',
      'rakuten',
      'partnerize',
      'tradedoubler',
      'webgains',
      'admitad',
      'amazon',
      'ebay_partner_network',
      'partnerstack',
      'refersion',
    ]) {
      expect(ids).toContain(id);
    }
  });
});

describe('realistic chains in detail', () => {
  it('Awin cread.php → merchant with awc and the _aw_m_ MasterTag cookie', async () => {
    const { url, landingUrl } = buildNetworkChain(sw, fixture('awin'));
    const result = await check(url);
    expectNothingWrong(result);
    expect(result).toMatchObject({
      network: 'Awin',
      networkId: 'awin',
      networks: [{ id: 'awin', name: 'Awin', role: 'network' }],
      finalUrl: landingUrl,
      redirectCount: 1,
      trackingParameterPresent: true,
      trackingParameters: { expected: ['awc'], present: ['awc'], missing: [] },
      firstPartyCookieSet: true,
      thirdPartyCookieSet: true,
      cookieExpiryDays: 365,
      healthScore: 100,
      mode: 'http',
      consent: null,
    });
    expect(issueCodes(result)).toEqual([]);
    // Brave and ClearURLs skip Awin's deep link; AdGuard removes the publisher id (test/checker/privacy).
    expect(result.issues.map((i) => i.code).sort()).toEqual(['click_id_stripped_by_privacy_tools', 'tracker_skipped_by_privacy_tools']);
    expect(result.hops.map((h) => [h.status, h.kind, h.network?.id ?? null])).toEqual([
      [302, 'http', 'awin'],
      [200, 'http', null],
    ]);
    expect(result.hops[0]?.location).toBe(landingUrl);
    expect(result.hops[1]).toMatchObject({ paramsAdded: ['awc', 'source'], paramsRemoved: ['awinmid', 'awinaffid', 'clickref', 'ued'] });
    expect(result.cookies.map((c) => [c.name, c.firstParty, c.setByHop, c.expiryDays])).toEqual([
      ['aw12345', false, 0, 30],
      ['_aw_m_12345', true, 1, 365],
      ['shop_session', true, 1, null],
    ]);
    expect(result.cookies[0]).toMatchObject({ domain: 'www.awin1.com', sameSite: 'none', secure: true });
  });

  it('a merchant locale redirect that keeps the query string is still healthy (2 redirects)', async () => {
    const f = fixture('awin');
    const { url } = buildNetworkChain(sw, f);
    // The merchant sends /trainers/running?… on to /en-gb/trainers/running?… keeping the query string.
    sw.web.redirect('www.example-shoes.co.uk', '/trainers/running', (ctx) =>
      sw.https('www.example-shoes.co.uk', `/en-gb/trainers/running${ctx.url.search}`),
    );
    sw.web.page('www.example-shoes.co.uk', '/en-gb/trainers/running', {
      html: MERCHANT_PAGE,
      setCookies: [persistentCookie('_aw_m_12345', 365)],
    });
    const result = await check(url);
    expectNothingWrong(result);
    expect(result.redirectCount).toBe(2);
    expect(result.finalUrl).toContain('/en-gb/trainers/running?awc=');
    expect(issueCodes(result)).toEqual([]);
  });

  it('Amazon via amzn.to: shortener 301 → product page with the Associates tag', async () => {
    const product = 'https://www.amazon.com/dp/B0EXAMPLE12?tag=examplepub-20&linkCode=ll1&linkId=0a1b2c3d4e5f';
    sw.web.redirect('amzn.to', '/3xYzAbC', sw.local(product), { status: 301 });
    sw.web.page('www.amazon.com', '/dp/B0EXAMPLE12', {
      html: MERCHANT_PAGE,
      setCookies: [
        persistentCookie('session-id', 365, 'Domain=.amazon.com; Path=/; Secure'),
        persistentCookie('i18n-prefs', 365, 'Domain=.amazon.com; Path=/'),
      ],
    });
    const result = await check(sw.https('amzn.to', '/3xYzAbC'));
    expectNothingWrong(result);
    expect(result.networks.map((n) => [n.id, n.role])).toEqual([
      ['amazon_short', 'shortener'],
      ['amazon', 'network'],
    ]);
    expect(result).toMatchObject({
      networkId: 'amazon',
      network: 'Amazon Associates',
      redirectCount: 1,
      trackingParameterPresent: true,
      cookieExpiryDays: 365,
    });
    expect(result.trackingParameters).toEqual({ expected: ['tag'], present: ['tag'], missing: [] });
    expect(result.hops.map((h) => h.status)).toEqual([301, 200]);
    // bit.ly-style shorteners answer 301 for everything; the cached target still passes through Amazon.
    expect(issueCodes(result), explain(result)).toEqual([]);
  });

  it('eBay Partner Network via ebay.us → item page carrying campid', async () => {
    const f = fixture('ebay_partner_network');
    sw.web.redirect('ebay.us', '/m/AbCd12', sw.local(f.landing), { status: 301 });
    sw.web.page('www.ebay.com', '/itm/123456789012', {
      html: MERCHANT_PAGE,
      setCookies: [persistentCookie('nonsession', 365, 'Domain=.ebay.com; Path=/; Secure')],
    });
    const result = await check(sw.https('ebay.us', '/m/AbCd12'));
    expectNothingWrong(result);
    expect(result.networks.map((n) => n.id)).toEqual(['ebay_short', 'ebay_partner_network']);
    expect(result).toMatchObject({
      networkId: 'ebay_partner_network',
      trackingParameterPresent: true,
      cookieExpiryDays: 365,
      redirectCount: 1,
    });
    expect(issueCodes(result)).toEqual([]);
  });

  it('Impact via a brand vanity click domain (goto.<brand>): recognised from the click id its redirect appends', async () => {
    const f = fixture('impact');
    sw.web.redirect('goto.example-outdoor.com', '/c/1234567/890123/4567', sw.local(f.landing), {
      setCookies: [persistentCookie('uuid', 720, 'Domain=goto.example-outdoor.com; Path=/; Secure; SameSite=None')],
    });
    sw.web.page('shop.example-outdoor.com', '/boots/hiker-mid', {
      html: MERCHANT_PAGE,
      setCookies: [persistentCookie('IR_gbd', 720), persistentCookie('IR_4567', 30)],
    });
    const result = await check(sw.https('goto.example-outdoor.com', '/c/1234567/890123/4567?subId1=guide'));
    expectNothingWrong(result);
    expect(result).toMatchObject({
      networkId: 'impact',
      network: 'Impact',
      redirectCount: 1,
      trackingParameterPresent: true,
      cookieExpiryDays: 400,
    }); // 720 d, capped as browsers do
    expect(result.trackingParameters).toEqual({ expected: ['irclickid'], present: ['irclickid'], missing: [] });
    expect(result.hops.map((h) => h.network?.id ?? null)).toEqual(['impact', null]);
    expect(issueCodes(result), explain(result)).toEqual([]);
  });

  it.each(['clickbank', 'digistore24'])('%s owns the checkout: a vendor page that sets no cookie is not a warning', async (id) => {
    const f = fixture(id);
    const link = new URL(f.link);
    const landing = new URL(f.landing);
    sw.web.redirect(link.hostname, link.pathname, sw.local(f.landing));
    sw.web.page(landing.hostname, landing.pathname, { html: MERCHANT_PAGE });
    const result = await check(sw.local(f.link));
    expect(result.willTrack, explain(result)).toBe(true);
    expect(result).toMatchObject({ networkId: id, firstPartyCookieSet: false });
    expect(issueCodes(result), explain(result)).not.toContain('first_party_cookie_missing');
  });

  it('stacked: Skimlinks → Awin → merchant follows Awin and warns', async () => {
    const awin = buildNetworkChain(sw, fixture('awin'));
    const skim = `https://go.skimresources.com/?id=114047X1572903&xs=1&xcust=guide&url=${encodeURIComponent(awin.url)}`;
    sw.web.redirect('go.skimresources.com', '/', awin.url, {
      setCookies: [persistentCookie('skimGUID', 365, 'Domain=go.skimresources.com; Path=/; Secure; SameSite=None')],
    });
    const result = await check(sw.local(skim));
    expect(result.willTrack, explain(result)).toBe(true);
    expect(result.networks).toEqual([
      { id: 'skimlinks', name: 'Skimlinks', role: 'aggregator' },
      { id: 'awin', name: 'Awin', role: 'network' },
    ]);
    expect(result).toMatchObject({
      networkId: 'awin',
      network: 'Awin',
      redirectCount: 2,
      trackingParameterPresent: true,
      cookieExpiryDays: 365,
    });
    expect(result.hops.map((h) => h.network?.id ?? null)).toEqual(['skimlinks', 'awin', null]);
    expect(result.issues.filter((i) => !UNSCORED_CODES.includes(i.code)).map((i) => [i.code, i.severity, i.hop])).toEqual([
      ['stacked_networks', 'warning', null],
    ]);
    expect(result.healthScore).toBe(92);
  });

  it.each([
    ['bit.ly', '/3AbCdEf', 'bitly'],
    ['tidd.ly', '/3XyZ123', 'awin_short'],
  ])('shortener %s (301) → Awin → merchant: the shortener is no network and its 301 is harmless', async (host, path, shortId) => {
    const awin = buildNetworkChain(sw, fixture('awin'));
    sw.web.redirect(host, path, awin.url, { status: 301 });
    const result = await check(sw.https(host, path));
    expectNothingWrong(result);
    expect(result.networks.map((n) => [n.id, n.role])).toEqual([
      [shortId, 'shortener'],
      ['awin', 'network'],
    ]);
    expect(result).toMatchObject({ networkId: 'awin', redirectCount: 2, healthScore: 100 });
    expect(result.hops.map((h) => h.status)).toEqual([301, 302, 200]);
    expect(issueCodes(result), explain(result)).toEqual([]);
  });
});
