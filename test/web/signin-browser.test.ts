// Sign-in and the signed-in pages in a real Chromium against a real service (the CLI as a child process):
// OpenID Connect with a real local provider (oidc-provider, PKCE), create an API key in the UI → use it with curl →
// revoke it in the UI → curl gets 401; forms without their CSRF token refused (also posted from another origin);
// the embedded provider's one-time sign-in link, without JavaScript; a batch upload followed to its CSV.
// Saves test-artifacts/settings-page.png.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startService, type RunningService } from '../helpers/spawn-service.js';
import { startReportWeb, type ReportWeb } from './report-fixtures.js';
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from './signin-oidc-provider.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

const CHROMIUM = process.env.TRACKCHECK_CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
// Besides the visitor switches, Chromium resolves nothing but 127.0.0.1: the pages under test must never reach out
// anywhere else.
const ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
const ARTIFACTS = path.resolve('test-artifacts');

if (!HAS_CHROMIUM) {
  console.warn(`sign-in browser tests SKIPPED: no Chromium binary at ${CHROMIUM} (install chromium or set TRACKCHECK_CHROMIUM_PATH)`);
}

function curl(url: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '--max-time', '10', '-H', `Authorization: Bearer ${key}`, '-w', '\n%{http_code}', url], (err, stdout) => {
      if (err) return reject(err);
      const at = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) });
    });
  });
}

/** A page on another origin that posts a form to trackcheck, as a malicious site would. */
async function startEvilSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Win a prize</title><form method="post" action="${target}/settings/keys"><input name="name" value="planted by evil"><button>Claim</button></form>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections(); // Chromium keeps connections alive; close() alone would wait for them
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!HAS_CHROMIUM)(`sign-in and settings in Chromium (${CHROMIUM})`, () => {
  let idp: TestOidcProvider;
  let fixture: ReportWeb;
  let service: RunningService;
  let dataDir: string;
  let profiles: string;

  beforeAll(async () => {
    idp = await startOidcProvider();
    fixture = await startReportWeb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-signin-'));
    profiles = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    service = await startService({
      TRACKCHECK_DATA_DIR: dataDir,
      TRACKCHECK_RESOLVE: fixture.web.resolveSpec,
      TRACKCHECK_OIDC_ISSUER: idp.issuer,
      TRACKCHECK_OIDC_CLIENT_ID: CLIENT_ID,
      TRACKCHECK_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    });
    // The provider learns the redirect URI once the service has its port.
    await idp.configure(`${service.url}/auth/callback`);
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await idp?.close();
    await fixture?.web.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profiles, { recursive: true, force: true });
  });

  async function launch(name: string, javaScriptEnabled = true): Promise<BrowserContext> {
    return launchVisitor(CHROMIUM, path.join(profiles, name), {
      args: ARGS,
      acceptDownloads: true,
      javaScriptEnabled,
      viewport: { width: 1200, height: 900 },
    });
  }

  function watchProblems(page: Page): string[] {
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => problems.push(err.message));
    return problems;
  }

  it('signs in with OpenID Connect, creates a key, uses it with curl, revokes it: curl gets 401', async () => {
    const context = await launch('oidc');
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(`${service.url}/settings/keys`);
      await page.waitForURL(/\/auth\/signin\?next=%2Fsettings%2Fkeys$/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'signin-page.png'), fullPage: true });
      await page.getByRole('link', { name: /^Sign in with 127\.0\.0\.1:\d+$/ }).click();
      await page.waitForURL(new RegExp(`^${idp.issuer}/interaction/`));
      await page.getByLabel('Username').fill('alice');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${service.url}/settings/keys`);
      expect(await page.locator('.account').textContent()).toContain('Signed in as alice@example.test');
      expect(idp.seen.at(-1)).toMatchObject({ login: 'alice', codeChallengeMethod: 'S256' });
      const cookies = await context.cookies(service.url);
      expect(cookies.find((c) => c.name === 'trackcheck_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

      await page.getByLabel('Name').fill('curl from CI');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('heading', { name: /Your new API key/ }).waitFor();
      const key = await page.locator('#new-key').inputValue();
      expect(key).toMatch(/^pg_live_[0-9a-f-]{36}$/);
      await page.getByRole('button', { name: 'Copy key' }).click();
      await page.getByRole('button', { name: 'Key copied' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
      await page.screenshot({ path: path.join(ARTIFACTS, 'settings-page.png'), fullPage: true });

      const used = await curl(`${service.url}/v1/keys`, key);
      expect(used.status).toBe(200);
      expect(JSON.parse(used.body).data[0]).toMatchObject({ name: 'curl from CI', keyPrefix: key.slice(0, 12) });

      await page.goto(`${service.url}/settings/keys`);
      expect(await page.locator('table').textContent()).toMatch(/curl from CI[\s\S]*\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/); // last used
      expect(await page.content()).not.toContain(key);
      await page.getByRole('link', { name: `Revoke curl from CI (${key.slice(0, 12)}…)` }).click();
      await page.getByRole('heading', { name: 'Revoke this key?' }).waitFor();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.waitForURL(`${service.url}/settings/keys?notice=revoked`);
      expect(await page.getByRole('status').textContent()).toContain('The key was revoked.');
      expect(await page.locator('.empty').textContent()).toBe('No API keys yet.');

      const refused = await curl(`${service.url}/v1/keys`, key);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body).error.code).toBe('invalid_api_key');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('refuses a form whose CSRF token is missing, and a form posted from another origin', async () => {
    const context = await launch('csrf');
    const evil = await startEvilSite(service.url);
    try {
      const link = await runCli(['session-token', '--user', 'carol', '--login-url'], {
        TRACKCHECK_DATA_DIR: dataDir,
        TRACKCHECK_PUBLIC_URL: service.url,
      });
      const page = await context.newPage();
      await page.goto(link.stdout.trim());
      await page.getByRole('button', { name: 'Sign in as carol' }).click();
      await page.waitForURL(`${service.url}/checks`);
      await page.goto(`${service.url}/settings/keys`);
      await page.evaluate('document.querySelector(\'form[action="/settings/keys"] input[name=_csrf]\').remove()');
      await page.getByLabel('Name').fill('no token');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Create key' }).click(),
      ]);
      expect(refused.status()).toBe(403);
      await page.getByRole('heading', { name: 'Request refused' }).waitFor();
      expect(await page.locator('main').textContent()).toContain('security token is missing');
      // Same site (127.0.0.1, another port), so the Lax cookie travels: only the token stops it.
      await page.goto(evil.url);
      const [forged] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Claim' }).click(),
      ]);
      expect(forged.status()).toBe(403);
      await page.goto(`${service.url}/settings/keys`);
      expect(await page.locator('.empty').textContent()).toBe('No API keys yet.');
    } finally {
      await evil.close();
      await context.close();
    }
  }, 60_000);

  it('signs in with a one-time link and uses the pages without JavaScript: key, batch upload, CSV, sign-out', async () => {
    const context = await launch('nojs', false);
    try {
      const link = await runCli(['session-token', '--user', 'bob', '--login-url'], {
        TRACKCHECK_DATA_DIR: dataDir,
        TRACKCHECK_PUBLIC_URL: service.url,
      });
      expect(link.code, link.stderr).toBe(0);
      const url = link.stdout.trim();
      const page = await context.newPage();
      await page.goto(url);
      expect(await page.locator('main').textContent()).toContain('This one-time link signs you in as bob.');
      await page.getByRole('button', { name: 'Sign in as bob' }).click();
      await page.waitForURL(`${service.url}/checks`);
      expect(await page.locator('.account').textContent()).toContain('Signed in as bob');
      const again = await page.goto(url);
      expect(again?.status()).toBe(410);

      await page.goto(`${service.url}/settings/keys`);
      await page.getByLabel('Name').fill('no script');
      await page.getByRole('button', { name: 'Create key' }).click();
      expect(await page.locator('#new-key').inputValue()).toMatch(/^pg_live_/);
      expect(await page.getByRole('button', { name: 'Copy key' }).isVisible()).toBe(false); // needs the script

      const file = path.join(profiles, 'links.csv');
      writeFileSync(file, `name,url\nshoes,${fixture.trackingLink}\nbroken,${fixture.strippedLink}\n`);
      await page.goto(`${service.url}/batches`);
      await page.getByLabel('…or upload a file (.csv or .txt)').setInputFiles(file);
      await page.getByRole('button', { name: 'Check these links' }).click();
      await page.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
      // <meta http-equiv="refresh"> reloads the page until the batch has finished.
      await page.locator('#batch-summary', { hasText: 'Finished' }).waitFor({ timeout: 30_000 });
      expect(await page.locator('#batch-summary').textContent()).toMatch(/1 of 2 links will track/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'batch-page.png'), fullPage: true });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download results (CSV)' }).click(),
      ]);
      const csv = readFileSync(await download.path(), 'utf8')
        .trim()
        .split('\r\n');
      expect(csv).toHaveLength(3);
      expect(csv[1]).toContain(',completed,will_track,true,');

      await page.goto(`${service.url}/checks`);
      expect(await page.locator('tbody tr').count()).toBe(2);
      await page.screenshot({ path: path.join(ARTIFACTS, 'my-checks-page.png'), fullPage: true });
      await page.goto(`${service.url}/batches`);
      await page.screenshot({ path: path.join(ARTIFACTS, 'batches-page.png'), fullPage: true });
      await page.goto(`${service.url}/checks`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${service.url}/`);
      expect(await page.getByRole('link', { name: 'Sign in', exact: true }).isVisible()).toBe(true);
      const after = await page.goto(`${service.url}/checks`);
      expect(after?.url()).toContain('/auth/signin?next=%2Fchecks');
    } finally {
      await context.close();
    }
  }, 90_000);
});
