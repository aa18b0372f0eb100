// The sign-in configuration: TRACKCHECK_OIDC_*, TRACKCHECK_SESSION_SECRET, TRACKCHECK_SESSION_TTL_HOURS.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('sign-in configuration', () => {
  it('defaults: no OpenID provider, a data-dir secret, 12-hour sessions', () => {
    const c = loadConfig({});
    expect(c.oidc).toBeNull();
    expect(c.sessionSecret).toBeNull();
    expect(c.sessionTtlSeconds).toBe(12 * 3600);
  });

  it('reads an OpenID provider with and without a client secret', () => {
    const full = loadConfig({
      TRACKCHECK_OIDC_ISSUER: 'https://id.example.com/realms/x',
      TRACKCHECK_OIDC_CLIENT_ID: 'tc',
      TRACKCHECK_OIDC_CLIENT_SECRET: 's3cret',
    });
    expect(full.oidc).toEqual({ issuer: 'https://id.example.com/realms/x', clientId: 'tc', clientSecret: 's3cret' });
    expect(loadConfig({ TRACKCHECK_OIDC_ISSUER: 'http://127.0.0.1:9000', TRACKCHECK_OIDC_CLIENT_ID: 'tc' }).oidc?.clientSecret).toBeNull();
  });

  it('names the variable of every invalid setting', () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ TRACKCHECK_OIDC_ISSUER: 'https://id.example.com' }, 'TRACKCHECK_OIDC_CLIENT_ID', /required with TRACKCHECK_OIDC_ISSUER/],
      [{ TRACKCHECK_OIDC_CLIENT_ID: 'tc' }, 'TRACKCHECK_OIDC_CLIENT_ID', /only applies with TRACKCHECK_OIDC_ISSUER/],
      [{ TRACKCHECK_OIDC_CLIENT_SECRET: 's' }, 'TRACKCHECK_OIDC_CLIENT_SECRET', /only applies with TRACKCHECK_OIDC_ISSUER/],
      [{ TRACKCHECK_OIDC_ISSUER: 'not a url', TRACKCHECK_OIDC_CLIENT_ID: 'tc' }, 'TRACKCHECK_OIDC_ISSUER', /not a valid URL/],
      [{ TRACKCHECK_OIDC_ISSUER: 'ftp://id.example.com', TRACKCHECK_OIDC_CLIENT_ID: 'tc' }, 'TRACKCHECK_OIDC_ISSUER', /http or https/],
      [
        { TRACKCHECK_OIDC_ISSUER: 'https://id.example.com/?tenant=1', TRACKCHECK_OIDC_CLIENT_ID: 'tc' },
        'TRACKCHECK_OIDC_ISSUER',
        /bare issuer/,
      ],
      [{ TRACKCHECK_SESSION_SECRET: 'too short' }, 'TRACKCHECK_SESSION_SECRET', /at least 32 bytes/],
      [{ TRACKCHECK_SESSION_TTL_HOURS: '0' }, 'TRACKCHECK_SESSION_TTL_HOURS', /between 1 and 720/],
      [{ TRACKCHECK_SESSION_TTL_HOURS: 'forever' }, 'TRACKCHECK_SESSION_TTL_HOURS', /whole number/],
    ];
    for (const [env, variable, message] of cases) {
      const err = errorOf(env);
      expect(err.variable, JSON.stringify(env)).toBe(variable);
      expect(err.message).toMatch(new RegExp(`^${variable}: `));
      expect(err.message).toMatch(message);
    }
  });
});
