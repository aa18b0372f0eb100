import { describe, expect, it } from 'vitest';
import { decideVerdict } from '../../src/checker/analysis/verdict.js';
import {
  AWIN,
  AWIN_LINK,
  BITLY,
  HOPLINK,
  LANDING,
  MULTI,
  SKIMLINKS,
  codes,
  cookie,
  healthy,
  hop,
  page,
  redirect,
  run,
} from './analyze-fixtures.js';

describe('analyzeChain: the healthy chain', () => {
  it('has no issue, tracks, scores 100 and fills every field', () => {
    const h = healthy();
    const result = run(h);
    expect(codes(result)).toEqual([]);
    expect(result).toMatchObject({
      willTrack: true,
      healthScore: 100,
      network: 'Awin',
      networkId: 'awin',
      networks: [{ id: 'awin', name: 'Awin', role: 'network' }],
      finalUrl: `${LANDING}?awc=1_abc`,
      finalStatus: 200,
      redirectCount: 1,
      totalRedirectTimeMs: 320,
      trackingParameterPresent: true,
      trackingParameters: { expected: ['awc'], present: ['awc'], missing: [] },
      firstPartyCookieSet: true,
      thirdPartyCookieSet: true,
      cookieExpiryDays: 365,
      mode: 'http',
      consent: null,
    });
    expect(result.cookies).toBe(h.cookies);
    expect(result.cookies).toHaveLength(2);
    expect(result.hops[0]?.network).toEqual({ id: 'awin', name: 'Awin', role: 'network' });
    expect(result.hops[1]?.network).toBeNull();
  });
});

describe('analyzeChain: networks and the verdict network', () => {
  it('collapses consecutive repeats and follows the last network when Skimlinks wraps Awin', () => {
    const landingUrl = `${LANDING}?awc=1_abc`;
    const skim = `https://go.skimresources.com/?id=1X2&url=${encodeURIComponent(AWIN_LINK)}`;
    const result = run({
      hops: [redirect(skim, AWIN_LINK), redirect(AWIN_LINK, `${AWIN_LINK}&x=1`), redirect(`${AWIN_LINK}&x=1`, landingUrl), hop(landingUrl)],
      defs: [SKIMLINKS, AWIN, AWIN, null],
      cookies: [cookie('aw1', 1, { firstParty: false }), cookie('_aw_m_1', 3)],
    });
    expect(result.networks.map((n) => n.id)).toEqual(['skimlinks', 'awin']);
    expect(result.networkId).toBe('awin');
    expect(result.trackingParameters.expected).toEqual(['awc']);
    expect(codes(result)).toEqual(['stacked_networks']);
    expect(result.willTrack).toBe(true);
    expect(result.healthScore).toBe(92);
  });

  it('a chain A → B → A keeps both entries for A', () => {
    const result = run({
      hops: [
        redirect('https://bit.ly/x', AWIN_LINK),
        redirect(AWIN_LINK, 'https://bit.ly/y'),
        redirect('https://bit.ly/y', LANDING),
        hop(LANDING),
      ],
      defs: [BITLY, AWIN, BITLY, null],
    });
    expect(result.networks.map((n) => n.id)).toEqual(['bitly', 'awin', 'bitly']);
    expect(result.networkId).toBe('awin');
  });

  it('uses the caller-filled hop.network when no catalogue entry is given for that hop', () => {
    const result = run({
      hops: [redirect('https://t.example/x', LANDING, { network: { id: 'x', name: 'X', role: 'network' } }), hop(LANDING)],
    });
    expect(result.networkId).toBe('x');
    expect(result.trackingParameters.expected).toEqual([]);
  });

  it('with no network nothing would be credited: no_tracking_found, willTrack false', () => {
    const result = run({ hops: [hop(LANDING)], cookies: [cookie('session', 0)] });
    expect(result.network).toBeNull();
    expect(result.networkId).toBeNull();
    expect(result.networks).toEqual([]);
    expect(result.trackingParameters).toEqual({ expected: [], present: [], missing: [] });
    expect(result.trackingParameterPresent).toBe(false);
    expect(codes(result)).toEqual(['no_network_detected']);
    expect(result.willTrack).toBe(false);
    expect(decideVerdict(result)).toBe('no_tracking_found');
    expect(result.healthScore).toBe(60);
  });

  it('a shortener alone is not a network', () => {
    const result = run({ hops: [redirect('https://bit.ly/x', LANDING), hop(LANDING)], defs: [BITLY, null], cookies: [cookie('s', 1)] });
    expect(result.networks.map((n) => n.role)).toEqual(['shortener']);
    expect(result.networkId).toBeNull();
    expect(codes(result)).toContain('no_network_detected');
    expect(codes(result)).not.toContain('stacked_networks');
  });

  it('an aggregator alone: network stays null, its click-id rules (none) and hop decide', () => {
    const skim = `https://go.skimresources.com/?id=1&url=${encodeURIComponent(LANDING)}`;
    const result = run({
      hops: [redirect(skim, LANDING), hop(LANDING)],
      defs: [SKIMLINKS, null],
      cookies: [cookie('s', 1), cookie('sk', 0, { firstParty: false })],
    });
    expect(result.networkId).toBeNull();
    expect(result.networks.map((n) => n.id)).toEqual(['skimlinks']);
    expect(result.willTrack).toBe(true);
    expect(codes(result)).toEqual([]);
  });
});

describe('analyzeChain: tracking parameters', () => {
  it('one of several alternative click ids is enough', () => {
    const url = `${LANDING}?transaction_id=abc`;
    const result = run({ hops: [redirect('https://t.multi.example/c', url), hop(url)], defs: [MULTI, null], cookies: [cookie('s', 1)] });
    expect(result.trackingParameters).toEqual({ expected: ['tid', 'transaction_id'], present: ['transaction_id'], missing: ['tid'] });
    expect(result.trackingParameterPresent).toBe(true);
    expect(result.willTrack).toBe(true);
  });

  it('an empty or placeholder click id is not present', () => {
    for (const value of ['', '{clickid}']) {
      const url = `${LANDING}?awc=${value}`;
      const result = run({ hops: [redirect(AWIN_LINK, url), hop(url)], defs: [AWIN, null], cookies: [cookie('s', 1)] });
      expect(result.trackingParameterPresent).toBe(false);
      expect(codes(result)).toContain('tracking_parameter_missing');
      expect(result.willTrack).toBe(false);
    }
  });

  it('a click id handed over in a #key=value fragment counts', () => {
    const url = `${LANDING}#awc=1_abc`;
    const result = run({ hops: [redirect(AWIN_LINK, url), hop(url)], defs: [AWIN, null], cookies: [cookie('s', 1)] });
    expect(result.trackingParameterPresent).toBe(true);
  });
});

describe('analyzeChain: cookies', () => {
  it('cookieExpiryDays is the longest-lived persistent first-party cookie, one decimal', () => {
    const h = healthy();
    const result = run({
      ...h,
      cookies: [
        cookie('_aw_m_1', 1, { expiryDays: 29.96 }),
        cookie('session', 1, { expiryDays: null, expiresAt: null }),
        cookie('long3p', 0, { firstParty: false, expiryDays: 400 }),
        cookie('pref', 1, { expiryDays: 90.04 }),
      ],
    });
    expect(result.cookieExpiryDays).toBe(90);
  });

  it('only session first-party cookies: set, but no expiry', () => {
    const result = run({ ...healthy(), cookies: [cookie('_aw_m_1', 1, { expiryDays: null, expiresAt: null })] });
    expect(result.firstPartyCookieSet).toBe(true);
    expect(result.thirdPartyCookieSet).toBe(false);
    expect(result.cookieExpiryDays).toBeNull();
  });

  it('a later deletion of the same cookie means it is not standing', () => {
    const url = `${LANDING}`;
    const result = run({
      hops: [redirect(AWIN_LINK, url), hop(url)],
      defs: [AWIN, null],
      cookies: [cookie('_aw_m_1', 0), cookie('_aw_m_1', 1, { expiryDays: 0 })],
    });
    expect(result.firstPartyCookieSet).toBe(false);
    expect(codes(result)).toContain('tracking_parameter_missing');
  });

  it('a first-party attribution cookie stands in for a missing click id', () => {
    const result = run({ hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)], defs: [AWIN, null], cookies: [cookie('_aw_m_1', 1)] });
    expect(result.trackingParameterPresent).toBe(false);
    expect(codes(result)).not.toContain('tracking_parameter_missing');
    expect(result.willTrack).toBe(true);
  });

  it('a third-party cookie with the attribution name does not stand in', () => {
    const result = run({
      hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)],
      defs: [AWIN, null],
      cookies: [cookie('_aw_m_1', 0, { firstParty: false }), cookie('s', 1)],
    });
    expect(codes(result)).toContain('tracking_parameter_missing');
    expect(result.willTrack).toBe(false);
  });

  it('cookie names match case-sensitively, as the catalogue does', () => {
    const result = run({ hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)], defs: [AWIN, null], cookies: [cookie('_AW_M_1', 1)] });
    expect(result.willTrack).toBe(false);
  });

  it('returns trace.cookies unchanged', () => {
    const cookies = [cookie('_aw_m_1', 1), cookie('_aw_m_1', 1, { expiryDays: 0 })];
    expect(run({ ...healthy(), cookies }).cookies).toEqual(cookies);
  });
});

describe('analyzeChain: networks that hand no click id to the merchant', () => {
  const link = 'https://aff.vendor.hop.example.net/';
  it('attribution survives when its hop answered and the landing page was reached', () => {
    const result = run({ hops: [redirect(link, LANDING), hop(LANDING)], defs: [HOPLINK, null], cookies: [cookie('s', 1)] });
    expect(result.networkId).toBe('hoplink');
    expect(result.trackingParameters).toEqual({ expected: [], present: [], missing: [] });
    expect(codes(result)).not.toContain('tracking_parameter_missing');
    expect(result.willTrack).toBe(true);
  });

  it('no verdict when its own hop fails', () => {
    const result = run({ hops: [hop(link, { status: 500 })], defs: [HOPLINK] });
    expect(codes(result)).toContain('landing_error_status');
    expect(result.willTrack).toBe(false);
  });
});

describe('analyzeChain: edge cases', () => {
  it('bot wall at the merchant: could not verify, never "broken"', () => {
    const result = run({
      ...healthy(),
      hops: [healthy().hops[0] ?? hop(''), hop(`${LANDING}?awc=1_abc`, { status: 403 })],
      landing: page({ botWall: true }),
      cookies: [],
    });
    expect(codes(result)).toEqual(['could_not_verify', 'third_party_cookie_missing']);
    expect(result.willTrack).toBe(false);
    expect(result.healthScore).toBe(60);
  });

  it('unreachable first hop: one critical issue, no cookie or landing nagging', () => {
    const result = run({
      hops: [hop(AWIN_LINK, { status: null, error: 'DNS lookup failed' })],
      defs: [AWIN],
      end: { reason: 'unreachable', hop: 0, error: 'DNS lookup failed' },
      landing: null,
    });
    expect(codes(result)).toEqual(['landing_unreachable']);
    expect(result.issues[0]?.hop).toBe(0);
    expect(result.issues[0]?.description).toContain('DNS lookup failed');
    expect(result.finalStatus).toBeNull();
    expect(result.redirectCount).toBe(0);
    expect(result.willTrack).toBe(false);
    expect(result.healthScore).toBe(40);
  });

  it('a single-hop chain is analysed', () => {
    const result = run({ hops: [hop(`${LANDING}?awc=1`)], defs: [null], cookies: [cookie('s', 0)] });
    expect(result.redirectCount).toBe(0);
    expect(result).toMatchObject({ finalStatus: 200, willTrack: false }); // a click id alone credits nobody
    expect(decideVerdict(result)).toBe('no_tracking_found');
  });

  it('issues are sorted critical → warning → info and stable within a severity', () => {
    const url = `http://shop.example.com/?awc=`;
    const result = run({
      hops: [
        redirect('http://www.awin1.com/cread.php?ued=http%3A%2F%2Fshop.example.com%2Fp', url, { status: 301 }),
        hop(url, { kind: 'meta-refresh' }),
      ],
      defs: [{ ...AWIN, hosts: ['www.awin1.com'] }, null],
    });
    const severities = result.issues.map((issue) => issue.severity);
    expect(severities).toEqual(
      [...severities].sort((a, b) => ['critical', 'warning', 'info'].indexOf(a) - ['critical', 'warning', 'info'].indexOf(b)),
    );
    expect(codes(result).slice(0, 2)).toEqual(['tracking_parameter_missing', 'homepage_fallback']);
  });
});
