// End to end, as a user: `npm start`, then Chromium at a desktop (1366×768) and a phone (390×844) width over every
// page (home, a report of each verdict, API keys, My checks, batches, scans, monitors): nothing wider than the window, every control on screen and
// clickable, no serious or critical axe-core violation; the report puts issues and fixes under the verdict, shows
// human times, a readable hop picture that never claims a click id on a hop without a response, and a "Check
// again" button that lands on a new report of the same link. Saves test-artifacts/{report,keys,monitor}-{desktop,phone}.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, SKIP_REASON } from '../checker/browser/browser-helpers.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { runCli } from '../helpers/spawn-service.js';
import { auditHopPicture, auditPage } from '../helpers/page-audit.js';
import { startUserService, type UserService } from './user-service.js';
import { installScanSite, type ScanSite } from '../fixtures/scan-site.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

const VIEWPORTS = [
  { name: 'desktop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const ARTIFACTS = path.resolve('test-artifacts');
const HUMAN_TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d\d:\d\d UTC$/;
const RAW_ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/;

function installLinks(web: AffiliateWeb) {
  const longPath = `/p/trail-running/pegasus-41-${'extra-long-product-slug-'.repeat(4)}`;
  const landing = web.url('www.trail-shop.example', longPath);
  const broken = web.url('www.broken-shop.example', '/go');
  const down = web.url('www.down-shop.example', '/p/9');
  web.route('www.awin1.com', '/cread.php', (_req, res, ctx) => {
    const mid = ctx.query.get('awinmid');
    const target = mid === '999' ? broken : mid === '777' ? down : landing;
    res.statusCode = 302;
    res.setHeader('set-cookie', ['aw12345=clk; Max-Age=2592000; Path=/; Domain=.awin1.com; HttpOnly', 'awsess=s; Path=/']);
    res.setHeader('location', `${target}?awc=12345_1700000000_e2e&utm_source=aw&utm_campaign=${'spring-sale-'.repeat(6)}`);
    res.end();
  });
  web.page('www.trail-shop.example', longPath, {
    html: '<!doctype html><title>Pegasus 41 – Trail Shop</title><h1>Pegasus 41</h1>',
    setCookies: [
      '_aw_m_12345=v; Max-Age=31536000; Path=/; Secure; SameSite=Lax',
      `a_very_long_cookie_name_${'x'.repeat(40)}=v; Max-Age=600; Path=/`,
    ],
  });
  web.redirect('www.broken-shop.example', '/go', web.url('www.broken-shop.example', '/p/1'), { status: 301 });
  web.page('www.broken-shop.example', '/p/1', '<!doctype html><title>Shop</title><body>Product</body>');
  // The merchant's server hangs up without an answer: a hop with the click id on its URL and no response.
  web.route('www.down-shop.example', '/p/9', (req) => {
    req.socket.destroy();
  });
  // Bot protection instead of the shop (could not verify), and a shop link no network handles (no tracking found).
  web.page('www.walled-shop.example', '/p/1', {
    status: 403,
    html: '<title>Just a moment...</title><body>Checking your browser</body>',
    headers: { 'cf-mitigated': 'challenge' },
  });
  web.page('www.plain-shop.example', '/p/2', '<!doctype html><title>Plain shop</title><body>Product</body>');
  const awin = (mid: string, ued: string) =>
    web.url('www.awin1.com', `/cread.php?awinmid=${mid}&awinaffid=998877&clickref=e2e&ued=${encodeURIComponent(ued)}`);
  return {
    tracking: awin('12345', landing),
    stripped: awin('999', broken),
    down: awin('777', down),
    walled: web.url('www.walled-shop.example', '/p/1'),
    plain: web.url('www.plain-shop.example', '/p/2'),
  };
}

async function launch(profile: string): Promise<BrowserContext> {
  // bypassCSP: the pages' policy allows only their own script, and axe-core is injected as a script tag.
  return launchVisitor(CHROMIUM as string, profile, {
    bypassCSP: true,
    viewport: { width: 1366, height: 768 },
  });
}

/** Submits a link with the home page's form and waits for the finished report; returns its path. */
async function checkThroughForm(page: Page, base: string, link: string): Promise<string> {
  await page.goto(`${base}/`);
  await page.getByLabel('Tracking link').fill(link);
  await page.getByRole('button', { name: 'Check link' }).click();
  await page.waitForURL(/\/r\/[0-9a-z]{14}$/);
  await page.locator('.verdict:not(.v-pending)').waitFor({ timeout: 60_000 });
  return new URL(page.url()).pathname;
}

/** Audits `page` as it is now at `viewport`; returns every problem as a line (empty = fine). */
async function problemsOf(page: Page, label: string, viewport: Viewport): Promise<string[]> {
  const audit = await auditPage(page);
  const problems: string[] = [];
  if (audit.innerWidth !== viewport.width) problems.push(`${label}: window is ${audit.innerWidth} px, expected ${viewport.width}`);
  if (audit.scrollWidth > audit.innerWidth)
    problems.push(`${label}: page is ${audit.scrollWidth} px wide in a ${audit.innerWidth} px window`);
  if (audit.controls === 0) problems.push(`${label}: no controls found`);
  problems.push(...audit.unreachable.map((u) => `${label}: ${u}`), ...audit.axe.map((a) => `${label}: axe ${a}`));
  // The measured figures, for the record of a run.
  console.info(
    `${viewport.name} ${label}: ${audit.scrollWidth}/${audit.innerWidth} px, ${audit.controls} controls, ${audit.unreachable.length} unreachable, ${audit.axe.length} serious/critical axe violations`,
  );
  return problems;
}

describe.skipIf(CHROMIUM === null)(
  `the pages at desktop and phone widths through npm start${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let web: AffiliateWeb;
    let service: UserService;
    let links: ReturnType<typeof installLinks>;
    let profiles: string;
    let anonymous: BrowserContext;
    let signedIn: BrowserContext;
    const reports: Record<keyof ReturnType<typeof installLinks>, string> = { tracking: '', stripped: '', down: '', walled: '', plain: '' };
    let batchPath = '';
    let scanPath = '';
    let scanSite: ScanSite;

    beforeAll(async () => {
      web = await startAffiliateWeb();
      links = installLinks(web);
      scanSite = installScanSite(web);
      service = await startUserService(web);
      profiles = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-e2e-pages-'));
      mkdirSync(ARTIFACTS, { recursive: true });
      anonymous = await launch(path.join(profiles, 'anonymous'));
      signedIn = await launch(path.join(profiles, 'signed-in'));

      const page = anonymous.pages()[0] ?? (await anonymous.newPage());
      for (const kind of ['tracking', 'stripped', 'down', 'walled', 'plain'] as const)
        reports[kind] = await checkThroughForm(page, service.url, links[kind]);

      // Signed in as a user does with the embedded identity provider: a one-time link from the CLI.
      const login = await runCli(['session-token', '--user', 'alice', '--login-url'], {
        ...service.env,
        TRACKCHECK_PUBLIC_URL: service.url,
      });
      expect(login.code, login.stderr).toBe(0);
      const own = signedIn.pages()[0] ?? (await signedIn.newPage());
      await own.goto(login.stdout.trim());
      await own.getByRole('button', { name: 'Sign in as alice' }).click();
      await own.waitForURL(/\/checks$/);
      await checkThroughForm(own, service.url, links.tracking);
      await own.goto(`${service.url}/batches`);
      await own.getByLabel('Links, one per line').fill([links.tracking, links.stripped, links.down].join('\n'));
      await own.getByRole('button', { name: 'Check these links' }).click();
      await own.waitForURL(/\/batches\/[^/]+$/);
      batchPath = new URL(own.url()).pathname;
      // A finished batch's page stops refreshing itself.
      for (const until = Date.now() + 90_000; ;) {
        await own.goto(`${service.url}${batchPath}`);
        if ((await own.locator('meta[http-equiv=refresh]').count()) === 0) break;
        if (Date.now() > until) throw new Error(`batch ${batchPath} unfinished after 90 s`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      await own.goto(`${service.url}/scans`);
      await own.getByLabel('Page or sitemap address').fill(scanSite.article);
      await own.getByRole('button', { name: 'Scan this page' }).click();
      await own.waitForURL(/\/scans\/[^/]+$/);
      scanPath = new URL(own.url()).pathname;
      for (const until = Date.now() + 90_000; ;) {
        await own.goto(`${service.url}${scanPath}`);
        if ((await own.locator('meta[http-equiv=refresh]').count()) === 0) break;
        if (Date.now() > until) throw new Error(`scan ${scanPath} unfinished after 90 s`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }, 300_000);

    afterAll(async () => {
      await anonymous?.close();
      await signedIn?.close();
      await service?.stop();
      await web?.close();
      if (profiles) rmSync(profiles, { recursive: true, force: true });
    });

    it.each(VIEWPORTS)(
      '$name ($width px): home, a report of each verdict, sign-in and a 404 fit, every control is reachable, axe finds nothing serious',
      async (viewport) => {
        const page = await anonymous.newPage();
        try {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          const problems: string[] = [];
          const pages = [
            ['home', '/'],
            ['report (will track)', reports.tracking],
            ['report (will not track)', reports.stripped],
            ['report (no response)', reports.down],
            ['report (could not verify)', reports.walled],
            ['report (no tracking found)', reports.plain],
            ['sign in', '/auth/signin'],
            ['report not found', '/r/nosuchreport00'],
          ] as const;
          for (const [label, pagePath] of pages) {
            await page.goto(`${service.url}${pagePath}`);
            problems.push(...(await problemsOf(page, label, viewport)));
          }
          await page.goto(`${service.url}${reports.down}`);
          await page.screenshot({ path: path.join(ARTIFACTS, `report-${viewport.name}.png`), fullPage: true });
          expect(problems, problems.join('\n')).toEqual([]);
        } finally {
          await page.close();
        }
      },
      120_000,
    );

    it.each(VIEWPORTS)(
      '$name ($width px): API keys with a new key and its code sample, My checks, batches, a batch, scans, a scan: fit, reachable, accessible',
      async (viewport) => {
        const page = await signedIn.newPage();
        try {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          const problems: string[] = [];
          await page.goto(`${service.url}/settings/keys`);
          await page.getByLabel('Name', { exact: true }).fill(`CI link checker on the ${viewport.name}`);
          await page.getByRole('button', { name: 'Create key' }).click();
          await page.getByRole('heading', { name: /Your new API key/ }).waitFor();
          // The page users saw at 770 px: the key, its curl sample and the table with the Revoke links.
          expect(await page.getByRole('link', { name: /^Revoke CI link checker/ }).count()).toBeGreaterThan(0);
          problems.push(...(await problemsOf(page, 'API keys (new key)', viewport)));
          await page.screenshot({ path: path.join(ARTIFACTS, `keys-${viewport.name}.png`), fullPage: true });
          const revoke =
            (await page
              .getByRole('link', { name: /^Revoke CI link checker/ })
              .first()
              .getAttribute('href')) ?? '';
          const pages = [
            ['revoke a key', revoke],
            ['home (signed in)', '/'],
            ['My checks', '/checks'],
            ['batches', '/batches'],
            ['batch', batchPath],
            ['scans', '/scans'],
            ['scan', scanPath],
          ] as const;
          for (const [label, pagePath] of pages) {
            await page.goto(`${service.url}${pagePath}`);
            problems.push(...(await problemsOf(page, label, viewport)));
          }
          // Monitors: the list with its form, a monitor made with it (its page, with a long link), the delete confirmation.
          await page.goto(`${service.url}/monitors`);
          await page.getByLabel('Tracking link').fill(links.tracking);
          await page.getByLabel('Name (optional)').fill(`Sidebar on the ${viewport.name}`);
          await page.getByLabel('Webhook URL', { exact: true }).fill('https://hooks.example.com/trackcheck/in');
          await page.getByRole('button', { name: 'Create monitor' }).click();
          await page.waitForURL(/\/monitors\/[^/?]+$/);
          const monitorPath = new URL(page.url()).pathname;
          problems.push(...(await problemsOf(page, 'monitor', viewport)));
          await page.screenshot({ path: path.join(ARTIFACTS, `monitor-${viewport.name}.png`), fullPage: true });
          for (const [label, pagePath] of [
            ['monitors', '/monitors'],
            ['delete a monitor', `${monitorPath}/delete`],
          ] as const) {
            await page.goto(`${service.url}${pagePath}`);
            problems.push(...(await problemsOf(page, label, viewport)));
          }
          expect(problems, problems.join('\n')).toEqual([]);
        } finally {
          await page.close();
        }
      },
      120_000,
    );

    it('shows a scan\u2019s links grouped by verdict, worst first, with its page findings and its CSV', async () => {
      const page = await signedIn.newPage();
      try {
        await page.goto(`${service.url}${scanPath}`);
        expect(await page.locator('#scan-counts').textContent()).toContain('1 page read · 6 links found · 4 affiliate links checked');
        const headings = await page.locator('main h2').allTextContents();
        expect(headings, await page.locator('main').innerText()).toEqual(['Across this page', 'Will not track (1)', 'Will track (3)']);
        expect(await page.getByText('One merchant, several networks').count()).toBe(1);
        const csv = await page.getByRole('link', { name: 'Download results (CSV)' }).getAttribute('href');
        const res = await page.request.get(`${service.url}${csv}`);
        expect(res.status()).toBe(200);
        expect((await res.text()).split('\r\n')[0]).toBe('page,url,text,slug,status,willTrack,healthScore,network,finalUrl,criticalIssues');
      } finally {
        await page.close();
      }
    }, 60_000);

    it.each(VIEWPORTS)(
      '$name ($width px): the hop picture is readable, its labels never overlap, a hop without a response claims no click id',
      async (viewport) => {
        const page = await anonymous.newPage();
        try {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          for (const kind of ['tracking', 'stripped', 'down'] as const) {
            await page.goto(`${service.url}${reports[kind]}`);
            const picture = await auditHopPicture(page);
            expect(picture.shown, kind).toEqual([viewport.width < 800 ? 'hops-narrow' : 'hops-wide']);
            expect(picture.smallestTextPx, kind).toBeGreaterThanOrEqual(11);
            expect(picture.overlaps, kind).toEqual([]);
          }
          const check = (await service.request('GET', `/v1/reports/${reports.down.slice(3)}`)).json<{
            data: { hops: Array<{ status: number | null }> };
          }>().data;
          const silent = check.hops.flatMap((hop, i) => (hop.status === null ? [i] : []));
          expect(silent.length, JSON.stringify(check.hops)).toBeGreaterThan(0);
          const rows = (await auditHopPicture(page)).badges;
          for (const i of silent) {
            const row = rows.find((texts) => texts[0] === String(i)) ?? [];
            expect(row.join(' | ')).toContain('? no response');
            expect(row.some((text) => text?.startsWith('✓'))).toBe(false);
          }
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    it('puts the issues and fixes right under the verdict, on the first screen, and shows times in words with the exact instant on hover', async () => {
      const page = await anonymous.newPage();
      try {
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          await page.goto(`${service.url}${reports.stripped}`);
          const order = (await page.evaluate(
            `[...document.querySelectorAll('main > section')].map((s) => s.getAttribute('aria-labelledby'))`,
          )) as string[];
          expect(order.slice(0, 2)).toEqual(['verdict-h', 'issues-h']);
          expect(order.indexOf('issues-h')).toBeLessThan(order.indexOf('facts-h'));
          const issuesTop = (await page.evaluate(
            `document.getElementById('issues-h').getBoundingClientRect().top + window.scrollY`,
          )) as number;
          expect(issuesTop, viewport.name).toBeLessThan(viewport.height);
          expect(await page.locator('ol.issues li').count()).toBeGreaterThan(0);
        }
        const times = page.locator('main time');
        expect(await times.count()).toBeGreaterThanOrEqual(2);
        for (const time of await times.all()) {
          expect(await time.innerText()).toMatch(HUMAN_TIME);
          expect(await time.getAttribute('datetime')).toMatch(RAW_ISO);
          expect(await time.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC$/);
        }
        expect(await page.locator('body').innerText()).not.toMatch(RAW_ISO);
      } finally {
        await page.close();
      }
    });

    it('"Check again" submits the same link and check type as a new check and lands on its report', async () => {
      const page = await anonymous.newPage();
      try {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${service.url}${reports.tracking}`);
        await page.getByRole('button', { name: 'Check again' }).click();
        await page.waitForURL((url) => /^\/r\/[0-9a-z]{14}$/.test(url.pathname) && url.pathname !== reports.tracking);
        await page.locator('.verdict:not(.v-pending)').waitFor({ timeout: 60_000 });
        expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('This link will track');
        const again = (await service.request('GET', `/v1/reports/${new URL(page.url()).pathname.slice(3)}`)).json<{
          data: { url: string; checkType: string };
        }>().data;
        expect(again).toMatchObject({ url: links.tracking, checkType: 'link' });
      } finally {
        await page.close();
      }
    }, 90_000);

    it('shows the verdicts apart: each has its own colours', async () => {
      const page = await anonymous.newPage();
      try {
        const banners: string[] = [];
        for (const kind of ['tracking', 'stripped', 'walled', 'plain'] as const) {
          await page.goto(`${service.url}${reports[kind]}`);
          banners.push((await page.locator('section.verdict').getAttribute('class')) ?? '');
        }
        expect(banners).toEqual([
          'verdict v-will_track',
          'verdict v-will_not_track',
          'verdict v-could_not_verify',
          'verdict v-no_tracking_found',
        ]);
        await page.goto(`${service.url}/`);
        const colours = (await page.evaluate(`(() => {
        const out = {};
        for (const v of ['will_track', 'will_not_track', 'could_not_verify', 'no_tracking_found']) {
          const banner = document.createElement('section');
          banner.className = 'verdict v-' + v;
          const badge = document.createElement('span');
          badge.className = 'vbadge vb-' + v;
          document.querySelector('main').append(banner, badge);
          out[v] = [getComputedStyle(banner).backgroundColor, getComputedStyle(banner).borderTopColor, getComputedStyle(badge).backgroundColor, getComputedStyle(badge).color];
        }
        return out;
      })()`)) as Record<string, string[]>;
        const fills = Object.values(colours).map((c) => `${c[0]} ${c[1]}`);
        const badges = Object.values(colours).map((c) => `${c[2]} ${c[3]}`);
        expect(new Set(fills).size, JSON.stringify(colours)).toBe(4);
        expect(new Set(badges).size, JSON.stringify(colours)).toBe(4);
        for (const [verdict, [banner, , badge]] of Object.entries(colours)) {
          expect(banner, verdict).not.toBe('rgba(0, 0, 0, 0)');
          expect(badge, verdict).not.toBe('rgba(0, 0, 0, 0)');
        }
      } finally {
        await page.close();
      }
    });
  },
);
