// End to end, as a user: `npm start`, an API key made as the README shows, then `trackcheck monitor` (the built
// CLI) against it: add with a signed webhook, list, show (JSON and text), run, rm; each read back through the API
// of CONTRACT.md section 8. Exit codes as documented: 0 done, 2 a refusal of the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { runCli } from '../helpers/spawn-service.js';
import { startUserService, type UserService } from './user-service.js';

describe('trackcheck monitor through npm start', () => {
  let web: AffiliateWeb;
  let service: UserService;
  let env: Record<string, string>;
  let link: string;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    web.page('www.monitored-shop.example', '/p/7', '<!doctype html><title>Shop</title><body>Product</body>');
    link = web.url('www.monitored-shop.example', '/p/7');
    service = await startUserService(web);
    env = { ...service.env, TRACKCHECK_API_KEY: await service.apiKey('carol') };
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await web?.close();
  });

  it('adds, lists, shows, runs and removes a monitor', async () => {
    const added = await runCli(
      [
        'monitor',
        'add',
        link,
        '--name',
        'Shoe page',
        '--interval',
        '60',
        '--webhook',
        'https://hooks.example.com/in',
        '--secret',
        'whsec_e2e_cli_1',
        '--format',
        'json',
      ],
      env,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const monitor = JSON.parse(added.stdout) as { id: string; url: string; name: string; intervalMinutes: number; channels: unknown[] };
    expect(monitor).toMatchObject({
      url: link,
      name: 'Shoe page',
      intervalMinutes: 60,
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/in', hasSecret: true }],
    });
    expect(added.stdout).not.toContain('whsec_e2e_cli_1');

    const listed = await runCli(['monitor', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${monitor.id}\\s+(pending|healthy|broken|unknown)\\s+1h\\s+\\S+\\s+Shoe page  ${link.replace(/[.?]/g, '\\$&')}$`, 'm'),
    );

    const shown = await runCli(['monitor', 'show', monitor.id, '--format', 'json'], env);
    expect([0, 1, 3]).toContain(shown.code);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: monitor.id, url: link, events: expect.any(Array) });
    const text = await runCli(['monitor', 'show', monitor.id], env);
    expect(text.stdout).toContain(`url         ${link}`);
    expect(text.stdout).toContain('alerts      webhook https://hooks.example.com/in (signed)');

    const ran = await runCli(['monitor', 'run', monitor.id], env);
    expect(ran).toMatchObject({ code: 0, stdout: `run queued for monitor ${monitor.id} (Shoe page)\n` });

    const removed = await runCli(['monitor', 'rm', monitor.id], env);
    expect(removed).toMatchObject({ code: 0, stdout: `deleted monitor ${monitor.id}\n` });
    const gone = await runCli(['monitor', 'show', monitor.id], env);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/^monitor: not_found: /);
    expect((await service.request('GET', `/v1/monitors/${monitor.id}`, { token: env.TRACKCHECK_API_KEY })).status).toBe(404);

    const refused = await runCli(['monitor', 'add', link, '--interval', '5'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^monitor: invalid_parameter: /);
  }, 90_000);
});
