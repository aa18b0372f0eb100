// Cookie edge cases the end-to-end proof found: deletions, absurd lifetimes, SameSite=None without Secure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  awinClick,
  awinLanding,
  awinLink,
  MASTERTAG_COOKIE,
  PRODUCT,
  productHtml,
  SESSION_COOKIE,
  SHOP,
  shopPage,
} from '../../fixtures/scenarios/merchant.js';
import { explain, issueCodes, startScenarioWeb, type ScenarioWeb } from '../../fixtures/scenarios/scenario-web.js';

let sw: ScenarioWeb;
beforeAll(async () => {
  sw = await startScenarioWeb();
});
beforeEach(() => sw.web.reset());
afterAll(async () => {
  await sw.close();
});

describe('cookies (src/checker/analysis/cookies.ts)', () => {
  // Was a bug: storeResponseCookies drops a Set-Cookie that deletes a cookie (Max-Age=0 / past Expires) instead of
  // recording it, so trace.cookies still lists the deleted cookie and the analysis (which already handles
  // deletion records in standingCookies) counts it as set. Here the shop's redirect stores the click in the
  // MasterTag cookie while dropping awc, then the landing page deletes that cookie: the click is lost, yet the
  // check says it will track. Fix: return a record with expiryDays 0 (expiresAt in the past) for deletions, or
  // remove the earlier records it deletes.
  it('a cookie deleted by a later response no longer counts as set', async () => {
    awinClick(sw, awinLanding(sw));
    sw.web.redirect(SHOP, PRODUCT, sw.https(SHOP, `${PRODUCT}/`), { status: 301, setCookies: [MASTERTAG_COOKIE] });
    shopPage(sw, `${PRODUCT}/`, { setCookies: ['_aw_m_12345=; Max-Age=0; Domain=example-shoes.co.uk; Path=/', SESSION_COOKIE] });
    const result = await sw.check(awinLink(sw));
    expect(result.willTrack, explain(result)).toBe(false);
    expect(issueCodes(result)).toContain('tracking_parameter_stripped');
  });

  // Was a bug: toRecord computes `now + maxAge * 1000`; a huge Max-Age (a server sending 99999999999999) is past the
  // largest Date, `capped.toISOString()` throws RangeError, and runCheck rejects: the whole check crashes
  // (through the API: retried, then `failed` with check_crashed) although followChain promises never to
  // throw for anything the target does. Fix: clamp Max-Age before building the Date (the 400-day cap applies anyway).
  it('an absurd Max-Age is capped at 400 days instead of crashing the check', async () => {
    awinClick(sw, awinLanding(sw));
    shopPage(sw, PRODUCT, { setCookies: ['_aw_m_12345=1; Max-Age=99999999999999; Path=/; Secure'] });
    const result = await sw.check(awinLink(sw));
    expect(result.cookieExpiryDays).toBe(400);
    expect(result.willTrack).toBe(true);
  });

  // Was a bug: Chrome (since v80) and Firefox reject `SameSite=None` without `Secure`; the jar keeps it, so a
  // merchant whose attribution cookie lacks `Secure` is told its first-party cookie is set when shoppers'
  // browsers drop it. Fix: refuse SameSite=None cookies without Secure in storeResponseCookies.
  it('SameSite=None without Secure is refused, as browsers do', async () => {
    awinClick(sw, awinLanding(sw));
    shopPage(sw, PRODUCT, { html: productHtml(), setCookies: ['_aw_m_12345=1; Max-Age=31536000; Path=/; SameSite=None'] });
    const result = await sw.check(awinLink(sw));
    expect(
      result.cookies.map((c) => c.name),
      explain(result),
    ).not.toContain('_aw_m_12345');
    expect(result.firstPartyCookieSet).toBe(false);
  });

  // Was an attack (issue 13): a 20-hop chain setting 3,000 cookies per hop was stored as 60,000 cookie records.
  // At most 180 Set-Cookie headers are read per response (Chromium keeps 180 per domain) and 500 records per check.
  it('caps cookies: 180 read per response, 500 kept per check, a result of bounded size', async () => {
    const flood = (hop: number) => Array.from({ length: 600 }, (_, i) => `f${hop}_${i}=1; Path=/`);
    const hosts = ['www.cookie-flood-a.example', 'www.cookie-flood-b.example', 'www.cookie-flood-c.example', 'www.cookie-flood-d.example'];
    hosts.forEach((host, i) => {
      const next = i + 1 < hosts.length ? sw.https(hosts[i + 1] as string, '/r') : awinLink(sw);
      sw.web.redirect(host, '/r', next, { setCookies: flood(i) });
    });
    awinClick(sw, awinLanding(sw));
    shopPage(sw, PRODUCT);
    const result = await sw.check(sw.https(hosts[0] as string, '/r'));
    expect(result.hops.slice(0, 4).map((hop) => hop.cookies.length)).toEqual([180, 180, 140, 0]);
    expect(result.cookies).toHaveLength(500);
    expect(JSON.stringify(result).length).toBeLessThan(400_000);
  });
});
