// End to end, as a user: `npm start`, then Chromium signed in with a one-time link from the CLI: make a monitor with
// the form, see it listed with its state, open it, pause and resume it, delete it after the confirmation page;
// "Monitor this link" on a report, signed in (a monitor of that link) and signed out (the sign-in page); and a
// monitor whose link breaks: after "Run now" and the confirming run, its history shows the event, what changed,
// both reports and the webhook's delivery, and the page passes the axe audit. What the pages did is read back
// through the API (CONTRACT.md section 8), never from the service's code.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, SKIP_REASON } from '../checker/browser/browser-helpers.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { auditPage } from '../helpers/page-audit.js';
import { runCli } from '../helpers/spawn-service.js';
import { startUserService, type UserService } from './user-service.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

const HOOK_HOST = 'hooks.monitor-e2e.example';

interface ApiMonitor {
  id: string;
  url: string;
  checkType: string;
  name: string | null;
  intervalMinutes: number;
  paused: boolean;
  state: string;
  channels: Array<{ type: string; url?: string; hasSecret: boolean }>;
}

describe.skipIf(CHROMIUM === null)(`monitor pages through npm start${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let service: UserService;
  let profiles: string;
  let signedIn: BrowserContext;
  let anonymous: BrowserContext;
  let key: string;
  let link: string;
  let breakable: string;
  let hooks: http.Server;
  let hookPort: number;
  const bootPage = (status: number) =>
    web.page('www.boot-shop.example', '/p/boot', {
      status,
      html: status === 200 ? '<!doctype html><title>Boot</title><body>Boot</body>' : '<title>Not found</title>',
      setCookies: ['_aw_m_777=v; Max-Age=31536000; Path=/'],
    });

  const api = async <T>(method: string, urlPath: string, body?: unknown) => {
    const res = await service.request(method, urlPath, { token: key, ...(body === undefined ? {} : { body }) });
    return { status: res.status, data: res.status < 300 ? res.json<{ data: T }>().data : null };
  };

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const landing = web.url('www.monitor-shop.example', '/p/1');
    web.route('www.awin1.com', '/cread.php', (_req, res) => {
      res.statusCode = 302;
      res.setHeader('set-cookie', 'aw12345=clk; Max-Age=2592000; Path=/; Domain=.awin1.com');
      res.setHeader('location', `${landing}?awc=12345_1700000000_mon`);
      res.end();
    });
    web.page('www.monitor-shop.example', '/p/1', {
      html: '<!doctype html><title>Shop</title><body>Product</body>',
      setCookies: ['_aw_m_12345=v; Max-Age=31536000; Path=/'],
    });
    link = web.url('www.awin1.com', `/cread.php?awinmid=12345&awinaffid=998877&ued=${encodeURIComponent(landing)}`);
    web.redirect('www.awin1.com', '/boot.php', web.url('www.boot-shop.example', '/p/boot?awc=777_e2e'), {
      setCookies: ['aw777=clk; Max-Age=2592000; Path=/'],
    });
    bootPage(200);
    breakable = web.url('www.awin1.com', '/boot.php?awinmid=777&awinaffid=4242');
    // The customer's webhook endpoint: answers every delivery with 204.
    hooks = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookPort = (hooks.address() as AddressInfo).port;
    service = await startUserService(web, {
      TRACKCHECK_RESOLVE: `${web.resolveSpec},${HOOK_HOST}=127.0.0.1`,
      TRACKCHECK_MONITOR_CONFIRM_MS: '1500',
    });
    key = await service.apiKey('alice');
    profiles = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-e2e-monitors-'));
    const launch = (name: string) =>
      launchVisitor(CHROMIUM as string, path.join(profiles, name), {
        bypassCSP: true,
        viewport: { width: 1280, height: 800 },
      });
    signedIn = await launch('alice');
    anonymous = await launch('anonymous');
    const login = await runCli(['session-token', '--user', 'alice', '--login-url'], { ...service.env, TRACKCHECK_PUBLIC_URL: service.url });
    expect(login.code, login.stderr).toBe(0);
    const page = signedIn.pages()[0] ?? (await signedIn.newPage());
    await page.goto(login.stdout.trim());
    await page.getByRole('button', { name: 'Sign in as alice' }).click();
    await page.waitForURL(/\/checks$/);
  }, 120_000);

  afterAll(async () => {
    await signedIn?.close();
    await anonymous?.close();
    await service?.stop();
    await new Promise((resolve) => hooks?.close(resolve));
    await web?.close();
    if (profiles) rmSync(profiles, { recursive: true, force: true });
  });

  async function monitorIdOf(page: Page): Promise<string> {
    await page.waitForURL(/\/monitors\/[^/?]+(\?.*)?$/);
    return decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
  }

  it('creates a monitor with the form, lists it with its state, pauses, resumes and deletes it', async () => {
    const page = await signedIn.newPage();
    try {
      await page.goto(`${service.url}/checks`);
      await page.getByRole('link', { name: 'Monitors' }).click();
      await page.waitForURL(/\/monitors$/);
      await page.getByLabel('Tracking link').fill(link);
      await page.getByLabel('Name (optional)').fill('Spring banner');
      await page.getByLabel('How often').selectOption({ label: 'every hour' });
      await page.getByLabel('Webhook URL', { exact: true }).fill(`https://${HOOK_HOST}/in`);
      await page.getByLabel(/Webhook secret/).fill('whsec_e2e_secret_1');
      await page.getByRole('button', { name: 'Create monitor' }).click();
      const id = await monitorIdOf(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Spring banner');
      expect(await page.locator('dl.facts .mstate').innerText()).toMatch(/^. (Pending|Healthy|Broken|Unknown)$/);
      expect(await page.content()).not.toContain('whsec_e2e_secret_1');

      const created = await api<ApiMonitor>('GET', `/v1/monitors/${id}`);
      expect(created.data).toMatchObject({
        url: link,
        checkType: 'link',
        name: 'Spring banner',
        intervalMinutes: 60,
        paused: false,
        channels: [{ type: 'webhook', url: `https://${HOOK_HOST}/in`, hasSecret: true }],
      });
      expect(['pending', 'healthy', 'broken', 'unknown']).toContain(created.data?.state);

      await page.getByRole('link', { name: 'All monitors' }).click();
      const row = page.locator('tbody tr', { hasText: 'Spring banner' });
      expect(await row.count()).toBe(1);
      expect(await row.locator('.mstate').innerText()).toMatch(/(Pending|Healthy|Broken|Unknown)$/);
      expect(await row.innerText()).toContain('every hour');
      await row.getByRole('link').click();
      expect(await monitorIdOf(page)).toBe(id);

      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('Paused: the link is not checked').waitFor();
      expect((await api<ApiMonitor>('GET', `/v1/monitors/${id}`)).data?.paused).toBe(true);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByText('Resumed').waitFor();
      expect((await api<ApiMonitor>('GET', `/v1/monitors/${id}`)).data?.paused).toBe(false);

      await page.getByRole('link', { name: 'Delete…' }).click();
      await page.getByRole('heading', { name: 'Delete this monitor?' }).waitFor();
      await page.getByRole('button', { name: 'Delete monitor' }).click();
      await page.waitForURL(/\/monitors\?notice=deleted$/);
      expect(await page.locator('tbody tr', { hasText: 'Spring banner' }).count()).toBe(0);
      expect((await api('GET', `/v1/monitors/${id}`)).status).toBe(404);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('"Monitor this link" on a report makes a monitor of it; signed out, it leads to sign-in', async () => {
    const page = await signedIn.newPage();
    try {
      await page.goto(`${service.url}/`);
      await page.getByLabel('Tracking link').fill(link);
      await page.getByRole('button', { name: 'Check link' }).click();
      await page.waitForURL(/\/r\/[0-9a-z]{14}$/);
      await page.locator('.verdict:not(.v-pending)').waitFor({ timeout: 60_000 });
      const reportPath = new URL(page.url()).pathname;
      await page.getByRole('button', { name: 'Monitor this link' }).click();
      const id = await monitorIdOf(page);
      const monitor = await api<ApiMonitor>('GET', `/v1/monitors/${id}`);
      expect(monitor.data).toMatchObject({ url: link, checkType: 'link', intervalMinutes: 1440, paused: false, channels: [] });

      const visitor = await anonymous.newPage();
      try {
        await visitor.goto(`${service.url}${reportPath}`);
        await visitor.getByRole('link', { name: 'Monitor this link' }).click();
        await visitor.waitForURL((url) => url.pathname === '/auth/signin' && url.searchParams.get('next') === reportPath);
      } finally {
        await visitor.close();
      }
    } finally {
      await page.close();
    }
  }, 90_000);
  it('shows a broken link in the history: the event, what changed, both reports and the delivery; the page passes the audit', async () => {
    const page = await signedIn.newPage();
    try {
      await page.goto(`${service.url}/monitors`);
      await page.getByLabel('Tracking link').fill(breakable);
      await page.getByLabel('Name (optional)').fill('Boot link');
      await page.getByLabel('Webhook URL', { exact: true }).fill(`http://${HOOK_HOST}:${hookPort}/in`);
      await page.getByRole('button', { name: 'Create monitor' }).click();
      const id = await monitorIdOf(page);
      const until = async (state: string) => {
        for (const end = Date.now() + 45_000; ;) {
          const m = await api<ApiMonitor & { lastCheck: { slug: string } | null }>('GET', `/v1/monitors/${id}`);
          if (m.data?.state === state) return m.data;
          if (Date.now() > end) throw new Error(`monitor ${id} is ${m.data?.state}, not ${state}`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      };
      const healthy = await until('healthy');
      bootPage(404);
      await page.getByRole('button', { name: 'Run now' }).click();
      await page.getByText('A run is queued').waitFor();
      const broken = await until('broken');
      for (const end = Date.now() + 20_000; ;) {
        await page.goto(`${service.url}/monitors/${id}`);
        if ((await page.locator('ol.events li.event').count()) > 0 && !(await page.locator('.ds-pending').count())) break;
        if (Date.now() > end) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(await page.locator('dl.facts .mstate').innerText()).toMatch(/Broken$/);
      const event = page.locator('ol.events li.event').first();
      expect(await event.getByRole('heading', { level: 3 }).innerText()).toContain('The link broke');
      expect(await event.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await event.locator('ul.changes').innerText()).toContain('state: healthy → broken');
      expect(await event.getByRole('link', { name: 'Report of this run' }).getAttribute('href')).toBe(`/r/${broken.lastCheck?.slug}`);
      expect(await event.getByRole('link', { name: 'Report of the run before' }).getAttribute('href')).toBe(
        `/r/${healthy.lastCheck?.slug}`,
      );
      expect(await event.locator('ul.deliveries').innerText()).toMatch(
        new RegExp(`^Webhook http://${HOOK_HOST.replace(/\./g, '\\.')}:${hookPort}/in: delivered after 1 attempt$`),
      );
      const audit = await auditPage(page);
      expect([...audit.unreachable, ...audit.axe]).toEqual([]);
      expect(audit.scrollWidth).toBeLessThanOrEqual(audit.innerWidth);
      await event.getByRole('link', { name: 'Report of this run' }).click();
      await page.waitForURL(new RegExp(`/r/${broken.lastCheck?.slug}$`));
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('will not track');
    } finally {
      await page.close();
    }
  }, 120_000);
});
