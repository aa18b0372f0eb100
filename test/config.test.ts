import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createTestCa } from './fixtures/tls.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: `sqlite:${path.resolve('./data/trackcheck.db')}`,
      redisUrl: null,
      publicUrl: 'http://127.0.0.1:3000',
      rateLimit: 60,
      anonRateLimit: 20,
      anonWeeklyChecks: 3,
      trustProxy: false,
      syncWaitMs: 25000,
      workerConcurrency: 32,
      perHostConcurrency: 4,
      browserConcurrency: 4,
      scanMaxPages: 20,
    });
    expect(c.identity).toEqual({ mode: 'embedded', dataDir: path.resolve('./data') });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      TRACKCHECK_DATA_DIR: '/tmp/tc',
      TRACKCHECK_DATABASE_URL: 'postgres://u@db:5432/tc',
      TRACKCHECK_REDIS_URL: 'redis://cache:6379',
      TRACKCHECK_PUBLIC_URL: 'https://trackcheck.example/',
      TRACKCHECK_JWKS_URL: 'https://idp.example/jwks.json',
      TRACKCHECK_JWT_ISSUER: 'https://idp.example/',
      TRACKCHECK_JWT_AUDIENCE: 'tc',
      TRACKCHECK_RATE_LIMIT: '100',
      TRACKCHECK_ANON_RATE_LIMIT: '5',
      TRACKCHECK_ANON_WEEKLY_CHECKS: '10',
      TRACKCHECK_TRUST_PROXY: 'true',
      TRACKCHECK_RESOLVE: 'www.awin1.com=127.0.0.1',
      TRACKCHECK_CHROMIUM_PATH: '/opt/chromium',
      TRACKCHECK_SYNC_WAIT_MS: '1000',
      TRACKCHECK_WORKER_CONCURRENCY: '0',
      TRACKCHECK_PER_HOST_CONCURRENCY: '2',
      TRACKCHECK_BROWSER_CONCURRENCY: '8',
      TRACKCHECK_SCAN_MAX_PAGES: '5',
    });
    expect(c).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db:5432/tc',
      redisUrl: 'redis://cache:6379',
      publicUrl: 'https://trackcheck.example',
      rateLimit: 100,
      anonRateLimit: 5,
      anonWeeklyChecks: 10,
      trustProxy: 1,
      chromiumPath: '/opt/chromium',
      syncWaitMs: 1000,
      workerConcurrency: 0,
      perHostConcurrency: 2,
      browserConcurrency: 8,
      scanMaxPages: 5,
    });
    expect(c.resolve.exact.get('www.awin1.com')).toBe('127.0.0.1');
    expect(c.identity).toEqual({ mode: 'jwks', jwksUrl: 'https://idp.example/jwks.json', issuer: 'https://idp.example/', audience: 'tc' });
  });

  it('names the variable of every bad value', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ TRACKCHECK_DATABASE_URL: 'mysql://x' }, 'TRACKCHECK_DATABASE_URL'],
      [{ TRACKCHECK_REDIS_URL: 'http://x' }, 'TRACKCHECK_REDIS_URL'],
      [{ TRACKCHECK_PUBLIC_URL: 'not a url' }, 'TRACKCHECK_PUBLIC_URL'],
      [{ TRACKCHECK_RATE_LIMIT: '-1' }, 'TRACKCHECK_RATE_LIMIT'],
      [{ TRACKCHECK_ANON_RATE_LIMIT: '1.5' }, 'TRACKCHECK_ANON_RATE_LIMIT'],
      [{ TRACKCHECK_ANON_WEEKLY_CHECKS: 'many' }, 'TRACKCHECK_ANON_WEEKLY_CHECKS'],
      [{ TRACKCHECK_TRUST_PROXY: 'maybe' }, 'TRACKCHECK_TRUST_PROXY'],
      [{ TRACKCHECK_TRUST_PROXY: 'lb.internal' }, 'TRACKCHECK_TRUST_PROXY'],
      [{ TRACKCHECK_TRUST_PROXY: '10.0.0.0/33' }, 'TRACKCHECK_TRUST_PROXY'],
      [{ TRACKCHECK_SYNC_WAIT_MS: 'soon' }, 'TRACKCHECK_SYNC_WAIT_MS'],
      [{ TRACKCHECK_SCAN_MAX_PAGES: '0' }, 'TRACKCHECK_SCAN_MAX_PAGES'],
      [{ TRACKCHECK_JWT_SECRET: 'short' }, 'TRACKCHECK_JWT_SECRET'],
      [{ TRACKCHECK_JWKS_URL: 'ftp://idp' }, 'TRACKCHECK_JWKS_URL'],
      [{ TRACKCHECK_JWT_ISSUER: 'https://idp' }, 'TRACKCHECK_JWT_ISSUER'],
      [{ TRACKCHECK_LOG_LEVEL: 'loud' }, 'TRACKCHECK_LOG_LEVEL'],
      [{ TRACKCHECK_RESOLVE: 'www.awin1.com=not-an-ip' }, 'TRACKCHECK_RESOLVE'],
      [{ TRACKCHECK_BROWSER_CONCURRENCY: '0' }, 'TRACKCHECK_BROWSER_CONCURRENCY'],
      [{ TRACKCHECK_METRICS_TOKEN: 'short' }, 'TRACKCHECK_METRICS_TOKEN'],
      [{ TRACKCHECK_METRICS_TOKEN: 'has spaces in it, 16+ chars' }, 'TRACKCHECK_METRICS_TOKEN'],
      [{ TRACKCHECK_BROWSER_CONCURRENCY: '65' }, 'TRACKCHECK_BROWSER_CONCURRENCY'],
    ];
    for (const [env, variable] of cases) {
      const err = configError(env);
      expect(err.variable, JSON.stringify(env)).toBe(variable);
      expect(err.message).toContain(variable);
    }
  });

  it('refuses both verification modes at once, naming both variables', () => {
    const err = configError({ TRACKCHECK_JWKS_URL: 'https://idp.example/jwks', TRACKCHECK_JWT_SECRET: 'x'.repeat(40) });
    expect(err.message).toContain('TRACKCHECK_JWKS_URL');
    expect(err.message).toContain('TRACKCHECK_JWT_SECRET');
  });

  it('reads TRACKCHECK_EXTRA_CA_CERTS as a PEM bundle, one certificate each, and names the variable when it is unusable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-config-'));
    const [a, b] = [await createTestCa(), await createTestCa()];
    const bundle = path.join(dir, 'bundle.pem');
    writeFileSync(bundle, `# two private CAs\n${a.caCert}\n${b.caCert}`);
    expect(loadConfig({}).extraCaCerts).toEqual([]);
    const certs = loadConfig({ TRACKCHECK_EXTRA_CA_CERTS: bundle }).extraCaCerts;
    expect(certs).toHaveLength(2);
    expect(certs[0]).toContain(a.caCert.trim());
    expect(certs[1]).toContain(b.caCert.trim());
    writeFileSync(path.join(dir, 'empty.pem'), 'no certificate here');
    writeFileSync(path.join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    for (const file of ['missing.pem', 'empty.pem', 'broken.pem']) {
      const err = configError({ TRACKCHECK_EXTRA_CA_CERTS: path.join(dir, file) });
      expect(err.variable).toBe('TRACKCHECK_EXTRA_CA_CERTS');
    }
    await Promise.all([a.dispose(), b.dispose()]);
  });
});
