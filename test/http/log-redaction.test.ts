// Nothing that lets a reader of the access log act as the caller is logged in clear: API keys, session tokens and
// the credential-carrying query parameters are masked wherever they sit in the URL (issue 13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskUrlTokens } from '../../src/http/log-redaction.js';
import { startService, type RunningService } from '../helpers/spawn-service.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const KEY = 'pg_live_0123abcd-4567-4def-8abc-0123456789ab';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXZhbHVl';

// Each URL carries a secret that must not survive in the log.
const SECRETS: Array<[url: string, secret: string]> = [
  [`/v1/checks?api_key=${KEY}`, KEY],
  [`/v1/checks?limit=1&API_KEY=plain-secret-1`, 'plain-secret-1'],
  [`/v1/keys/${KEY}`, KEY],
  [`/v1/checks?cursor=${KEY.replace('pg_live_', 'pg%5Flive%5F')}`, '0123abcd-4567'],
  ['/health?key=plain-secret-2', 'plain-secret-2'],
  ['/health?apikey=plain-secret-3&x=1', 'plain-secret-3'],
  ['/health?access_token=plain-secret-4#frag', 'plain-secret-4'],
  ['/health?api%5Fkey=plain-secret-5', 'plain-secret-5'],
  ['/health?Token=plain-secret-6', 'plain-secret-6'],
  [`/health?next=${JWT}`, 'c2lnbmF0dXJlLXZhbHVl'],
  [`/v1/checks/${JWT}`, 'c2lnbmF0dXJlLXZhbHVl'],
  ['/auth/login?token=plain-secret-7', 'plain-secret-7'],
];

describe('maskUrlTokens', () => {
  it('masks keys, tokens and credential parameters, and leaves the rest of the URL alone', () => {
    expect(maskUrlTokens(`/v1/checks?api_key=${KEY}&limit=5`)).toBe('/v1/checks?api_key=[redacted]&limit=5');
    expect(maskUrlTokens(`/x/${KEY}/y`)).toBe('/x/pg_live_[redacted]/y');
    expect(maskUrlTokens(`/r/x?next=${JWT}&monkey=1`)).toBe('/r/x?next=[redacted]&monkey=1');
    expect(maskUrlTokens('/v1/checks?limit=5&cursor=abc')).toBe('/v1/checks?limit=5&cursor=abc');
    for (const [url, secret] of SECRETS) expect(maskUrlTokens(url), url).not.toContain(secret);
  });
});

describe('the access log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ worker: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('never holds a key, a session token or a credential parameter in clear', async () => {
    for (const [url] of SECRETS) await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${KEY}` } });
    const log = t.logs();
    expect(log.match(/"msg":"request completed"/g)?.length).toBeGreaterThanOrEqual(SECRETS.length);
    for (const [url, secret] of SECRETS) expect(log, url).not.toContain(secret);
    expect(log).toContain('"url":"/v1/checks?api_key=[redacted]"');
    expect(log).toContain('"url":"/v1/keys/pg_live_[redacted]"');
  });
});

describe('the access log of the real process', () => {
  let service: RunningService;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-logs-'));
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_WORKER_CONCURRENCY: '0' });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('masks them on standard output too, also for a request refused before routing', async () => {
    for (const [url] of SECRETS) await fetch(`${service.url}${url}`);
    await fetch(`${service.url}/v1/checks/%zz?api_key=${KEY}`);
    await new Promise((r) => setTimeout(r, 200));
    const output = service.output();
    for (const [url, secret] of SECRETS) expect(output, url).not.toContain(secret);
    expect(output).toContain('"url":"/v1/checks/%zz?api_key=[redacted]"');
  });
});
