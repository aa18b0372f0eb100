// Verdicts an affiliate manager would question, pinned end to end: which 301s matter, Amazon/eBay
// storefront semantics, where a loop's fix belongs, what a bot wall behind a broken redirect still proves.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNSCORED_CODES } from '../../../src/checker/analysis/score.js';
import type { CheckResult } from '../../../src/checker/types.js';
import {
  awinClick,
  awinLanding,
  awinLink,
  healthyAwin,
  MASTERTAG_COOKIE,
  PRODUCT,
  productHtml,
  SESSION_COOKIE,
  SHOP,
  shopPage,
} from '../../fixtures/scenarios/merchant.js';
import { explain, issueCodes, persistentCookie, startScenarioWeb, type ScenarioWeb } from '../../fixtures/scenarios/scenario-web.js';

let sw: ScenarioWeb;
beforeAll(async () => {
  sw = await startScenarioWeb();
});
beforeEach(() => sw.web.reset());
afterAll(async () => {
  await sw.close();
});

const AMAZON_COOKIES = [persistentCookie('session-id', 365, 'Domain=.amazon.com; Path=/; Secure')];
const issuesAt = (result: CheckResult): string[] =>
  result.issues
    .filter((i) => !UNSCORED_CODES.includes(i.code))
    .map((i) => `${i.code}@${String(i.hop)}`)
    .sort();

describe('permanent redirects: only tracking hops', () => {
  it('a shortener’s 301 is harmless (the cached target is still the tracking link)', async () => {
    const awin = healthyAwin(sw);
    sw.web.redirect('bit.ly', '/3AbCdEf', awin, { status: 301 });
    const result = await sw.check(sw.https('bit.ly', '/3AbCdEf'));
    expect(issueCodes(result), explain(result)).toEqual([]);
  });

  it('an aggregator’s 308 is reported at its hop', async () => {
    const awin = healthyAwin(sw);
    sw.web.redirect('go.skimresources.com', '/', awin, {
      status: 308,
      setCookies: [persistentCookie('skimGUID', 365, 'Domain=go.skimresources.com; Path=/; Secure; SameSite=None')],
    });
    const result = await sw.check(sw.https('go.skimresources.com', `/?id=114047X1572903&xs=1&url=${encodeURIComponent(awin)}`));
    expect(issuesAt(result), explain(result)).toEqual(['permanent_redirect@0', 'stacked_networks@null']);
    expect(result.willTrack).toBe(true);
  });

  it('a merchant’s own 301 (canonical URL keeping the query) is not a tracking hop', async () => {
    awinClick(sw, awinLanding(sw, '/Trainers/Running'));
    sw.web.redirect(SHOP, '/Trainers/Running', (ctx) => sw.https(SHOP, `${PRODUCT}${ctx.url.search}`), { status: 301 });
    shopPage(sw);
    const result = await sw.check(awinLink(sw, { ued: `https://${SHOP}/Trainers/Running` }));
    expect(issueCodes(result), explain(result)).toEqual([]);
    expect(result.hops.map((h) => h.status)).toEqual([302, 301, 200]);
  });
});

describe('storefront programmes: the shop records its own click id', () => {
  it('Amazon: a redirect inside amazon.com that drops tag loses nothing (Amazon received it)', async () => {
    sw.web.redirect('www.amazon.com', '/gp/product/B0EXAMPLE12', sw.https('www.amazon.com', '/dp/B0EXAMPLE12'), {
      status: 302,
      setCookies: AMAZON_COOKIES,
    });
    sw.web.page('www.amazon.com', '/dp/B0EXAMPLE12', { html: productHtml('Example product : Amazon.com'), setCookies: AMAZON_COOKIES });
    const result = await sw.check(sw.https('www.amazon.com', '/gp/product/B0EXAMPLE12?tag=examplepub-20&linkCode=ll1'));
    expect(result.willTrack, explain(result)).toBe(true);
    expect(result.networkId).toBe('amazon');
    expect(result.trackingParameterPresent).toBe(false); // a fact about the landing URL, not a fault
    expect(issueCodes(result)).toEqual([]);
  });

  it('Amazon: the same redirect as a 301 is cached, so repeat clicks skip the tag: permanent_redirect', async () => {
    sw.web.redirect('www.amazon.com', '/gp/product/B0EXAMPLE12', sw.https('www.amazon.com', '/dp/B0EXAMPLE12'), {
      status: 301,
      setCookies: AMAZON_COOKIES,
    });
    sw.web.page('www.amazon.com', '/dp/B0EXAMPLE12', { html: productHtml('Example product : Amazon.com'), setCookies: AMAZON_COOKIES });
    const result = await sw.check(sw.https('www.amazon.com', '/gp/product/B0EXAMPLE12?tag=examplepub-20&linkCode=ll1'));
    expect(issuesAt(result), explain(result)).toEqual(['permanent_redirect@0']);
    expect(result.willTrack).toBe(true);
  });

  it('Amazon: a redirect to another marketplace (amazon.co.uk) drops the US tag: stripped', async () => {
    sw.web.redirect('www.amazon.com', '/dp/B0EXAMPLE12', sw.https('www.amazon.co.uk', '/dp/B0EXAMPLE12'), { setCookies: AMAZON_COOKIES });
    sw.web.page('www.amazon.co.uk', '/dp/B0EXAMPLE12', {
      html: productHtml('Example product : Amazon.co.uk'),
      setCookies: [persistentCookie('session-id', 365, 'Domain=.amazon.co.uk; Path=/; Secure')],
    });
    const result = await sw.check(sw.https('www.amazon.com', '/dp/B0EXAMPLE12?tag=examplepub-20'));
    expect(issuesAt(result), explain(result)).toEqual(['tracking_parameter_stripped@0']);
    expect(result.willTrack).toBe(false);
  });

  it('Amazon: an empty tag earns nothing: missing', async () => {
    sw.web.page('www.amazon.com', '/dp/B0EXAMPLE12', { html: productHtml('Example product : Amazon.com'), setCookies: AMAZON_COOKIES });
    const result = await sw.check(sw.https('www.amazon.com', '/dp/B0EXAMPLE12?tag=&linkCode=ll1'));
    expect(issuesAt(result), explain(result)).toEqual(['tracking_parameter_missing@null']);
    expect(result.willTrack).toBe(false);
  });

  it('eBay: the legacy rover link records the click and redirects to the item without campid', async () => {
    const item = sw.https('www.ebay.com', '/itm/123456789012');
    sw.web.redirect('rover.ebay.com', '/rover/1/711-53200-19255-0/1', item, {
      setCookies: [persistentCookie('npii', 365, 'Domain=.ebay.com; Path=/; Secure')],
    });
    sw.web.page('www.ebay.com', '/itm/123456789012', { html: productHtml('Example item | eBay') });
    const link = sw.https(
      'rover.ebay.com',
      `/rover/1/711-53200-19255-0/1?icep_ff3=2&toolid=10001&campid=5338123456&customid=guide&mpre=${encodeURIComponent('https://www.ebay.com/itm/123456789012')}`,
    );
    const result = await sw.check(link);
    expect(result.networkId, explain(result)).toBe('ebay_partner_network');
    expect(result.willTrack).toBe(true);
    expect(issueCodes(result)).toEqual([]);
  });
});

describe('where the fix belongs', () => {
  it('a loop points at the hop whose redirect closes it and names the URL it revisits', async () => {
    awinClick(sw, awinLanding(sw));
    sw.web.redirect(SHOP, PRODUCT, (ctx) => sw.https('shop.example-shoes.co.uk', `${PRODUCT}${ctx.url.search}`), { status: 301 });
    sw.web.redirect('shop.example-shoes.co.uk', PRODUCT, (ctx) => sw.https(SHOP, `${PRODUCT}${ctx.url.search}`), { status: 301 });
    const result = await sw.check(awinLink(sw));
    const loop = result.issues.find((i) => i.code === 'redirect_loop');
    expect(loop?.hop, explain(result)).toBe(2);
    expect(loop?.description).toContain(result.hops[2]?.url ?? '?');
    expect(loop?.description).toContain(result.hops[1]?.url ?? '?');
  });

  it('Awin’s own fallback to the shop’s front page points at the Awin hop', async () => {
    awinClick(sw, awinLanding(sw, '/'));
    shopPage(sw, '/', { html: productHtml('Example Shoes') });
    const result = await sw.check(awinLink(sw, { ued: `https://${SHOP}/trainers/air-zoom-123` }));
    expect(issuesAt(result), explain(result)).toEqual(['homepage_fallback@0']);
  });

  it('bot protection behind a query-dropping redirect: the stripping is still proven', async () => {
    awinClick(sw, awinLanding(sw));
    sw.web.redirect(SHOP, PRODUCT, sw.https(SHOP, `${PRODUCT}/`), { status: 301 });
    sw.web.page(SHOP, `${PRODUCT}/`, {
      status: 403,
      html: '<title>Just a moment...</title><script>window._cf_chl_opt={}</script>',
      headers: { 'cf-mitigated': 'challenge' },
    });
    const result = await sw.check(awinLink(sw));
    expect(issuesAt(result), explain(result)).toEqual(['could_not_verify@2', 'tracking_parameter_stripped@1']);
    expect(result.willTrack).toBe(false);
  });

  it('a cookie the merchant sets server-side on its redirect stands in for a click id it drops', async () => {
    awinClick(sw, awinLanding(sw));
    sw.web.redirect(SHOP, PRODUCT, sw.https(SHOP, `${PRODUCT}/`), { status: 301, setCookies: [MASTERTAG_COOKIE] });
    shopPage(sw, `${PRODUCT}/`, { setCookies: [SESSION_COOKIE] });
    const result = await sw.check(awinLink(sw));
    expect(result.willTrack).toBe(true);
    expect(result.firstPartyCookieSet).toBe(true);
    expect(issuesAt(result)).toEqual(['tracking_parameter_stripped_cookie_set@1']);
  });
});

describe('cookies', () => {
  it('a short-lived first-party cookie (10 minutes, 0.0 days) still counts as set', async () => {
    awinClick(sw, awinLanding(sw));
    shopPage(sw, PRODUCT, { setCookies: ['visit=1; Max-Age=600; Path=/; Secure'] });
    const result = await sw.check(awinLink(sw));
    expect(result.firstPartyCookieSet, explain(result)).toBe(true);
    expect(result.cookieExpiryDays).toBe(0);
    expect(issueCodes(result)).toEqual([]);
  });
});
