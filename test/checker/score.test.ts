import { describe, expect, it } from 'vitest';
import { makeIssue, type IssueCode } from '../../src/checker/issues/catalogue.js';
import { computeHealthScore, sortIssues } from '../../src/checker/analysis/score.js';

const issues = (...list: IssueCode[]) => list.map((code) => makeIssue(code));

describe('healthScore', () => {
  it.each<[string, IssueCode[], boolean, number]>([
    ['no issue', [], true, 100],
    ['one info', ['no_network_detected'], true, 98],
    [
      'infos beyond three do not count',
      ['no_network_detected', 'meta_refresh_redirect', 'javascript_redirect', 'third_party_cookie_missing'],
      true,
      94,
    ],
    ['one warning', ['stacked_networks'], true, 92],
    ['two warnings and an info', ['stacked_networks', 'insecure_hop', 'javascript_redirect'], true, 82],
    [
      'many warnings never go below 45 without a critical',
      [
        'stacked_networks',
        'insecure_hop',
        'slow_redirect_chain',
        'permanent_redirect',
        'unresolved_macro',
        'parameter_lost',
        'soft_404',
        'first_party_cookie_missing',
      ],
      true,
      45,
    ],
    ['could not verify caps at 60', ['could_not_verify'], false, 60],
    ['unresolved script redirect caps at 60', ['script_redirect_unresolved', 'no_network_detected'], false, 60],
    [
      'could not verify with five more warnings: the penalties apply below the cap',
      ['could_not_verify', 'insecure_hop', 'slow_redirect_chain', 'stacked_networks', 'permanent_redirect', 'unresolved_macro'],
      false,
      52,
    ],
    ['willTrack false without a critical also caps at 60', ['no_network_detected'], false, 60],
    ['one critical: 40', ['tracking_parameter_missing'], false, 40],
    [
      'one critical, two warnings, one info',
      ['tracking_parameter_stripped', 'insecure_hop', 'stacked_networks', 'no_network_detected'],
      false,
      35,
    ],
    ['two criticals', ['homepage_fallback', 'tracking_parameter_missing'], false, 30],
    [
      'privacy-tool warnings are listed, never scored',
      ['click_id_stripped_by_privacy_tools', 'tracker_skipped_by_privacy_tools'],
      true,
      100,
    ],
    ['a landing timeout caps at 60 like any unknown', ['landing_timeout'], false, 60],
    [
      'never below 0',
      ['landing_error_status', 'homepage_fallback', 'tracking_parameter_missing', 'tracking_parameter_stripped', 'redirect_loop'],
      false,
      0,
    ],
  ])('%s', (_name, codes, willTrack, expected) => {
    expect(computeHealthScore(issues(...codes), willTrack)).toBe(expected);
  });

  it('a critical issue always scores at most 40, none at least 45', () => {
    const warnings: IssueCode[] = [
      'stacked_networks',
      'insecure_hop',
      'slow_redirect_chain',
      'permanent_redirect',
      'unresolved_macro',
      'parameter_lost',
    ];
    for (let n = 0; n <= warnings.length; n += 1) {
      const w = warnings.slice(0, n);
      expect(computeHealthScore(issues('tracking_parameter_missing', ...w), false)).toBeLessThanOrEqual(40);
      expect(computeHealthScore(issues(...w), true)).toBeGreaterThanOrEqual(45);
      expect(Number.isInteger(computeHealthScore(issues(...w), true))).toBe(true);
    }
  });
});

describe('sortIssues', () => {
  it('orders critical → warning → info and keeps the order within a severity', () => {
    const sorted = sortIssues(
      issues(
        'no_network_detected',
        'insecure_hop',
        'homepage_fallback',
        'javascript_redirect',
        'stacked_networks',
        'tracking_parameter_missing',
      ),
    );
    expect(sorted.map((issue) => issue.code)).toEqual([
      'homepage_fallback',
      'tracking_parameter_missing',
      'insecure_hop',
      'stacked_networks',
      'no_network_detected',
      'javascript_redirect',
    ]);
  });
});
