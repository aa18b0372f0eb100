// DuckDuckGo's autoconsent as the check uses it, without a browser: the pinned bundle and rules load from
// node_modules and are wrapped as expected; each frame gets the rules that can run in it; rule names map to
// platform ids; and the rules that decide who names the platform and who answers the banner.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAutoconsentAssets } from '../../../src/checker/cmp/autoconsent-assets.js';
import { DYNAMIC_RULE_NAMES, EXTRA_PLATFORMS, RULE_PLATFORM_IDS } from '../../../src/checker/cmp/autoconsent-platforms.js';
import { CONSENT_PLATFORMS } from '../../../src/checker/cmp/catalogue-data.js';
import { decideConsent } from '../../../src/checker/cmp/decide.js';
import { getConsentPlatform, type DetectedPlatform } from '../../../src/checker/cmp/detect.js';
import { isConsentCookie, platformForRule, snakeCaseId } from '../../../src/checker/cmp/rule-platform.js';

const assets = loadAutoconsentAssets();
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
  dependencies: Record<string, string>;
};
const docs = readFileSync(fileURLToPath(new URL('../../../docs/consent.md', import.meta.url)), 'utf8');

describe('the pinned autoconsent package', () => {
  it('is the exact version package.json pins, loaded from node_modules', () => {
    expect(pkg.dependencies['@duckduckgo/autoconsent']).toBe(assets.version);
    expect(assets.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('talks through our environment object only, never fixed globals on window', () => {
    const script = assets.wrap('null');
    expect(script).not.toContain('window.autoconsentSendMessage');
    expect(script).not.toContain('window.autoconsentReceiveMessage');
    expect(script).toContain('__tcEnv.send');
    // Its timers are the parameters the wrapper passes (the idle probe's uncounted ones).
    expect(script.startsWith('((__tcEnv) => __tcEnv && (function (__tcEnv, setTimeout, clearTimeout) {\n"use strict";')).toBe(true);
  });

  it('gives each frame the rules that can run there, never cosmetic ones', () => {
    const top = assets.rulesFor('https://www.example-shop.test/p/1', true).autoconsent;
    const frame = assets.rulesFor('https://ads.example-shop.test/frame', false).autoconsent;
    expect(top.length).toBeGreaterThan(100);
    expect(frame.length).toBeLessThan(top.length);
    for (const rule of [...top, ...frame]) {
      expect(rule.cosmetic, rule.name).not.toBe(true);
      expect(rule).not.toHaveProperty('_metadata');
    }
    // Site-specific rules only where their URL pattern matches.
    const names = new Set(top.map((rule) => rule.name));
    expect(names.has('aliexpress')).toBe(false);
    expect(assets.rulesFor('https://www.aliexpress.com/item/1.html', true).autoconsent.map((rule) => rule.name)).toContain('aliexpress');
    expect(names.has('ketch')).toBe(true);
  });
});

describe('autoconsent rule names → platform ids', () => {
  it('maps only rules the pinned bundle has (a renamed rule fails here, not in production)', () => {
    for (const rule of Object.keys(RULE_PLATFORM_IDS)) if (rule !== 'TrustArc-frame') expect(assets.ruleNames.has(rule), rule).toBe(true);
    const bundle = assets.wrap('null');
    for (const rule of DYNAMIC_RULE_NAMES) expect(bundle, rule).toContain(`name = "${rule}"`);
  });

  it('reaches every catalogue platform from a rule, with the contract id', () => {
    const mapped = new Set(Object.values(RULE_PLATFORM_IDS));
    for (const platform of CONSENT_PLATFORMS) expect(mapped.has(platform.id), platform.id).toBe(true);
  });

  it('names the platforms it adds, in snake_case, with sources, documented', () => {
    const catalogueIds = new Set(CONSENT_PLATFORMS.map((p) => p.id));
    for (const platform of EXTRA_PLATFORMS) {
      expect(platform.id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(catalogueIds.has(platform.id), platform.id).toBe(false);
      expect(platform.name.length).toBeGreaterThan(2);
      expect(platform.sources.length, platform.id).toBeGreaterThan(0);
      for (const source of platform.sources) expect(source).toMatch(/^https:\/\//);
      expect(docs, platform.id).toContain(`\`${platform.id}\``);
    }
    for (const id of Object.values(RULE_PLATFORM_IDS))
      expect(catalogueIds.has(id) || EXTRA_PLATFORMS.some((p) => p.id === id), id).toBe(true);
  });

  it('gives a site-specific rule no platform and any other rule its snake_case name', () => {
    expect(platformForRule('funding-choices', assets.siteSpecific)).toMatchObject({
      id: 'google_funding_choices',
      name: 'Google Funding Choices',
    });
    expect(platformForRule('Cybotcookiebot', assets.siteSpecific)).toMatchObject({ id: 'cookiebot', name: 'Cookiebot' });
    // A rule with a URL pattern answers one site's own banner; a generic rule named after a site keeps its name.
    expect(platformForRule('aliexpress', assets.siteSpecific)).toBeNull();
    expect(platformForRule('amazon.com', assets.siteSpecific)).toMatchObject({ id: 'amazon_com', name: 'amazon.com' });
    expect(platformForRule('Complianz categories', assets.siteSpecific)).toMatchObject({
      id: 'complianz_categories',
      name: 'Complianz categories',
    });
    expect(snakeCaseId('cookiefirst.com')).toBe('cookiefirst_com');
    expect(snakeCaseId('iWink')).toBe('i_wink');
  });

  it("tells a platform's record of the choice from the site's own cookies", () => {
    const onetrust = getConsentPlatform('onetrust');
    const complianz = getConsentPlatform('complianz');
    if (onetrust === undefined || complianz === undefined) throw new Error('catalogue entries missing');
    expect(isConsentCookie('OptanonConsent', onetrust)).toBe(true);
    expect(isConsentCookie('_aw_m_12345', onetrust)).toBe(false);
    expect(isConsentCookie('cmplz_marketing', complianz)).toBe(true);
  });
});

describe('who names the platform and who answers the banner', () => {
  const platform = (id: string) => {
    const found = getConsentPlatform(id);
    if (found === undefined) throw new Error(id);
    return found;
  };
  const seen = (id: string | null, bannerVisible: boolean, tcf = false): DetectedPlatform => ({
    platform: id === null ? null : platform(id),
    bannerVisible,
    tcf,
  });

  it('lets autoconsent answer a banner both recognise', () => {
    expect(decideConsent(seen('onetrust', true), 'Onetrust', assets.siteSpecific)).toMatchObject({
      platform: { id: 'onetrust' },
      rule: 'Onetrust',
    });
  });

  it('keeps our platform, and our controls, when its own banner shows and autoconsent names another', () => {
    const decision = decideConsent(seen('onetrust', true), 'cookieyes', assets.siteSpecific);
    expect(decision).toMatchObject({ platform: { id: 'onetrust', name: 'OneTrust' }, rule: null });
    expect(decision.catalogue?.id).toBe('onetrust');
  });

  it('follows autoconsent when our catalogue sees no banner of its own', () => {
    expect(decideConsent(seen('onetrust', false), 'ketch', assets.siteSpecific)).toMatchObject({
      platform: { id: 'ketch', name: 'Ketch' },
      catalogue: null,
      rule: 'ketch',
    });
    expect(decideConsent(seen(null, false, true), 'consentmanager.net', assets.siteSpecific)).toMatchObject({
      platform: { id: 'consentmanager' },
      rule: 'consentmanager.net',
    });
    // A site's own rule answers the banner, but names no platform.
    expect(decideConsent(seen(null, false), 'aliexpress', assets.siteSpecific)).toMatchObject({ platform: null, rule: 'aliexpress' });
  });

  it('falls back to the catalogue, then TCF, then nothing', () => {
    expect(decideConsent(seen('didomi', false), null, assets.siteSpecific)).toMatchObject({ platform: { id: 'didomi' }, rule: null });
    expect(decideConsent(seen(null, false, true), null, assets.siteSpecific)).toMatchObject({
      platform: { id: 'tcf', name: 'IAB TCF' },
      rule: null,
    });
    expect(decideConsent(seen(null, false), null, assets.siteSpecific)).toEqual({
      platform: null,
      catalogue: null,
      facts: null,
      rule: null,
    });
  });
});
