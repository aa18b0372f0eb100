// `trackcheck session-token --user <id> --login-url` as a child process: the printed link signs in once on a server
// sharing the data dir (or TRACKCHECK_SESSION_SECRET); the plain session-token behaviour is unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawn-service.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, csrfOf } from './signin-helpers.js';

const SECRET = 'a-shared-web-session-secret-of-40-bytes!';

describe('trackcheck session-token --login-url', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function useLink(app: TestApp, url: string): Promise<number> {
    const path = url.slice('https://tc.example'.length);
    const browser = new Browser(app.app);
    const page = await browser.get(path);
    if (page.statusCode !== 200) return page.statusCode;
    const token = new URL(url).searchParams.get('token') ?? '';
    return (await browser.post('/auth/login', { _csrf: csrfOf(page.body), token })).statusCode;
  }

  it('prints a one-time sign-in link under the public URL that the server accepts once', async () => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_PUBLIC_URL: 'https://tc.example' } });
    const env = { TRACKCHECK_DATA_DIR: t.dataDir, TRACKCHECK_PUBLIC_URL: 'https://tc.example' };
    const out = await runCli(['session-token', '--user', 'alice', '--login-url'], env);
    expect(out.code, out.stderr).toBe(0);
    const url = out.stdout.trim();
    expect(url).toMatch(/^https:\/\/tc\.example\/auth\/login\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(out.stderr).toMatch(/one-time sign-in link for alice: works once, until \d{4}-\d\d-\d\dT/);
    expect(await useLink(t, url)).toBe(303);
    expect(await useLink(t, url)).toBe(410);

    // Without --login-url: a session token for the API, as before.
    const plain = await runCli(['session-token', '--user', 'alice'], env);
    expect(plain.code).toBe(0);
    const res = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(plain.stdout.trim()) });
    expect(res.statusCode).toBe(200);
  }, 30_000);

  it('signs links with TRACKCHECK_SESSION_SECRET when set, so instances without a shared data dir agree', async () => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_PUBLIC_URL: 'https://tc.example', TRACKCHECK_SESSION_SECRET: SECRET } });
    const elsewhere = `${t.dataDir}-cli`;
    const out = await runCli(['session-token', '--user', 'bob', '--login-url', '--ttl', '120'], {
      TRACKCHECK_DATA_DIR: elsewhere,
      TRACKCHECK_PUBLIC_URL: 'https://tc.example',
      TRACKCHECK_SESSION_SECRET: SECRET,
    });
    expect(out.code, out.stderr).toBe(0);
    expect(await useLink(t, out.stdout.trim())).toBe(303);
  }, 30_000);

  it('refuses bad input and external identity providers with exit code 2', async () => {
    const base = { TRACKCHECK_DATA_DIR: '/tmp/trackcheck-cli-unused' };
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['session-token', '--login-url'], base, /--user <id> is required/],
      [['session-token', '--user', 'a', '--login-url', '--ttl', '999999'], base, /at most 86400 seconds/],
      [['session-token', '--user', 'a', '--login-url'], { ...base, TRACKCHECK_JWT_SECRET: 'y'.repeat(40) }, /external identity provider/],
      [
        ['session-token', '--user', 'a', '--login-url'],
        { ...base, TRACKCHECK_SESSION_SECRET: 'short' },
        /TRACKCHECK_SESSION_SECRET: must be at least 32 bytes/,
      ],
    ];
    const outs = await Promise.all(cases.map(([args, env]) => runCli(args, env)));
    cases.forEach(([args, , message], i) => {
      expect(outs[i]?.code, args.join(' ')).toBe(2);
      expect(outs[i]?.stderr).toMatch(message);
    });
  }, 60_000);
});
