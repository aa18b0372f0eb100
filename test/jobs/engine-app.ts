// An app whose check engine the test supplies (crashing, hanging, counting), on a real database and fake clock.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { buildApp } from '../../src/app.js';
import { issueSessionToken } from '../../src/auth/embedded-idp.js';
import type { Engine } from '../../src/jobs/check-runner.js';
import type { CheckResult } from '../../src/checker/types.js';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.js';
import type { DatabaseKind, TestDatabase } from '../helpers/databases.js';

export interface EngineApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: FakeClock;
  database: TestDatabase;
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startEngineApp(opts: {
  database: DatabaseKind;
  engine: Engine;
  env?: Record<string, string>;
  worker?: boolean;
}): Promise<EngineApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-jobs-'));
  const database = await opts.database.create();
  const config = loadConfig({
    TRACKCHECK_DATA_DIR: dataDir,
    TRACKCHECK_DATABASE_URL: database.url,
    TRACKCHECK_RESOLVE: '*.jobs.example=127.0.0.1',
    TRACKCHECK_RATE_LIMIT: '100000',
    ...opts.env,
  });
  const clock = createFakeClock(Math.floor(Date.now() / 60_000) * 60_000);
  const ctx = await createContext(config, { clock, engine: opts.engine, warn: () => undefined });
  if (opts.worker !== false) ctx.worker.start();
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  const token = await issueSessionToken({ dataDir, userId: 'alice' });
  return {
    app,
    ctx,
    clock,
    database,
    headers: { authorization: `Bearer ${token}` },
    async close() {
      await app.close();
      await ctx.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal verdict, as the engine would return for a link that lands. */
export function fakeResult(url: string): CheckResult {
  return {
    willTrack: true,
    healthScore: 100,
    network: null,
    networkId: null,
    networks: [],
    finalUrl: url,
    finalStatus: 200,
    redirectCount: 0,
    totalRedirectTimeMs: 1,
    hops: [],
    trackingParameterPresent: false,
    trackingParameters: { expected: [], present: [], missing: [] },
    firstPartyCookieSet: false,
    thirdPartyCookieSet: false,
    cookieExpiryDays: null,
    cookies: [],
    issues: [],
    mode: 'http',
    consent: null,
    privacy: null,
  };
}
