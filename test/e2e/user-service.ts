// The service exactly as a user runs it: `npm start` (the compiled JavaScript in dist/, plain node), PORT=0, a
// fresh data dir, the local affiliate web behind TRACKCHECK_RESOLVE, its test CA trusted through the operator
// setting TRACKCHECK_EXTRA_CA_CERTS (no test-only switch). Driven over HTTP and the CLI only: nothing here
// imports the service's code.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AffiliateWeb } from '../fixtures/affiliate-web.js';
import { PROJECT_ROOT, runCli, startNpmService, type RunningService } from '../helpers/spawn-service.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = { data: Record<string, unknown> }>(): T;
}

export interface UserService {
  url: string;
  /** The environment the service runs with; CLI commands get the same. */
  env: Record<string, string>;
  request(method: string, urlPath: string, options?: { body?: unknown; token?: string }): Promise<ApiResponse>;
  /** An API key of `user`, made as the README shows: a session token from the CLI, then POST /v1/keys. */
  apiKey(user: string): Promise<string>;
  /** Polls GET /v1/checks/:slug (with `token` when given) until the check is finished. */
  finishedCheck(slug: string, options?: { token?: string; timeoutMs?: number }): Promise<Record<string, unknown>>;
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startUserService(web: AffiliateWeb, extraEnv: Record<string, string> = {}): Promise<UserService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-e2e-'));
  const caFile = path.join(dataDir, 'test-ca.pem');
  writeFileSync(caFile, web.caCert);
  const env: Record<string, string> = {
    TRACKCHECK_DATA_DIR: dataDir,
    TRACKCHECK_RESOLVE: web.resolveSpec,
    TRACKCHECK_EXTRA_CA_CERTS: caFile,
    TRACKCHECK_LOG_LEVEL: 'info', // 'listening on …' and the shutdown line are info
    // The suites poll; the per-minute limits have suites of their own (test/http/rate-limit.test.ts).
    TRACKCHECK_RATE_LIMIT: '100000',
    TRACKCHECK_ANON_RATE_LIMIT: '100000',
    TRACKCHECK_ANON_WEEKLY_CHECKS: '1000',
    ...extraEnv,
  };
  let running: RunningService;
  try {
    running = await startNpmService(env);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const url = running.url;

  async function request(method: string, urlPath: string, options: { body?: unknown; token?: string } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    const res = await fetch(`${url}${urlPath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
  }

  return {
    url,
    env: { ...env, TRACKCHECK_SERVER: url },
    request,
    async apiKey(user) {
      const token = await runCli(['session-token', '--user', user], env);
      if (token.code !== 0) throw new Error(`session-token failed: ${token.stderr}`);
      const res = await request('POST', '/v1/keys', { body: { name: 'e2e' }, token: token.stdout.trim() });
      if (res.status !== 201) throw new Error(`POST /v1/keys: ${res.status} ${res.text}`);
      return String(res.json().data['key']);
    },
    async finishedCheck(slug, { token, timeoutMs = 60_000 } = {}) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const res = await request('GET', `/v1/checks/${slug}`, token === undefined ? {} : { token });
        if (res.status !== 200) throw new Error(`GET /v1/checks/${slug}: ${res.status} ${res.text}`);
        const check = res.json().data;
        if (check['status'] === 'completed' || check['status'] === 'failed') return check;
        if (Date.now() > until) throw new Error(`check ${slug} still ${String(check['status'])} after ${timeoutMs} ms`);
        await sleep(200);
      }
    },
    output: () => running.output(),
    async stop() {
      // The terminal's Ctrl-C: SIGTERM to npm and the service together. npm ends by the signal; the service
      // must shut down cleanly (it logs it) rather than be cut off.
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (!running.output().includes('SIGTERM received, shutting down'))
        throw new Error(`the service did not shut down on SIGTERM:\n${running.output()}`);
    },
  };
}

/** `npx trackcheck <args>` in the project directory, as the README shows it. */
export function runNpx(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'trackcheck', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
