import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../src/checker/networks/catalogue.js';
import { detectNetwork, extractDeepLink, getNetwork, isAttributionCookie } from '../../src/checker/networks/detect.js';
import type { NetworkDefinition } from '../../src/checker/types.js';
import { NETWORK_LINK_FIXTURES } from '../fixtures/network-links.js';

function entry(id: string): NetworkDefinition {
  const def = getNetwork(id);
  if (def === undefined) throw new Error(`no catalogue entry ${id}`);
  return def;
}

describe('extractDeepLink', () => {
  it.each([
    [
      'awin',
      'https://www.awin1.com/cread.php?awinmid=12345&awinaffid=678901&ued=https%3A%2F%2Fwww.example-shoes.co.uk%2Ftrainers%3Fsize%3D9',
      'https://www.example-shoes.co.uk/trainers?size=9',
    ],
    [
      'awin',
      'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%253A%252F%252Fwww.example-shoes.co.uk%252Fsale',
      'https://www.example-shoes.co.uk/sale',
    ],
    [
      'cj',
      'https://www.anrdoezrs.net/links/7654321/type/dlg/sid/summer/https://www.example-outdoor.com/tents?color=green&size=2',
      'https://www.example-outdoor.com/tents?color=green&size=2',
    ],
    [
      'cj',
      'https://www.jdoqocy.com/links/7654321/type/dlg/https%3A%2F%2Fwww.example-outdoor.com%2Fstoves',
      'https://www.example-outdoor.com/stoves',
    ],
    [
      'cj',
      'https://www.tkqlhce.com/click-7274402-11428273?url=https%3A%2F%2Fwww.example-outdoor.com%2Fjackets',
      'https://www.example-outdoor.com/jackets',
    ],
    [
      'partnerize',
      'https://prf.hn/click/camref:1100l4Rt5/pubref:guide/destination:https%3A%2F%2Fwww.example-travel.co.uk%2Fhotels%3Fcity%3Dlisbon',
      'https://www.example-travel.co.uk/hotels?city=lisbon',
    ],
    [
      'partnerize',
      'https://prf.hn/click/camref:1100l4Rt5/destination:https://www.example-travel.co.uk/hotels?city=porto',
      'https://www.example-travel.co.uk/hotels?city=porto',
    ],
    [
      'rakuten',
      'https://click.linksynergy.com/deeplink?id=AbCdEfGhIjK&mid=24680&murl=https%3A%2F%2Fwww.example-homewares.com%2Fbedding',
      'https://www.example-homewares.com/bedding',
    ],
    [
      'daisycon',
      'https://ds1.nl/c/?si=12345&li=1234567&wi=987654&dl=https%3A%2F%2Fwww.example-energie.nl%2Fvergelijken',
      'https://www.example-energie.nl/vergelijken',
    ],
    [
      'webgains',
      'https://track.webgains.com/click.html?wgcampaignid=1&wgprogramid=2&wgtarget=https%3A%2F%2Fwww.example-garden.co.uk%2Ftools',
      'https://www.example-garden.co.uk/tools',
    ],
    ['sovrn', 'https://redirect.viglink.com/?key=abc&u=https%3A%2F%2Fwww.example.com%2Fp%2F1&cuid=x', 'https://www.example.com/p/1'],
    [
      'skimlinks',
      'https://go.skimresources.com/?id=114047X1572903&xs=1&url=https%3A%2F%2Fwww.example-shop.co.uk%2Fmayo%2F424830',
      'https://www.example-shop.co.uk/mayo/424830',
    ],
    [
      'shareasale',
      'https://shareasale.com/r.cfm?b=1&u=2&m=3&urllink=www.example-outdoor.com%2Ftents%2Fultralight-2p',
      'https://www.example-outdoor.com/tents/ultralight-2p',
    ],
    [
      'flexoffers',
      'https://track.flexlinkspro.com/g.ashx?foid=1.42748&trid=1.165&URL=https%3A%2F%2Fexample-soda.com%2Fpages%2Fcylinders',
      'https://example-soda.com/pages/cylinders',
    ],
    [
      'commission_factory',
      'https://t.cfjump.com/12345/t/6789?Url=https%3A%2F%2Fwww.example-outdoor.com.au%2Fswags',
      'https://www.example-outdoor.com.au/swags',
    ],
    [
      'commission_factory',
      'https://t.cfjump.com/12345/t/6789?url=https%3A%2F%2Fwww.example-outdoor.com.au%2Ftents',
      'https://www.example-outdoor.com.au/tents',
    ],
    [
      'admitad',
      'https://ad.admitad.com/g/1e8d114494b7e165239416525dc3e8/?ulp=https%3A%2F%2Fwww.example-gadgets.com%2Fphones',
      'https://www.example-gadgets.com/phones',
    ],
    [
      'tradedoubler',
      'https://clk.tradedoubler.com/click?p=1&a=2&g=3&url=https%3A%2F%2Fwww.example-electronics.se%2Fhorlurar',
      'https://www.example-electronics.se/horlurar',
    ],
    ['impact', 'https://example.sjv.io/c/1/2/3?u=https%3A%2F%2Fshop.example-outdoor.com%2Fboots', 'https://shop.example-outdoor.com/boots'],
    [
      'ebay_partner_network',
      'https://rover.ebay.com/rover/1/711-53200-19255-0/1?campid=5338123456&mpre=https%3A%2F%2Fwww.ebay.com%2Fitm%2F123',
      'https://www.ebay.com/itm/123',
    ],
    [
      'post_affiliate_pro',
      'https://www.example-hosting.com/affiliate/scripts/click.php?a_aid=5f&desturl=https%3A%2F%2Fwww.example-hosting.com%2Fplans',
      'https://www.example-hosting.com/plans',
    ],
  ])('%s: %s', (id, url, expected) => {
    expect(extractDeepLink(url, entry(id))).toBe(expected);
  });

  it.each([
    ['daisycon', 'a path relative to the merchant', 'https://ds1.nl/c/?si=1&li=2&wi=3&dl=%2Fvergelijken%2Fstroom'],
    ['tradetracker', 'a path relative to the merchant', 'https://tc.tradetracker.net/?c=15640&m=12&a=448474&u=%2Fitem%2F1.html'],
    ['awin', 'a javascript: URL', 'https://www.awin1.com/cread.php?awinmid=1&ued=javascript%3Aalert(1)'],
    ['awin', 'a data: URL', 'https://www.awin1.com/cread.php?awinmid=1&ued=data%3Atext%2Fhtml%2C1'],
    ['awin', 'an empty value', 'https://www.awin1.com/cread.php?awinmid=1&ued='],
    ['awin', 'no destination at all', 'https://www.awin1.com/awclick.php?mid=1&id=2'],
    ['linkby', 'an entry without deep links', 'https://go.linkby.com/UFBXYOJU/?url=https%3A%2F%2Fwww.example.com%2F'],
    ['awin', 'something that is not a URL', 'not a url'],
  ])('%s: null for %s', (id, _what, url) => {
    expect(extractDeepLink(url, entry(id))).toBeNull();
  });
});

describe('isAttributionCookie', () => {
  it('matches exact names, case-sensitively', () => {
    expect(isAttributionCookie('cje', entry('cj'))).toBe(true);
    expect(isAttributionCookie('cjevent_dc', entry('cj'))).toBe(true);
    expect(isAttributionCookie('CJE', entry('cj'))).toBe(false);
    expect(isAttributionCookie('cjevent', entry('cj'))).toBe(false);
    expect(isAttributionCookie('rewardful.referral', entry('rewardful'))).toBe(true);
    expect(isAttributionCookie('TRADEDOUBLER', entry('tradedoubler'))).toBe(true);
  });

  it('matches prefixes ending in "*"', () => {
    expect(isAttributionCookie('_aw_m_12345', entry('awin'))).toBe(true);
    expect(isAttributionCookie('_aw_sn_12345', entry('awin'))).toBe(true);
    expect(isAttributionCookie('_aw_m', entry('awin'))).toBe(false);
    expect(isAttributionCookie('AWSALB', entry('awin'))).toBe(false);
    expect(isAttributionCookie('IR_gbd', entry('impact'))).toBe(true);
    expect(isAttributionCookie('IR_23134', entry('impact'))).toBe(true);
    expect(isAttributionCookie('ir_gbd', entry('impact'))).toBe(false);
    expect(isAttributionCookie('TT2_21449', entry('tradetracker'))).toBe(true);
    expect(isAttributionCookie('_CK_WG_', entry('webgains'))).toBe(true);
  });

  it('matches nothing for an entry without cookie names', () => {
    expect(isAttributionCookie('session', entry('bitly'))).toBe(false);
    expect(isAttributionCookie('', entry('partnerize'))).toBe(false);
  });
});

describe('end-to-end fixtures (test/fixtures/network-links.ts)', () => {
  it('has exactly one fixture per entry with role network', () => {
    const fixtureIds = NETWORK_LINK_FIXTURES.map((f) => f.id);
    expect(new Set(fixtureIds).size).toBe(fixtureIds.length);
    expect([...fixtureIds].sort()).toEqual(
      NETWORKS.filter((n) => n.role === 'network')
        .map((n) => n.id)
        .sort(),
    );
  });

  it.each(NETWORK_LINK_FIXTURES.map((f) => [f.id, f] as const))('%s is consistent with the catalogue', (id, f) => {
    const def = entry(id);
    const link = new URL(f.link);
    const landing = new URL(f.landing);
    if (f.detection === 'link') expect(detectNetwork(link)?.id).toBe(id);
    else expect(detectNetwork(link)).toBeNull();
    // The landing is the merchant: nothing but the fixture's own (merchant-hosted) network may claim it.
    const atLanding = detectNetwork(landing);
    if (f.detection === 'landing') expect(atLanding?.id).toBe(id);
    else if (atLanding !== null) expect(atLanding.id).toBe(id);
    if (def.clickIdParams.length > 0) {
      expect(
        def.clickIdParams.some((p) => landing.searchParams.has(p)),
        'landing carries a click id',
      ).toBe(true);
    }
    for (const cookie of f.merchantCookies) expect(isAttributionCookie(cookie.name, def), cookie.name).toBe(true);
    for (const cookie of f.networkCookies) {
      expect(link.hostname === cookie.host || link.hostname.endsWith(`.${cookie.host}`), cookie.host).toBe(true);
    }
    for (const cookie of [...f.networkCookies, ...f.merchantCookies]) expect(cookie.maxAgeDays).toBeGreaterThan(0);
    const deepLink = extractDeepLink(link, def);
    if (deepLink !== null) expect(new URL(deepLink).origin + new URL(deepLink).pathname).toBe(landing.origin + landing.pathname);
  });
});

describe('docs/networks.md', () => {
  const docs = readFileSync(fileURLToPath(new URL('../../docs/networks.md', import.meta.url)), 'utf8');

  it('has a table row for every catalogue id', () => {
    const rows = new Set(
      docs
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .map((line) => /^\|\s*`([a-z0-9_]+)`/.exec(line)?.[1]),
    );
    expect(NETWORKS.map((n) => n.id).filter((id) => !rows.has(id))).toEqual([]);
  });

  it('documents no id the catalogue lacks', () => {
    const ids = docs.split('\n').flatMap((line) => /^\|\s*`([a-z0-9_]+)`/.exec(line)?.[1] ?? []);
    expect(ids.filter((id) => getNetwork(id) === undefined)).toEqual([]);
  });
});
