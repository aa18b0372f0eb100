// End to end, as a user: `npm start`, then a cmp batch over the fixture page of every consent platform — the
// catalogue's, those only autoconsent knows, the second layouts (Usercentrics v3, TrustArc's iframe) and TCF
// (banners rendered asynchronously, as real scripts do). Each check must name its platform and give the
// merchant's attribution cookie after "accept all" only. Then `npx trackcheck check --type cmp` for one link,
// the CLI's own engine in its own process. Page scripts broken in the build fail this suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { installConsentSites, PLATFORM_SITES, type ConsentSites } from '../fixtures/cmp/consent-sites.js';
import { ATTRIBUTION_COOKIE } from '../fixtures/cmp/merchant-tag.js';
import { CHROMIUM, SKIP_REASON } from '../checker/browser/browser-helpers.js';
import { runNpx, startUserService, type UserService } from './user-service.js';

interface ConsentCheck {
  status: string;
  mode: string;
  willTrack: boolean;
  consent: {
    platform: { id: string; name: string } | null;
    scenarios: Array<{ scenario: string; clickIdPresent: boolean; attributionCookies: string[] }>;
  } | null;
  issues: Array<{ code: string }>;
}

describe.skipIf(CHROMIUM === null)(`consent checks through npm start${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let sites: ConsentSites;
  let service: UserService;
  const checks = new Map<string, ConsentCheck>();

  beforeAll(async () => {
    web = await startAffiliateWeb();
    sites = installConsentSites(web);
    service = await startUserService(web);
    const key = await service.apiKey('e2e-consent');
    const res = await service.request('POST', '/v1/batches', {
      body: { urls: PLATFORM_SITES.map(({ site }) => sites.link(site)), check_type: 'cmp' },
      token: key,
    });
    expect(res.status, res.text).toBe(202);
    const batch = res.json<{ data: { checks: Array<{ url: string; slug: string }> } }>().data;
    await Promise.all(
      batch.checks.map(async ({ slug }, index) => {
        checks.set(
          PLATFORM_SITES[index]?.site as string,
          (await service.finishedCheck(slug, { token: key, timeoutMs: 180_000 })) as unknown as ConsentCheck,
        );
      }),
    );
  }, 360_000);
  afterAll(async () => {
    await service?.stop();
    await web?.close();
  });

  it.each(PLATFORM_SITES)('$site: the running service names $id; the attribution cookie comes with "accept all" only', ({ site, id }) => {
    const check = checks.get(site);
    expect(check?.status).toBe('completed');
    expect(check?.mode).toBe('browser');
    expect(check?.consent?.platform?.id, JSON.stringify(check?.consent)).toBe(id);
    expect(check?.consent?.scenarios).toEqual([
      { scenario: 'no_interaction', clickIdPresent: true, attributionCookies: [] },
      { scenario: 'accept_all', clickIdPresent: true, attributionCookies: [ATTRIBUTION_COOKIE] },
      { scenario: 'reject_all', clickIdPresent: true, attributionCookies: [] },
    ]);
    expect(check?.issues.map((issue) => issue.code)).not.toContain('consent_banner_not_found');
  });

  it('npx trackcheck check --type cmp --local runs the same consent check in the CLI process', async () => {
    const { code, stdout, stderr } = await runNpx(['check', '--type', 'cmp', '--local', '--json', sites.link('didomi')], service.env);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as ConsentCheck;
    expect(result.consent?.platform?.id).toBe('didomi');
    expect(result.consent?.scenarios.map((s) => s.attributionCookies)).toEqual([[], [ATTRIBUTION_COOKIE], []]);
  });
});
