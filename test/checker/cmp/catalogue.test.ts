// The consent-platform catalogue is data with sources: contract ids, selectors for both choices, sources
// on every entry, documented in docs/consent.md; platform choice from page signals; the button words.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACCEPT_TEXTS, phrasesFor, REJECT_TEXTS } from '../../../src/checker/cmp/button-texts.js';
import { CONSENT_PLATFORMS, TCF_PLATFORM } from '../../../src/checker/cmp/catalogue-data.js';
import { choosePlatform, platformRef } from '../../../src/checker/cmp/detect.js';

const CONTRACT_IDS = [
  'onetrust',
  'cookiebot',
  'didomi',
  'usercentrics',
  'quantcast',
  'trustarc',
  'sourcepoint',
  'cookieyes',
  'complianz',
  'iubenda',
  'osano',
  'axeptio',
  'klaro',
];
const docs = readFileSync(fileURLToPath(new URL('../../../docs/consent.md', import.meta.url)), 'utf8');

describe('consent platform catalogue', () => {
  it('holds exactly the contract ids, once each, plus the tcf fallback', () => {
    expect(CONSENT_PLATFORMS.map((p) => p.id).sort()).toEqual([...CONTRACT_IDS].sort());
    expect(TCF_PLATFORM.id).toBe('tcf');
  });

  it('every entry can be detected, clicked both ways, and says where that comes from', () => {
    for (const p of CONSENT_PLATFORMS) {
      expect(p.name.length, p.id).toBeGreaterThan(2);
      expect(p.scripts.length + p.banner.length, p.id).toBeGreaterThan(0);
      for (const part of p.scripts) expect(part, p.id).toBe(part.toLowerCase());
      for (const choice of [p.accept, p.reject]) {
        expect(choice.length, p.id).toBeGreaterThan(0);
        for (const path of choice) expect(path.length, p.id).toBeGreaterThan(0);
      }
      expect(p.sources.length, p.id).toBeGreaterThan(0);
      for (const source of p.sources) expect(source, p.id).toMatch(/^https:\/\//);
    }
  });

  it('is documented in docs/consent.md, every platform with its id', () => {
    for (const id of [...CONTRACT_IDS, 'tcf']) expect(docs, id).toContain(`| \`${id}\` |`);
  });
});

describe('choosing the platform from page signals', () => {
  const evidence = (id: string, e: Partial<{ script: boolean; global: boolean; banner: boolean; bannerVisible: boolean }>) => ({
    id,
    script: false,
    global: false,
    banner: false,
    bannerVisible: false,
    ...e,
  });

  it('prefers a visible banner, then markup, then the platform script', () => {
    const signals = {
      tcf: true,
      platforms: [evidence('onetrust', { script: true }), evidence('quantcast', { script: true, banner: true, bannerVisible: true })],
    };
    expect(platformRef(choosePlatform(signals))).toEqual({ id: 'quantcast', name: 'Quantcast Choice' });
  });

  it('needs more than a lone global (a site may name its own variable klaro)', () => {
    expect(platformRef(choosePlatform({ tcf: false, platforms: [evidence('klaro', { global: true })] }))).toBeNull();
  });

  it('falls back to tcf only when no known platform is there', () => {
    expect(platformRef(choosePlatform({ tcf: true, platforms: [] }))).toEqual({ id: 'tcf', name: 'IAB TCF' });
    expect(choosePlatform({ tcf: true, platforms: [evidence('didomi', { banner: true })] })).toMatchObject({ tcf: false });
  });
});

describe('accept / reject words', () => {
  it('covers the common European languages both ways', () => {
    for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da']) {
      expect(ACCEPT_TEXTS[lang]?.length, lang).toBeGreaterThan(0);
      expect(REJECT_TEXTS[lang]?.length, lang).toBeGreaterThan(0);
    }
  });

  it('puts every "… all" form before any one-word label, and never mixes the two choices', () => {
    const accept = phrasesFor('accept');
    expect(accept.indexOf('accept all')).toBeLessThan(accept.indexOf('accept'));
    expect(accept.indexOf('alle akzeptieren')).toBeLessThan(accept.indexOf('ok'));
    const reject = new Set(phrasesFor('reject'));
    expect(accept.filter((phrase) => reject.has(phrase))).toEqual([]);
    for (const phrase of [...accept, ...reject]) expect(phrase).toBe(phrase.toLowerCase().trim());
  });
});
