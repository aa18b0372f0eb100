// A real app on a real database for route tests: app.inject(), a fake clock, a log capture and token helpers.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createContext, type AppContext, type ContextOptions } from '../../src/context.js';
import { buildApp, REDACTED_LOG_PATHS } from '../../src/app.js';
import { issueSessionToken } from '../../src/auth/embedded-idp.js';
import { createFakeClock, type FakeClock } from './fake-clock.js';
import { sqliteDatabase, type DatabaseKind, type TestDatabase } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  clock: FakeClock;
  database: TestDatabase;
  dataDir: string;
  /** Everything the app logged, as raw text. */
  logs(): string;
  sessionToken(userId: string, ttlSeconds?: number): Promise<string>;
  /** Creates an API key for the user through the API and returns the secret and its id. */
  createKey(userId: string, body?: Record<string, unknown>): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  database?: DatabaseKind;
  env?: Record<string, string>;
  /** Start of the fake clock; defaults to a UTC minute boundary in the current week. */
  now?: number;
  /** Engine settings beyond the config, e.g. the simulator's test CA. */
  engineOptions?: ContextOptions['engineOptions'];
  /** Run the in-process worker (default true). */
  worker?: boolean;
}

export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-data-'));
  const database = await (opts.database ?? sqliteDatabase).create();
  const config = loadConfig({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_DATABASE_URL: database.url, ...opts.env });
  const clock = createFakeClock(opts.now ?? Math.floor(Date.now() / 60_000) * 60_000);
  let logText = '';
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logText += chunk.toString();
      done();
    },
  });
  const ctx = await createContext(config, { clock, engineOptions: opts.engineOptions, warn: (m) => (logText += `${m}\n`) });
  if (opts.worker !== false) ctx.worker.start();
  const app = await buildApp(ctx, { logger: { level: 'info', redact: REDACTED_LOG_PATHS, stream: logStream } });
  await app.ready();
  const sessionToken = (userId: string, ttlSeconds?: number) => issueSessionToken({ dataDir, userId, ttlSeconds });
  return {
    app,
    ctx,
    config,
    clock,
    database,
    dataDir,
    logs: () => logText,
    sessionToken,
    async createKey(userId, body = { name: 'test key' }) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { authorization: `Bearer ${await sessionToken(userId)}` },
        payload: body,
      });
      if (res.statusCode !== 201) throw new Error(`creating a key failed: ${res.statusCode} ${res.body}`);
      const { data } = res.json() as { data: { key: string; id: string } };
      return { key: data.key, id: data.id };
    },
    async close() {
      await app.close();
      await ctx.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
