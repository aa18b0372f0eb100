// The analysis over the real catalogue: every network's healthy end-to-end fixture tracks with no issue worth a
// warning, and the same link with its click id stripped or never appended is caught.
import { describe, expect, it } from 'vitest';
import { UNSCORED_CODES } from '../../src/checker/analysis/score.js';
import { analyzeChain } from '../../src/checker/analysis/analyze.js';
import { detectNetwork, getNetwork, toNetworkRef } from '../../src/checker/networks/detect.js';
import type { CheckResult, CookieRecord, Hop } from '../../src/checker/types.js';
import { NETWORK_LINK_FIXTURES, type NetworkLinkFixture } from '../fixtures/network-links.js';
import { cookie, hop, page, redirect } from './analyze-fixtures.js';

function host(url: string): string {
  return new URL(url).hostname;
}

/** link → intermediate hops → landing (→ extra), with the fixture's cookies. */
function follow(fixture: NetworkLinkFixture, opts: { landing?: string; extra?: string; merchantCookies?: boolean } = {}): CheckResult {
  const landing = opts.landing ?? fixture.landing;
  const urls = [fixture.link, ...(fixture.hops ?? []), landing, ...(opts.extra === undefined ? [] : [opts.extra])];
  const hops: Hop[] = urls.map((url, i) => {
    const next = urls[i + 1];
    const h = next === undefined ? hop(url) : redirect(url, next);
    const def = detectNetwork(url);
    return { ...h, network: def === null ? null : toNetworkRef(def) };
  });
  const last = hops.length - 1;
  const landingDomain = host(landing).replace(/^www\./, '');
  const cookies: CookieRecord[] = [
    ...fixture.networkCookies.map((c) => cookie(c.name, 0, { firstParty: false, domain: c.host, expiryDays: c.maxAgeDays })),
    // Some session cookie on the merchant's side, so a missing first-party cookie is not what a test sees.
    cookie('session_id', last, { domain: landingDomain, expiryDays: null, expiresAt: null }),
    ...(opts.merchantCookies === false
      ? []
      : fixture.merchantCookies.map((c) => cookie(c.name, last, { domain: landingDomain, expiryDays: c.maxAgeDays }))),
  ];
  return analyzeChain({
    submittedUrl: fixture.link,
    trace: { hops, end: { reason: 'landed' }, landing: page({ title: 'Product' }), cookies },
    hopNetworks: urls.map((url) => detectNetwork(url)),
    mode: 'http',
  });
}

const detected = NETWORK_LINK_FIXTURES.filter((f) => f.detection !== 'none');

/**
 * Storefront programmes (Amazon `tag`, eBay `campid`) are the shop: the shop's server records the id on the
 * programme's own hop, so a redirect inside the same shop that drops it afterwards loses nothing.
 */
function isStorefront(id: string): boolean {
  const def = getNetwork(id);
  return def !== undefined && def.clickIdParams.some((name) => (def.requiredParams ?? []).includes(name));
}

describe('analysis over the real catalogue', () => {
  it.each(detected.map((f) => [f.id, f] as const))('%s: the healthy link tracks with no critical issue or warning', (id, fixture) => {
    const result = follow(fixture);
    expect(result.networkId).toBe(id);
    expect(
      result.issues.filter((i) => i.severity !== 'info' && !UNSCORED_CODES.includes(i.code)).map((i) => `${i.code}: ${i.description}`),
    ).toEqual([]);
    expect(result.willTrack).toBe(true);
    expect(result.healthScore).toBeGreaterThanOrEqual(94);
  });

  it.each(detected.map((f) => [f.id, f] as const))('%s: a merchant redirect that drops the query is caught', (_id, fixture) => {
    const bare = fixture.landing.split('?')[0] ?? fixture.landing;
    const result = follow(fixture, { extra: `${bare.replace(/\/$/, '')}/`, merchantCookies: false });
    const expected = result.trackingParameters.expected;
    if (expected.length === 0) return;
    if (isStorefront(_id)) {
      expect(result.issues.map((i) => i.code)).not.toContain('tracking_parameter_stripped');
      expect(result.willTrack).toBe(true);
      return;
    }
    expect(result.issues.map((i) => i.code)).toContain('tracking_parameter_stripped');
    expect(result.willTrack).toBe(false);
  });

  it.each(detected.filter((f) => f.detection === 'link').map((f) => [f.id, f] as const))(
    '%s: a landing URL without the click id and no merchant cookie is caught',
    (_id, fixture) => {
      const result = follow(fixture, { landing: fixture.landing.split('?')[0], merchantCookies: false });
      if (result.trackingParameters.expected.length === 0) return;
      if (isStorefront(_id)) {
        // The link is the shop's own URL with the id on it: the shop received it before redirecting.
        expect(result.willTrack).toBe(true);
        return;
      }
      // Programmes that live on the merchant's own URL (Amazon `tag`, Refersion `rfsn`) carry the id on the
      // submitted link itself, so losing it on the way is "stripped"; redirect networks never appended it: "missing".
      const carriedOnLink = result.trackingParameters.expected.some((name) => new URL(fixture.link).searchParams.has(name));
      expect(result.issues.map((i) => i.code)).toContain(carriedOnLink ? 'tracking_parameter_stripped' : 'tracking_parameter_missing');
      expect(result.willTrack).toBe(false);
    },
  );
});
