// The pages in a real Chromium against a real service (the CLI as a child process): submit the form, land on the
// report, see the verdict and the hop picture, copy the link, download the evidence, and read it all without
// JavaScript. Saves test-artifacts/report-page.png.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../helpers/spawn-service.js';
import { COOKIE_VALUES, startReportWeb, type ReportWeb } from './report-fixtures.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

const CHROMIUM = process.env.TRACKCHECK_CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const ARTIFACTS = path.resolve('test-artifacts');

if (!HAS_CHROMIUM) {
  console.warn(`browser tests SKIPPED: no Chromium binary at ${CHROMIUM} (install chromium or set TRACKCHECK_CHROMIUM_PATH)`);
}

async function launch(profile: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  return launchVisitor(CHROMIUM, profile, {
    acceptDownloads: true,
    javaScriptEnabled,
    viewport: { width: 1200, height: 900 },
  });
}

/** Collects Content-Security-Policy violations and page errors, which must stay empty. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  return problems;
}

describe.skipIf(!HAS_CHROMIUM)(`report pages in Chromium (${CHROMIUM})`, () => {
  let fixture: ReportWeb;
  let service: RunningService;
  let dataDir: string;
  let profiles: string;

  beforeAll(async () => {
    fixture = await startReportWeb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-browser-'));
    profiles = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-chromium-'));
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_RESOLVE: fixture.web.resolveSpec });
  });
  afterAll(async () => {
    await service?.stop();
    await fixture?.web.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profiles, { recursive: true, force: true });
  });

  it('submit a link through the form, land on the report, see the verdict, copy the link, download the evidence', async () => {
    const context = await launch(path.join(profiles, 'js'), true);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(`${service.url}/`);
      await page.getByLabel('Tracking link').fill(fixture.trackingLink);
      await page.getByRole('button', { name: 'Check link' }).click();
      await page.waitForURL(/\/r\/[0-9a-z]{14}$/);
      const slug = page.url().split('/r/')[1] ?? '';

      await page.getByRole('heading', { level: 1, name: 'This link will track' }).waitFor();
      const picture = page.getByRole('img', { name: 'Hop timeline' });
      expect(await picture.isVisible()).toBe(true);
      expect((await picture.boundingBox())?.height ?? 0).toBeGreaterThan(100);
      expect(await picture.locator('text').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringMatching(/^www\.awin1\.com:\d+$/), '✓ awc']),
      );
      expect(await page.locator('#view-count').textContent()).toBe('Viewed 1 time.');

      // The copy script ran under the page's CSP (it is allowed by hash) and copies the report's address.
      const copy = page.getByRole('button', { name: 'Copy link' });
      expect(await copy.isVisible()).toBe(true);
      await copy.click();
      await page.getByRole('button', { name: 'Link copied' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${service.url}/r/${slug}`);

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-page.png'), fullPage: true });

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download evidence/ }).click()]);
      expect(download.suggestedFilename()).toBe(`evidence-${slug}.txt`);
      const evidence = readFileSync(await download.path(), 'utf8');
      expect(evidence).toContain('WILL TRACK');
      expect(evidence).toContain(`Check           ${slug}`);
      expect(evidence).toMatch(/SHA-256 {9}[0-9a-f]{64}/);
      expect(evidence).toContain('_aw_m_12345 (first-party)');
      const html = await page.content();
      for (const value of COOKIE_VALUES) {
        expect(evidence).not.toContain(value);
        expect(html).not.toContain(value);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('works without JavaScript: a running check refreshes itself until the verdict, the link is plain text', async () => {
    const context = await launch(path.join(profiles, 'nojs'), false);
    try {
      const page = await context.newPage();
      await page.goto(`${service.url}/`);
      await page.getByLabel('Tracking link').fill(fixture.verySlowLink);
      await page.getByRole('button', { name: 'Check link' }).click();
      await page.waitForURL(/\/r\/[0-9a-z]{14}$/);
      await page.getByRole('heading', { level: 1, name: 'Checking this link…' }).waitFor();
      // <meta http-equiv="refresh"> reloads the page until the check has finished.
      await page.locator('.verdict:not(.v-pending)').waitFor({ timeout: 20_000 });
      expect(await page.locator('h1').textContent()).toMatch(/This link will (not )?track|Could not verify|No affiliate tracking found/);
      expect(await page.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(false);
      expect(await page.locator('#share-link').inputValue()).toBe(page.url());
      expect(await page.locator('#view-count').textContent()).toBe('Viewed 1 time.');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows the 404 page for an unknown report', async () => {
    const context = await launch(path.join(profiles, '404'), true);
    try {
      const page = await context.newPage();
      const res = await page.goto(`${service.url}/r/nosuchreport00`);
      expect(res?.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Report not found');
    } finally {
      await context.close();
    }
  }, 60_000);
});
