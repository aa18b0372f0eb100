// The closed set of error codes (src/contract/errors.ts): each code has one status and one type, the OpenAPI
// error descriptions name it under that status, and every error (domain, dependency, framework) becomes one of them.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS, errorStatus } from '../../src/contract/errors.js';
import { ERROR_DESCRIPTIONS } from '../../src/contract/common.js';
import { toApiError } from '../../src/http/errors.js';
import { DomainError, type DomainErrorCode } from '../../src/services/domain-error.js';
import { IdentityProviderUnavailable } from '../../src/auth/errors.js';
import { RateLimitStoreUnavailable } from '../../src/rate-limit/store.js';

const TYPES = ['invalid_request_error', 'authentication_error', 'usage_limit_error', 'api_error'];

describe('the closed set of error codes', () => {
  it.each(ERROR_CODES)('%s has an error status, a type, and is named in the OpenAPI description of its status', (code) => {
    const [status, type] = ERRORS[code];
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(TYPES).toContain(type);
    expect(ERROR_DESCRIPTIONS[status], `no OpenAPI error description for ${status}`).toBeDefined();
    expect(ERROR_DESCRIPTIONS[status]).toMatch(new RegExp(`\\b${code}\\b`));
  });

  it('describes no status that no code has', () => {
    const statuses = new Set(ERROR_CODES.map(errorStatus));
    expect(
      Object.keys(ERROR_DESCRIPTIONS)
        .map(Number)
        .filter((s) => !statuses.has(s)),
    ).toEqual([]);
  });

  it('gives a domain error the status and type of its code', () => {
    const codes: DomainErrorCode[] = ['invalid_parameter', 'not_found', 'too_many_scans', 'anonymous_check_limit_reached'];
    for (const code of codes) {
      const err = toApiError(new DomainError(code, 'no', { 'retry-after': '3' }));
      expect([err.status, err.type, err.code, err.headers]).toEqual([ERRORS[code][0], ERRORS[code][1], code, { 'retry-after': '3' }]);
    }
  });

  it('answers every unreachable dependency with the one 503 (the API and the pages both map errors through toApiError)', () => {
    const database = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const err of [database, new IdentityProviderUnavailable('jwks down'), new RateLimitStoreUnavailable(new Error('redis down'))]) {
      const answer = toApiError(err);
      expect([answer.status, answer.type, answer.code, answer.headers['retry-after']]).toEqual([
        503,
        'api_error',
        'service_unavailable',
        '5',
      ]);
    }
    expect(toApiError(new Error('a bug')).code).toBe('internal_error');
  });
});
