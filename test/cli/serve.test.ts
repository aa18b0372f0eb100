import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { runCli, startService, type RunningService } from '../helpers/spawn-service.js';
import { findClosedPort } from '../rate-limit/tcp-proxy.js';

const exec = promisify(execFile);

async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await exec('curl', ['-s', '-w', '\n%{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

describe('trackcheck serve, end to end', () => {
  let dataDir: string;
  let service: RunningService;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-cli-'));
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs the real port and runs the README walk-through with curl', async () => {
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.url).not.toMatch(/:0$/);
    const token = (await runCli(['session-token', '--user', 'alice'], { TRACKCHECK_DATA_DIR: dataDir })).stdout.trim();
    expect(token.split('.')).toHaveLength(3);

    const created = await curl([
      '-X',
      'POST',
      `${service.url}/v1/keys`,
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"name":"my laptop"}',
    ]);
    expect(created.status).toBe(201);
    const { id, key } = JSON.parse(created.body).data;

    const listed = await curl([`${service.url}/v1/keys`, '-H', `Authorization: Bearer ${key}`]);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).data[0].id).toBe(id);

    const revoked = await curl(['-X', 'DELETE', `${service.url}/v1/keys/${id}`, '-H', `Authorization: Bearer ${token}`]);
    expect(revoked.status).toBe(200);
    const after = await curl([`${service.url}/v1/keys`, '-H', `Authorization: Bearer ${key}`]);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body).error.code).toBe('invalid_api_key');
    expect(service.output()).not.toContain(key);
  });
});

describe('trackcheck CLI', () => {
  it('refuses a bad configuration value, naming the variable', async () => {
    const bad = await runCli(['serve'], { PORT: 'eighty', TRACKCHECK_DATA_DIR: os.tmpdir() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('PORT');
    const both = await runCli(['serve'], { TRACKCHECK_JWKS_URL: 'https://idp.example/jwks', TRACKCHECK_JWT_SECRET: 'x'.repeat(40) });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('TRACKCHECK_JWKS_URL');
    expect(both.stderr).toContain('TRACKCHECK_JWT_SECRET');
  });

  it('migrates, prints help, and requires --user for session-token', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-cli-'));
    const migrated = await runCli(['migrate'], { TRACKCHECK_DATA_DIR: dir });
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain('up to date');
    expect((await runCli(['help'], {})).stdout).toContain('session-token');
    expect((await runCli(['frobnicate'], {})).code).toBe(2);
    const noUser = await runCli(['session-token'], { TRACKCHECK_DATA_DIR: dir });
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--user');
    rmSync(dir, { recursive: true, force: true });
  });

  it('says in one line, without a stack trace, when the database is unreachable or newer than this version', async () => {
    const unreachable = await runCli(['migrate'], {
      TRACKCHECK_DATABASE_URL: `postgres://nobody:secret@127.0.0.1:${await findClosedPort()}/db`,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toMatch(
      /^database unavailable: connect ECONNREFUSED 127\.0\.0\.1:\d+; check TRACKCHECK_DATABASE_URL/,
    );
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-cli-'));
    expect((await runCli(['migrate'], { TRACKCHECK_DATA_DIR: dir })).code).toBe(0);
    const db = new Database(path.join(dir, 'trackcheck.db'));
    db.prepare("insert into kysely_migration (name, timestamp) values ('999-from-the-future', '2030-01-01T00:00:00.000Z')").run();
    db.close();
    const newer = await runCli(['migrate'], { TRACKCHECK_DATA_DIR: dir });
    expect(newer.code).toBe(1);
    expect(newer.stderr.trim()).toBe(
      'database error: the database was migrated by a newer trackcheck (it has migration 999-from-the-future, unknown to this version); run the newer version, or restore the backup taken before the upgrade (docs/operations.md)',
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
