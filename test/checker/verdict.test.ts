// The verdict (CONTRACT.md section 7) and the failures worth a retry, as pure functions.
import { describe, expect, it } from 'vitest';
import { describeNetError } from '../../src/checker/browser/net-errors.js';
import { describeRequestError } from '../../src/checker/net/http-client.js';
import { makeIssue, type IssueCode } from '../../src/checker/issues/catalogue.js';
import { isTransientError } from '../../src/checker/net/transient-errors.js';
import { checkVerdict, decideVerdict, VERDICT_EXIT_CODES, verdictKind } from '../../src/checker/analysis/verdict.js';
import type { NetworkRef } from '../../src/checker/types.js';

const AWIN: NetworkRef = { id: 'awin', name: 'Awin', role: 'network' };
const SKIM: NetworkRef = { id: 'skimlinks', name: 'Skimlinks', role: 'aggregator' };
const BITLY: NetworkRef = { id: 'bitly', name: 'Bitly', role: 'shortener' };
const issues = (...codes: IssueCode[]) => codes.map((code) => makeIssue(code));

describe('decideVerdict', () => {
  it.each([
    ['will_track exactly when willTrack is true', true, [], [AWIN], 'will_track'],
    ['a critical issue with a network is will_not_track', false, issues('tracking_parameter_stripped'), [AWIN], 'will_not_track'],
    ['a bot wall is could_not_verify, not broken', false, issues('could_not_verify'), [AWIN], 'could_not_verify'],
    ['a persistent timeout is could_not_verify', false, issues('landing_timeout'), [AWIN], 'could_not_verify'],
    ['the deadline is could_not_verify', false, issues('check_deadline_exceeded', 'landing_error_status'), [AWIN], 'could_not_verify'],
    ['an unfollowed script is could_not_verify', false, issues('script_redirect_unresolved'), [], 'could_not_verify'],
    ['a plain merchant page is no_tracking_found', false, issues('no_network_detected'), [], 'no_tracking_found'],
    ['a shortener alone is no_tracking_found', false, issues('no_network_detected'), [BITLY], 'no_tracking_found'],
    ['an aggregator counts as tracking', false, [], [SKIM], 'will_not_track'],
    [
      'a broken plain link is will_not_track (broken beats untracked)',
      false,
      issues('landing_unreachable', 'no_network_detected'),
      [],
      'will_not_track',
    ],
  ] as const)('%s', (_, willTrack, found, networks, expected) => {
    expect(decideVerdict({ willTrack, issues: found, networks })).toBe(expected);
  });

  it('is null until the check completes, and could_not_verify for a failed check', () => {
    const base = { willTrack: null, issues: [], networks: [] };
    expect(checkVerdict({ ...base, status: 'queued' })).toBeNull();
    expect(checkVerdict({ ...base, status: 'running' })).toBeNull();
    expect(checkVerdict({ ...base, status: 'failed' })).toBe('could_not_verify');
    expect(checkVerdict({ ...base, status: 'completed', willTrack: true, networks: [AWIN] })).toBe('will_track');
    expect(verdictKind({ ...base, status: 'running' })).toBe('pending');
    expect(verdictKind({ ...base, status: 'failed' })).toBe('failed');
  });

  it('maps to the CLI exit codes of the contract', () => {
    expect(VERDICT_EXIT_CODES).toEqual({ will_track: 0, will_not_track: 1, could_not_verify: 3, no_tracking_found: 3 });
  });
});

describe('isTransientError', () => {
  const code = (c: string) => Object.assign(new Error(c), { code: c });

  it('recognises every timeout and reset wording of the HTTP follower', () => {
    for (const c of [
      'ECONNRESET',
      'EPIPE',
      'UND_ERR_SOCKET',
      'ETIMEDOUT',
      'UND_ERR_CONNECT_TIMEOUT',
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT',
    ]) {
      expect(isTransientError(describeRequestError(code(c))), c).toBe(true);
    }
    expect(isTransientError('timed out after 10 s')).toBe(true);
    expect(isTransientError('check timed out after 30 s')).toBe(true);
  });

  it('recognises the browser’s timeouts and resets', () => {
    for (const c of ['ERR_CONNECTION_RESET', 'ERR_CONNECTION_CLOSED', 'ERR_EMPTY_RESPONSE', 'ERR_CONNECTION_TIMED_OUT', 'ERR_TIMED_OUT']) {
      expect(isTransientError(describeNetError(`net::${c}`, 'https://shop.example/')), c).toBe(true);
    }
  });

  it('leaves answers alone: DNS, refused, TLS, a malformed response', () => {
    for (const c of ['ECONNREFUSED', 'ENOTFOUND', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT']) {
      expect(isTransientError(describeRequestError(code(c))), c).toBe(false);
    }
    for (const c of ['ERR_NAME_NOT_RESOLVED', 'ERR_CONNECTION_REFUSED', 'ERR_CERT_AUTHORITY_INVALID', 'ERR_INVALID_RESPONSE']) {
      expect(isTransientError(describeNetError(`net::${c}`, 'https://shop.example/')), c).toBe(false);
    }
    expect(isTransientError(null)).toBe(false);
  });
});
