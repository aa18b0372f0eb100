// cmp checks in real Chromium against fixtures imitating each platform's banner: every catalogue platform,
// every platform only autoconsent knows, the second layouts (Usercentrics v3's shadow root, TrustArc's
// cross-origin iframe) and the TCF fallback are detected with the right id; the three scenarios give the
// expected Awin attribution cookie — none before consent, `_aw_m_12345` after "accept all", none after
// "reject all"; misbehaving merchants, banners and pages give their issues. Skipped only when no Chromium
// binary exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../../src/checker/browser/pool.js';
import { runCheck } from '../../../src/checker/check.js';
import type { CheckResult } from '../../../src/checker/types.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { installConsentSites, PLATFORM_SITES, type ConsentSites, type SiteKey } from '../../fixtures/cmp/consent-sites.js';
import { ATTRIBUTION_COOKIE } from '../../fixtures/cmp/merchant-tag.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from '../browser/browser-helpers.js';

const SPECIAL: SiteKey[] = ['eager', 'reload', 'plain', 'custom', 'forged'];
const codesOf = (result: CheckResult): string[] => result.issues.map((issue) => issue.code);

describe.skipIf(CHROMIUM === null)(`cmp checks in Chromium${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let sites: ConsentSites;
  let pool: BrowserPool;
  const results = new Map<SiteKey, CheckResult>();

  beforeAll(async () => {
    web = await startAffiliateWeb();
    sites = installConsentSites(web);
    pool = await createSimulatorPool(web, { concurrency: 4 });
    // All sites at once: the pool runs four at a time, as it would under load.
    const all = await Promise.all(
      [...PLATFORM_SITES.map(({ site }) => site), ...SPECIAL].map(
        async (site) => [site, await runCheck(sites.link(site), { checkType: 'cmp', resolve: web.resolve, browser: pool })] as const,
      ),
    );
    for (const [site, result] of all) results.set(site, result);
    expect(pool.stats().launches).toBe(1);
  }, 360_000);
  afterAll(async () => {
    await pool?.close();
    await web?.close();
  });

  const result = (site: SiteKey): CheckResult => {
    const found = results.get(site);
    if (found === undefined) throw new Error(`no result for ${site}`);
    return found;
  };

  it.each(PLATFORM_SITES)('$site: detected as $id; the attribution cookie exists only after "accept all"', ({ site, id }) => {
    const r = result(site);
    expect(r.mode).toBe('browser');
    expect(r.consent?.platform?.id, JSON.stringify(r.consent)).toBe(id);
    expect(r.consent?.scenarios).toEqual([
      { scenario: 'no_interaction', clickIdPresent: true, attributionCookies: [] },
      { scenario: 'accept_all', clickIdPresent: true, attributionCookies: [ATTRIBUTION_COOKIE] },
      { scenario: 'reject_all', clickIdPresent: true, attributionCookies: [] },
    ]);
    expect(codesOf(r)).toEqual(expect.arrayContaining(['attribution_blocked_until_consent', 'attribution_lost_on_reject']));
    expect(codesOf(r)).not.toContain('consent_button_not_found');
    expect(codesOf(r)).not.toContain('attribution_cookie_before_consent');
    // The banner explains the missing first-party cookie better than the generic warning.
    expect(codesOf(r)).not.toContain('first_party_cookie_missing');
    // Rejecting costs commission, it does not break the link: the verdict follows the shopper who accepts.
    expect(r.willTrack).toBe(true);
    expect(r.healthScore).toBeGreaterThan(40);
  });

  it('names the platforms the contract lists, and those only autoconsent knows, with display names', () => {
    expect(result('quantcast').consent?.platform).toEqual({ id: 'quantcast', name: 'Quantcast Choice' });
    expect(result('tcf').consent?.platform).toEqual({ id: 'tcf', name: 'IAB TCF' });
    expect(result('consentmanager').consent?.platform).toEqual({ id: 'consentmanager', name: 'consentmanager.net' });
    expect(result('google_funding_choices').consent?.platform).toEqual({ id: 'google_funding_choices', name: 'Google Funding Choices' });
    expect(result('borlabs').consent?.platform).toEqual({ id: 'borlabs', name: 'Borlabs Cookie' });
  });

  it('never evaluates what a page sends to the consent engine, nor takes its word for a platform', () => {
    // The page finds the engine's binding and sends it an eval request that would write the attribution
    // cookie, and a banner report for a rule that does not exist.
    const r = result('forged');
    expect(r.consent?.platform).toBeNull();
    expect(r.consent?.scenarios.map((s) => s.attributionCookies)).toEqual([[], [], []]);
    expect(codesOf(r)).toContain('consent_banner_not_found');
  });

  it('flags a merchant tag that writes the attribution cookie before consent', () => {
    const r = result('eager');
    expect(r.consent?.platform?.id).toBe('onetrust');
    expect(r.consent?.scenarios.map((s) => s.attributionCookies)).toEqual([
      [ATTRIBUTION_COOKIE],
      [ATTRIBUTION_COOKIE],
      [ATTRIBUTION_COOKIE],
    ]);
    expect(codesOf(r)).toContain('attribution_cookie_before_consent');
    expect(codesOf(r)).not.toContain('attribution_lost_on_reject');
    expect(r.willTrack).toBe(true);
  });

  it('makes a banner whose "accept" reload drops the click id a critical issue (willTrack false)', () => {
    const r = result('reload');
    expect(r.consent?.scenarios.find((s) => s.scenario === 'accept_all')).toEqual({
      scenario: 'accept_all',
      clickIdPresent: false,
      attributionCookies: [],
    });
    expect(r.issues.find((i) => i.code === 'attribution_lost_after_accept')?.severity).toBe('critical');
    expect(r.willTrack).toBe(false);
    expect(r.healthScore).toBeLessThanOrEqual(40);
  });

  it('reports no banner when there is none, with three identical scenarios', () => {
    const r = result('plain');
    expect(r.consent?.platform).toBeNull();
    expect(new Set(r.consent?.scenarios.map((s) => JSON.stringify({ ...s, scenario: '' })))).toHaveLength(1);
    expect(codesOf(r)).toContain('consent_banner_not_found');
  });

  it('clicks a hand-made banner by its words (French) when no platform is known', () => {
    const r = result('custom');
    expect(r.consent?.platform).toBeNull();
    expect(r.consent?.scenarios.map((s) => s.attributionCookies)).toEqual([[], [ATTRIBUTION_COOKIE], []]);
    expect(codesOf(r)).not.toContain('consent_banner_not_found');
    expect(codesOf(r)).toContain('attribution_lost_on_reject');
  });

  it('keeps cookie values out of every result', () => {
    for (const r of results.values()) expect(JSON.stringify(r)).not.toMatch(/12345_[a-z0-9-]+_7f3a";|"value"/);
  });
});
