// Shared by the browser and consent suites: is there a Chromium to test with, and a pool that trusts the
// simulator's test certificates (through the test-only SPKI switch, never ignoreHTTPSErrors).
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import tls from 'node:tls';
import { loadConfig } from '../../../src/config.js';
import { createBrowserPool, type BrowserPool, type BrowserPoolOptions } from '../../../src/checker/browser/pool.js';
import type { AffiliateWeb } from '../../fixtures/affiliate-web.js';

/** The Chromium the service would use here (TRACKCHECK_CHROMIUM_PATH or /usr/bin/chromium), or null. */
export function findChromium(): string | null {
  const configured = loadConfig({
    TRACKCHECK_DATA_DIR: '/tmp',
    TRACKCHECK_CHROMIUM_PATH: process.env['TRACKCHECK_CHROMIUM_PATH'],
  }).chromiumPath;
  return configured !== null && existsSync(configured) ? configured : null;
}

export const CHROMIUM = findChromium();
export const SKIP_REASON = 'no Chromium binary here (set TRACKCHECK_CHROMIUM_PATH or install chromium): browser tests skipped';
if (CHROMIUM === null) console.warn(SKIP_REASON);

/**
 * base64 SHA-256 of the simulator's leaf public key. The test CA signs every leaf with one key, so one
 * hash covers every host name; Chromium accepts it through --ignore-certificate-errors-spki-list.
 */
export async function simulatorSpki(web: AffiliateWeb): Promise<string> {
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: web.httpsPort, servername: 'spki.test', rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate(false);
      socket.end();
      resolve(cert.raw);
    });
    socket.on('error', reject);
  });
  const spki = new X509Certificate(raw).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

export async function createSimulatorPool(web: AffiliateWeb, options: Partial<BrowserPoolOptions> = {}): Promise<BrowserPool> {
  const spki = await simulatorSpki(web);
  return createBrowserPool({
    executablePath: CHROMIUM,
    resolve: web.resolve,
    extraArgs: [`--ignore-certificate-errors-spki-list=${spki}`],
    ...options,
  });
}
