// The verdict rule and how findings interact: what is evidence when the chain did not end on a healthy page.
import { describe, expect, it } from 'vitest';
import {
  AWIN,
  AWIN_LINK,
  LANDING,
  PARTNERIZE,
  SKIMLINKS,
  codes,
  cookie,
  healthy,
  hop,
  page,
  redirect,
  run,
  type Scenario,
} from './analyze-fixtures.js';

const WITH_AWC = `${LANDING}?awc=1_abc`;
const SHOP_ROOT = 'https://shop.example.com/';

describe('willTrack truth table', () => {
  const cases: [string, Scenario, boolean][] = [
    ['reached, no critical, click id present', healthy(), true],
    ['reached, warnings only', { ...healthy(), hops: [redirect(AWIN_LINK, WITH_AWC, { status: 301, timeMs: 2000 }), hop(WITH_AWC)] }, true],
    [
      'bot wall (not reached), attribution fine',
      { ...healthy(), hops: [healthy().hops[0] ?? hop(''), hop(WITH_AWC, { status: 403 })], landing: page({ botWall: true }) },
      false,
    ],
    ['captcha page served with 200 is still a bot wall', { ...healthy(), landing: page({ botWall: true }) }, false],
    ['unresolved script navigation (not reached)', { ...healthy(), landing: page({ scriptNavigation: true }) }, false],
    ['landing 500', { ...healthy(), hops: [healthy().hops[0] ?? hop(''), hop(WITH_AWC, { status: 500 })] }, false],
    [
      'critical stands although attribution survives (homepage fallback)',
      { ...healthy(), hops: [redirect(AWIN_LINK, `${SHOP_ROOT}?awc=1_abc`), hop(`${SHOP_ROOT}?awc=1_abc`)] },
      false,
    ],
    [
      'attribution lost: no click id, no cookie',
      { hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)], defs: [AWIN, null], cookies: [cookie('s', 1)] },
      false,
    ],
    [
      'attribution by first-party cookie only',
      { hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)], defs: [AWIN, null], cookies: [cookie('_aw_m_9', 1)] },
      true,
    ],
    ['no network, page reached: nobody would be credited (no_tracking_found)', { hops: [hop(LANDING)] }, false],
    ['no network, page 404', { hops: [hop(LANDING, { status: 404 })] }, false],
    ['chain ended on a loop', { ...healthy(), end: { reason: 'redirect_loop', hop: 1 }, landing: null }, false],
  ];
  it.each(cases)('%s', (_name, scenario, expected) => {
    expect(run(scenario).willTrack).toBe(expected);
  });
});

describe('interactions', () => {
  it('a bot wall is never also a landing error, and page evidence is not judged behind it', () => {
    const result = run({
      hops: [redirect(AWIN_LINK, LANDING), hop(LANDING, { status: 403 })],
      defs: [AWIN, null],
      landing: page({ botWall: true, title: 'Page not found', availability: 'out_of_stock' }),
    });
    expect(codes(result)).toEqual(['could_not_verify', 'third_party_cookie_missing']);
  });

  it('behind a bot wall at the merchant, a click id stripped by an earlier redirect still counts', () => {
    const result = run({
      hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, LANDING), hop(LANDING, { status: 429 })],
      defs: [AWIN, null, null],
      landing: page({ botWall: true }),
      cookies: [cookie('aw1', 0, { firstParty: false })],
    });
    expect(codes(result)).toEqual(['tracking_parameter_stripped', 'could_not_verify']);
    expect(result.healthScore).toBe(38);
  });

  it('bot protection on the tracker itself says nothing about the merchant', () => {
    const submitted = `${AWIN_LINK}&utm_source=x`;
    const result = run({
      submittedUrl: submitted,
      hops: [hop(submitted, { status: 403 })],
      defs: [AWIN],
      landing: page({ botWall: true }),
    });
    expect(codes(result)).toEqual(['could_not_verify']);
  });

  it('a landing error hides what only a working page could show', () => {
    const submitted = `${AWIN_LINK}&utm_source=x`;
    const result = run({
      submittedUrl: submitted,
      hops: [redirect(submitted, WITH_AWC), redirect(WITH_AWC, `${SHOP_ROOT}`), hop(SHOP_ROOT, { status: 404 })],
      defs: [AWIN, null, null],
      landing: page({ title: 'Not found' }),
      cookies: [cookie('aw1', 0, { firstParty: false })],
    });
    expect(codes(result)).toEqual(['landing_error_status']);
  });

  it.each([
    ['blocked', { reason: 'blocked_private_address', hop: 1, address: '192.168.1.1' } as const, 'blocked_private_address'],
    ['loop', { reason: 'redirect_loop', hop: 1 } as const, 'redirect_loop'],
    ['hop limit', { reason: 'too_many_redirects', hop: 1 } as const, 'too_many_redirects'],
    ['timeout', { reason: 'check_timeout', hop: 1 } as const, 'landing_timeout'],
  ])('a chain that ends %s raises only that plus hop facts (no cookie, click-id or parameter nagging)', (_n, end, code) => {
    const submitted = `${AWIN_LINK}&gclid=abc`;
    const result = run({
      submittedUrl: submitted,
      hops: [redirect(submitted, LANDING), hop(LANDING, { status: null, timeMs: 30_000 })],
      defs: [AWIN, null],
      end,
      landing: null,
    });
    expect(codes(result)).toEqual([code]);
    expect(result.issues[0]?.hop).toBe(1);
  });

  it('a soft 404 is not also reported out of stock', () => {
    expect(codes(run({ ...healthy(), landing: page({ title: '404 – Page not found', availability: 'out_of_stock' }) }))).toEqual([
      'soft_404',
    ]);
  });

  it('the stripped click id is critical only when no first-party attribution cookie stands in', () => {
    const chain = (cookies: ReturnType<typeof cookie>[]): Scenario => ({
      hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, LANDING), hop(LANDING)],
      defs: [AWIN, null, null],
      cookies: [cookie('aw1', 0, { firstParty: false }), ...cookies],
    });
    const broken = run(chain([cookie('session', 2)]));
    expect(codes(broken)).toEqual(['tracking_parameter_stripped']);
    expect(broken.issues[0]?.description).toContain('hop 2 (https://shop.example.com/product/42)');
    const saved = run(chain([cookie('_aw_m_1', 1)]));
    expect(codes(saved)).toEqual(['tracking_parameter_stripped_cookie_set']);
    expect(saved.willTrack).toBe(true);
  });

  it('stripped points at the last hop that carried the click id, when it appears and disappears twice', () => {
    const a = `${LANDING}?awc=1`;
    const result = run({
      hops: [redirect(AWIN_LINK, a), redirect(a, LANDING), redirect(LANDING, a), redirect(a, `${LANDING}/`), hop(`${LANDING}/`)],
      defs: [AWIN, null, null, null, null],
      cookies: [cookie('aw1', 0, { firstParty: false }), cookie('s', 4)],
    });
    expect(result.issues.find((i) => i.code === 'tracking_parameter_stripped')?.hop).toBe(3);
  });

  it('a duplicated click id with two values at landing is a mismatch', () => {
    const url = `${LANDING}?awc=A&awc=B`;
    const result = run({ ...healthy(), hops: [redirect(AWIN_LINK, url), hop(url)] });
    expect(codes(result)).toEqual(['click_id_mismatch']);
    expect(result.willTrack).toBe(true);
  });

  it('a stale click id before the network hop is not a mismatch', () => {
    const stale = `https://blog.example.org/?awc=OLD`;
    const result = run({ ...healthy(), hops: [redirect(stale, AWIN_LINK), ...healthy().hops], defs: [null, AWIN, null] });
    expect(codes(result)).not.toContain('click_id_mismatch');
  });
});

describe('homepage_fallback', () => {
  const landOn = (path: string, deepLink = LANDING): Scenario => {
    const link = `https://www.awin1.com/cread.php?awinmid=1&ued=${encodeURIComponent(deepLink)}`;
    const url = `https://shop.example.com${path}${path.includes('?') ? '&' : '?'}awc=1`;
    return { ...healthy(), hops: [redirect(link, url), hop(url)] };
  };
  it.each(['/', '/en/', '/en-gb/', '/de', '/index.html', '/fr/index.php'])('lands on %s: fallback', (path) => {
    expect(codes(run(landOn(path)))).toContain('homepage_fallback');
  });
  it.each([
    ['the requested page', '/product/42'],
    ['another deep page', '/category/shoes'],
    ['a search page', '/search?q=shoe'],
    ['a path that only looks like a locale', '/sale/'],
  ])('lands on %s: no fallback', (_name, path) => {
    expect(codes(run(landOn(path)))).not.toContain('homepage_fallback');
  });
  it('a deep link to the root itself is not a fallback', () => {
    expect(codes(run(landOn('/', 'https://shop.example.com/?promo=1')))).not.toContain('homepage_fallback');
  });
  it('a deep link to another site does not count', () => {
    expect(codes(run(landOn('/', 'https://other.example.net/p/1')))).not.toContain('homepage_fallback');
  });
  it('www and bare domain are the same site', () => {
    expect(codes(run(landOn('/', 'https://www.shop.example.com/product/42')))).toContain('homepage_fallback');
  });
  it('reads deep links carried in the path (Partnerize) and through an aggregator', () => {
    const link = `https://prf.hn/click/camref:1/destination:${encodeURIComponent(LANDING)}`;
    const url = `${SHOP_ROOT}?clickref=9`;
    const partnerize = run({ hops: [redirect(link, url), hop(url)], defs: [PARTNERIZE, null], cookies: [cookie('s', 1)] });
    expect(partnerize.issues.find((i) => i.code === 'homepage_fallback')).toMatchObject({ hop: 0 });
    const skim = `https://go.skimresources.com/?id=1&url=${encodeURIComponent(AWIN_LINK)}`;
    const wrapped = run({
      ...healthy(),
      hops: [redirect(skim, AWIN_LINK), redirect(AWIN_LINK, `${SHOP_ROOT}?awc=1`), hop(`${SHOP_ROOT}?awc=1`)],
      defs: [SKIMLINKS, AWIN, null],
    });
    expect(wrapped.issues.find((i) => i.code === 'homepage_fallback')).toMatchObject({ hop: 1 });
  });
});

describe('parameter_lost', () => {
  it('never counts the network’s own link parameters', () => {
    const own = { ...AWIN, linkParams: [...AWIN.linkParams, 'utm_campaign'] };
    const submitted = `${AWIN_LINK}&utm_campaign=x&clickref=abc`;
    const result = run({ ...healthy(), submittedUrl: submitted, hops: [redirect(submitted, WITH_AWC), hop(WITH_AWC)], defs: [own, null] });
    expect(codes(result)).not.toContain('parameter_lost');
  });
  it('names every lost parameter and keeps the ones that arrive', () => {
    const submitted = 'https://shop.example.com/p?utm_source=a&utm_medium=b&fbclid=c&ref=x';
    const landing = 'https://shop.example.com/p/?utm_medium=b';
    const result = run({ submittedUrl: submitted, hops: [redirect(submitted, landing), hop(landing)], cookies: [cookie('s', 1)] });
    const issue = result.issues.find((i) => i.code === 'parameter_lost');
    expect(issue?.description).toContain('`utm_source`, `fbclid`');
    expect(issue?.description).not.toContain('utm_medium');
    expect(issue?.description).not.toContain('`ref`');
  });
});

describe('slow_redirect_chain', () => {
  it('a chain over 3 s with no single hop over 1 s is reported without a hop', () => {
    const urls = ['a', 'b', 'c', 'd'].map((p) => `https://shop.example.com/${p}?awc=1`);
    const hops = urls.map((url, i) => (i < 3 ? redirect(url, urls[i + 1] ?? '', { timeMs: 900 }) : hop(url, { timeMs: 900 })));
    const result = run({
      ...healthy(),
      hops: [redirect(AWIN_LINK, urls[0] ?? '', { timeMs: 10 }), ...hops],
      defs: [AWIN, null, null, null, null],
    });
    expect(result.issues.find((i) => i.code === 'slow_redirect_chain')).toMatchObject({ hop: null });
  });
  it('exactly 3000 ms / 1000 ms is not slow', () => {
    const result = run({ ...healthy(), hops: [redirect(AWIN_LINK, WITH_AWC, { timeMs: 1000 }), hop(WITH_AWC, { timeMs: 1000 })] });
    expect(codes(result)).not.toContain('slow_redirect_chain');
  });
});

describe('click ids that are another tracker’s own link parameter', () => {
  it('Awin’s publisher clickref is not Partnerize’s click id being stripped', () => {
    const awinWithRef = `${AWIN_LINK}&clickref=pub-1`;
    const partnerizeLink = 'https://prf.hn/click/camref:1';
    const result = run({
      hops: [redirect(awinWithRef, partnerizeLink), redirect(partnerizeLink, LANDING), hop(LANDING)],
      defs: [AWIN, PARTNERIZE, null],
      cookies: [cookie('s', 2)],
    });
    expect(codes(result)).toContain('tracking_parameter_missing');
    expect(codes(result)).not.toContain('tracking_parameter_stripped');
  });
});
