// The consent rules on their own: which scenario outcomes raise which issue (docs/consent.md).
import { describe, expect, it } from 'vitest';
import { findConsentIssues, type ConsentObservation } from '../../../src/checker/cmp/consent-findings.js';
import type { ScenarioResult } from '../../../src/checker/cmp/scenarios.js';

const COOKIE = '_aw_m_12345';
const scenario = (name: ScenarioResult['scenario'], clickIdPresent: boolean, cookies: string[] = []): ScenarioResult => ({
  scenario: name,
  clickIdPresent,
  attributionCookies: cookies,
});

function observe(overrides: Partial<ConsentObservation> = {}): ConsentObservation {
  return {
    platformName: 'OneTrust',
    bannerShown: true,
    choices: { accept: { clicked: true, via: 'platform' }, reject: { clicked: true, via: 'platform' } },
    noInteraction: scenario('no_interaction', true),
    acceptAll: scenario('accept_all', true, [COOKIE]),
    rejectAll: scenario('reject_all', true),
    network: 'Awin',
    cookieNamesKnown: true,
    waitedSeconds: 0.4,
    ...overrides,
  };
}

const codes = (obs: ConsentObservation): string[] => findConsentIssues(obs).map((issue) => issue.code);

describe('consent findings', () => {
  it('a compliant site: the cookie waits for consent and rejecting loses it', () => {
    expect(codes(observe())).toEqual(['attribution_blocked_until_consent', 'attribution_lost_on_reject']);
    const lost = findConsentIssues(observe()).find((i) => i.code === 'attribution_lost_on_reject');
    expect(lost).toMatchObject({ severity: 'warning', hop: null });
    expect(lost?.description).toContain('`_aw_m_12345`');
    expect(lost?.description).toContain('OneTrust');
  });

  it('a cookie before consent is flagged once (not also "despite reject")', () => {
    const all = [COOKIE];
    expect(
      codes(
        observe({
          noInteraction: scenario('no_interaction', true, all),
          acceptAll: scenario('accept_all', true, all),
          rejectAll: scenario('reject_all', true, all),
        }),
      ),
    ).toEqual(['attribution_cookie_before_consent']);
  });

  it('a cookie written after "reject all" only', () => {
    expect(
      codes(observe({ acceptAll: scenario('accept_all', true, [COOKIE]), rejectAll: scenario('reject_all', true, [COOKIE]) })),
    ).toEqual(['attribution_blocked_until_consent', 'attribution_cookie_despite_reject']);
  });

  it('accepting that throws the click id away is critical', () => {
    const issues = findConsentIssues(observe({ acceptAll: scenario('accept_all', false), rejectAll: scenario('reject_all', false) }));
    expect(issues.map((i) => [i.code, i.severity])).toEqual([['attribution_lost_after_accept', 'critical']]);
  });

  it('no banner at all, or a platform that showed none', () => {
    const none = {
      choices: { accept: null, reject: null },
      acceptAll: scenario('accept_all', true),
      rejectAll: scenario('reject_all', true),
    };
    expect(codes(observe({ ...none, platformName: null, bannerShown: false }))).toEqual(['consent_banner_not_found']);
    expect(codes(observe({ ...none, bannerShown: false }))).toEqual(['consent_banner_not_shown']);
  });

  it('a banner without a reject control', () => {
    const issues = findConsentIssues(
      observe({
        choices: { accept: { clicked: true, via: 'platform' }, reject: { clicked: false, via: null } },
        rejectAll: scenario('reject_all', true),
      }),
    );
    expect(issues.map((i) => i.code)).toEqual(['consent_button_not_found', 'attribution_blocked_until_consent']);
    expect(issues[0]?.description).toContain('"reject all"');
    expect(issues[0]?.fix).toContain('reject all');
  });

  it('judges nothing about attribution without a network, or cookies when the network names none', () => {
    expect(codes(observe({ network: null }))).toEqual([]);
    expect(codes(observe({ cookieNamesKnown: false }))).toEqual([]);
  });
});
