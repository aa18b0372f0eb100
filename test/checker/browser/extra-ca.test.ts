// TRACKCHECK_EXTRA_CA_CERTS in the browser: Chromium trusts the operator's private certificate authority
// (through an NSS database of its own, made with certutil), and only with it; no certificate switch is used.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserPool, type BrowserPool } from '../../../src/checker/browser/pool.js';
import { runCheck } from '../../../src/checker/check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, SKIP_REASON } from './browser-helpers.js';

describe.skipIf(CHROMIUM === null)('a private certificate authority for the browser', () => {
  let web: AffiliateWeb;
  let scratch: string;
  const pools: BrowserPool[] = [];
  const pool = (trustedCaCerts: string[]): BrowserPool => {
    const created = createBrowserPool({
      executablePath: CHROMIUM,
      resolve: web.resolve,
      scratchDir: path.join(scratch, String(pools.length)),
      trustedCaCerts,
    });
    pools.push(created);
    return created;
  };
  beforeAll(async () => {
    web = await startAffiliateWeb();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-ca-'));
    web.page('www.private-shop.example', '/p/1', '<title>Private shop</title>');
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await web?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('reaches an https page signed by the configured CA, and refuses it without the CA', async () => {
    const url = web.url('www.private-shop.example', '/p/1', true);
    const trusted = await runCheck(url, {
      checkType: 'cmp',
      browser: pool([web.caCert]),
      resolve: web.resolve,
      extraCaCerts: [web.caCert],
    });
    expect(trusted.finalStatus).toBe(200);
    expect(trusted.issues.map((issue) => issue.code)).not.toContain('landing_unreachable');

    const untrusted = await runCheck(url, { checkType: 'cmp', browser: pool([]), resolve: web.resolve });
    expect(untrusted.finalStatus).toBeNull();
    expect(untrusted.hops[0]?.error ?? '').toMatch(/certificate/i);
  });
});

if (CHROMIUM === null) console.warn(SKIP_REASON);
