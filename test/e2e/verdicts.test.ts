// The four verdicts (CONTRACT.md section 7) as a user meets them: `npm start`, then POST /v1/checks, the batch
// results CSV, and `npx trackcheck check` with its exit codes (0 will track, 1 will not, 3 could not verify or no
// tracking found, 2 usage or connection errors), through the service and with the local engine.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { runNpx, startUserService, type UserService } from './user-service.js';

type Verdict = 'will_track' | 'will_not_track' | 'could_not_verify' | 'no_tracking_found';

function installLinks(web: AffiliateWeb): Record<Verdict | 'reset', string> {
  const awin = (landing: string) => web.url('www.awin1.com', `/cread.php?awinmid=4242&awinaffid=77&ued=${encodeURIComponent(landing)}`);
  web.route('www.awin1.com', '/cread.php', (req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('ued') ?? '';
    res.statusCode = 302;
    res.setHeader('location', `${target}${target.includes('?') ? '&' : '?'}awc=4242_e2e_verdict`);
    res.end();
  });
  web.page('www.runner-shop.example', '/p/tracks', {
    html: '<!doctype html><title>Tracks</title>',
    setCookies: ['_aw_m_4242=4242_e2e_verdict; Max-Age=31536000; Path=/; Secure; SameSite=Lax'],
  });
  web.page('www.runner-shop.example', '/p/gone', { status: 404, html: '<title>Not found</title>' });
  web.page('www.runner-shop.example', '/p/walled', {
    status: 403,
    html: '<title>Just a moment...</title><script>window._cf_chl_opt={}</script>',
  });
  web.page('www.plain-shop.example', '/p/socks', { html: '<!doctype html><title>Socks</title>' });
  // Drops every connection: tried once more, then "could not verify" (landing_timeout), never "broken".
  web.route('www.flaky-shop.example', '/p/reset', (req) => {
    (req.socket as net.Socket).resetAndDestroy();
  });
  return {
    will_track: awin(web.url('www.runner-shop.example', '/p/tracks')),
    will_not_track: awin(web.url('www.runner-shop.example', '/p/gone')),
    could_not_verify: awin(web.url('www.runner-shop.example', '/p/walled')),
    no_tracking_found: web.url('www.plain-shop.example', '/p/socks'),
    reset: awin(web.url('www.flaky-shop.example', '/p/reset')),
  };
}

const EXIT: Record<Verdict, number> = { will_track: 0, will_not_track: 1, could_not_verify: 3, no_tracking_found: 3 };

describe('verdicts through npm start', () => {
  let web: AffiliateWeb;
  let service: UserService;
  let links: ReturnType<typeof installLinks>;
  let key: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    links = installLinks(web);
    service = await startUserService(web);
    key = await service.apiKey('e2e-verdicts');
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await web?.close();
  });

  it.each(['will_track', 'will_not_track', 'could_not_verify', 'no_tracking_found'] as const)(
    'POST /v1/checks says %s',
    async (verdict) => {
      const res = await service.request('POST', '/v1/checks', { body: { url: links[verdict] }, token: key });
      expect(res.status, res.text).toBe(201);
      const check = res.json().data;
      expect(check['verdict'], JSON.stringify(check['issues'])).toBe(verdict);
      expect(check['willTrack']).toBe(verdict === 'will_track');
    },
  );

  it('reports what each browser and blocker does to the link (section 10), listed but never scored', async () => {
    const res = await service.request('POST', '/v1/checks', { body: { url: links.will_track }, token: key });
    const check = res.json<{
      data: {
        slug: string;
        verdict: string;
        healthScore: number;
        issues: { code: string; severity: string }[];
        privacy: { agent: string; trackerVisited: boolean; clickIdSurvives: boolean }[];
      };
    }>().data;
    expect(check.privacy.map((p) => p.agent)).toEqual([
      'chrome',
      'safari',
      'safari_private',
      'firefox',
      'firefox_strict',
      'brave',
      'adguard_url_tracking',
      'clearurls',
    ]);
    expect(check.privacy.find((p) => p.agent === 'chrome')).toMatchObject({ trackerVisited: true, clickIdSurvives: true });
    // Brave debounces Awin deep links (cread.php?…&ued=): its hop never runs.
    expect(check.privacy.find((p) => p.agent === 'brave')).toMatchObject({ trackerVisited: false, clickIdSurvives: false });
    expect(check.issues.map((i) => i.code)).toEqual(
      expect.arrayContaining(['tracker_skipped_by_privacy_tools', 'click_id_stripped_by_privacy_tools']),
    );
    // The two privacy warnings do not count: the score is what the other findings alone give.
    const others = check.issues.filter((i) => !i.code.endsWith('_by_privacy_tools'));
    const penalty =
      others.filter((i) => i.severity === 'warning').length * 8 + Math.min(3, others.filter((i) => i.severity === 'info').length) * 2;
    expect(check).toMatchObject({ verdict: 'will_track', healthScore: 100 - penalty });
    const evidence = (await service.request('GET', `/v1/reports/${check.slug}/evidence`)).text;
    expect(evidence).toMatch(/PRIVACY TOOLS[\s\S]*Brave \(default Shields\)\n\s+network hop runs: no; click id arrives: no/);
    const page = (await service.request('GET', `/r/${check.slug}`)).text;
    expect(page).toContain('Who this link reaches');
  });

  it('tries a dropped connection once more, then could_not_verify with landing_timeout (not "broken")', async () => {
    const res = await service.request('POST', '/v1/checks', { body: { url: links.reset }, token: key });
    const check = res.json<{ data: { verdict: string; issues: { code: string; severity: string }[]; healthScore: number } }>().data;
    expect(check.verdict).toBe('could_not_verify');
    expect(check.issues.map((i) => `${i.code}:${i.severity}`)).toContain('landing_timeout:warning');
    expect(check.issues.map((i) => i.code)).not.toContain('landing_unreachable');
    expect(web.hits('www.flaky-shop.example', '/p/reset')).toBe(2);
  });

  it('takes checkType as a spelling of check_type, and refuses the two disagreeing', async () => {
    const ok = await service.request('POST', '/v1/checks', { body: { url: links.will_track, checkType: 'link' }, token: key });
    expect(ok.status, ok.text).toBe(201);
    const both = await service.request('POST', '/v1/checks', {
      body: { url: links.will_track, checkType: 'link', check_type: 'cmp' },
      token: key,
    });
    expect(both.status).toBe(400);
    expect(both.json<{ error: { code: string } }>().error.code).toBe('invalid_parameter');
  });

  it('puts the verdict in the batch results CSV', async () => {
    const urls = [links.will_track, links.will_not_track, links.could_not_verify, links.no_tracking_found];
    const created = await service.request('POST', '/v1/batches', { body: { urls }, token: key });
    expect(created.status, created.text).toBe(202);
    const id = String(created.json().data['id']);
    for (let i = 0; i < 150; i++) {
      const batch = (await service.request('GET', `/v1/batches/${id}`, { token: key })).json().data;
      if (batch['status'] === 'completed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const csv = (await service.request('GET', `/v1/batches/${id}/results.csv`, { token: key })).text.trim().split('\r\n');
    expect(csv[0]).toMatch(/^url,slug,status,verdict,willTrack,/);
    expect(csv.slice(1).map((line) => line.split(',')[3])).toEqual([
      'will_track',
      'will_not_track',
      'could_not_verify',
      'no_tracking_found',
    ]);
  });

  it.each(['will_track', 'will_not_track', 'could_not_verify', 'no_tracking_found'] as const)(
    '`trackcheck check` through the service exits %s',
    async (verdict) => {
      const run = await runNpx(['check', links[verdict]], { ...service.env, TRACKCHECK_API_KEY: key });
      expect(run.code, run.stderr + run.stdout).toBe(EXIT[verdict]);
      expect(run.stdout.split('\n')[0]).toContain(verdict.replace(/_/g, ' ').toUpperCase());
    },
  );

  it('`trackcheck check --local` exits by the same verdicts with the engine in the CLI', async () => {
    for (const verdict of ['will_track', 'no_tracking_found'] as const) {
      const run = await runNpx(['check', '--local', links[verdict]], service.env);
      expect(run.code, run.stderr + run.stdout).toBe(EXIT[verdict]);
    }
  });

  it('exits 2 for a usage error and for a service it cannot reach', async () => {
    expect((await runNpx(['check'], service.env)).code).toBe(2);
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await runNpx(['check', links.will_track, '--server', `http://127.0.0.1:${port}`], service.env);
    expect(run.code, run.stderr).toBe(2);
  });
});
