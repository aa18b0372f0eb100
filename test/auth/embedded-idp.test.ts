import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeJwt, decodeProtectedHeader, type CryptoKey } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SESSION_TTL_SECONDS,
  EMBEDDED_AUDIENCE,
  EMBEDDED_ISSUER,
  issueSessionToken,
  loadOrCreateSigningKey,
  signingKeyPath,
} from '../../src/auth/embedded-idp.js';
import { createSessionVerifier } from '../../src/auth/session-verifier.js';
import { makeKey, nowSeconds } from './helpers.js';
import { definePolicyCases, expectFailure, signWith } from './policy-cases.js';

const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trackcheck-auth-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

describe('embedded identity provider: policy', () => {
  let privateKey: CryptoKey;
  let kid: string;
  let alg: string;
  beforeEach(async () => {
    ({ privateKey, kid, alg } = await loadOrCreateSigningKey(dir));
  });
  definePolicyCases(() => ({
    verifier: () => createSessionVerifier({ mode: 'embedded', dataDir: dir }),
    sign: (c) => signWith(privateKey, alg, c, kid),
    base: { iss: EMBEDDED_ISSUER, aud: EMBEDDED_AUDIENCE },
  }));
});

describe('embedded identity provider', () => {
  it('issues a token that verifies, with its own issuer, audience, kid and a 12 h lifetime', async () => {
    const token = await issueSessionToken({ dataDir: dir, userId: 'alice' });
    await expect(createSessionVerifier({ mode: 'embedded', dataDir: dir }).verify(token)).resolves.toEqual({ userId: 'alice' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: EMBEDDED_ISSUER, aud: EMBEDDED_AUDIENCE, sub: 'alice' });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(DEFAULT_SESSION_TTL_SECONDS);
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('EdDSA');
    expect(header.kid).toBe((await loadOrCreateSigningKey(dir)).kid);
  });

  it('creates the key file with mode 0600 and keeps the same key across calls', async () => {
    const first = await loadOrCreateSigningKey(dir);
    const file = signingKeyPath(dir);
    expect(first.file).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const before = await readFile(file, 'utf8');
    const second = await loadOrCreateSigningKey(dir);
    expect(second.kid).toBe(first.kid);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(JSON.parse(before)).toMatchObject({ version: 1, alg: 'EdDSA', kid: first.kid });
  });

  it('creates the data dir if missing', async () => {
    const nested = path.join(dir, 'a', 'b');
    await loadOrCreateSigningKey(nested);
    expect((await stat(signingKeyPath(nested))).isFile()).toBe(true);
  });

  it('makes a key file that was copied in with a permissive mode private again', async () => {
    await loadOrCreateSigningKey(dir);
    await chmod(signingKeyPath(dir), 0o644);
    await loadOrCreateSigningKey(dir);
    expect((await stat(signingKeyPath(dir))).mode & 0o777).toBe(0o600);
  });

  it('concurrent first calls in a fresh dir end with one key', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSigningKey(dir)));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    expect(await readdir(dir)).toEqual(['session-signing-key.json']); // no temporary files left behind
  });

  it('concurrent first starts of separate processes end with one key', async () => {
    const script = path.join(dir, 'load-key.mts');
    const module = path.resolve('src/auth/embedded-idp.ts');
    await writeFile(
      script,
      `import { loadOrCreateSigningKey } from ${JSON.stringify(module)};\n` +
        `const key = await loadOrCreateSigningKey(process.argv[2]);\nprocess.stdout.write(key.kid);\n`,
    );
    const shared = path.join(dir, 'data');
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', script, shared], { cwd: process.cwd() })),
    );
    const kids = new Set(outputs.map((o) => o.stdout));
    expect(kids.size).toBe(1);
    expect([...kids][0]).toBe((await loadOrCreateSigningKey(shared)).kid);
  });

  it('a token issued in one process verifies in another using the same data dir', async () => {
    const script = path.join(dir, 'issue.mts');
    const module = path.resolve('src/auth/embedded-idp.ts');
    await writeFile(
      script,
      `import { issueSessionToken } from ${JSON.stringify(module)};\n` +
        `process.stdout.write(await issueSessionToken({ dataDir: process.argv[2], userId: 'bob' }));\n`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, dir]);
    await expect(createSessionVerifier({ mode: 'embedded', dataDir: dir }).verify(stdout)).resolves.toEqual({ userId: 'bob' });
  });

  it('a token from another data dir (another key) is refused', async () => {
    const otherDir = path.join(dir, 'other');
    const token = await issueSessionToken({ dataDir: otherDir, userId: 'mallory' });
    await expectFailure(createSessionVerifier({ mode: 'embedded', dataDir: dir }).verify(token), 'invalid_credentials', /unknown key/);
  });

  it('refuses a token signed by a foreign key that claims the embedded kid', async () => {
    const { kid } = await loadOrCreateSigningKey(dir);
    const foreign = await makeKey('EdDSA', kid);
    const claims = { iss: EMBEDDED_ISSUER, aud: EMBEDDED_AUDIENCE, sub: 'x', exp: nowSeconds() + 60 };
    await expectFailure(
      createSessionVerifier({ mode: 'embedded', dataDir: dir }).verify(await signWith(foreign.privateKey, 'EdDSA', claims, kid)),
      'invalid_credentials',
      /signature is invalid/,
    );
  });

  it('refuses HS256 and RS256 tokens', async () => {
    const { kid } = await loadOrCreateSigningKey(dir);
    const v = createSessionVerifier({ mode: 'embedded', dataDir: dir });
    const claims = { iss: EMBEDDED_ISSUER, aud: EMBEDDED_AUDIENCE, sub: 'x', exp: nowSeconds() + 60 };
    const rsa = await makeKey('RS256', kid);
    await expectFailure(v.verify(await signWith(rsa.privateKey, 'RS256', claims, kid)), 'invalid_credentials', /algorithm/);
    await expectFailure(v.verify(await signWith(new Uint8Array(32), 'HS256', claims, kid)), 'invalid_credentials', /algorithm/);
  });

  it('an expired embedded token is token_expired', async () => {
    const token = await issueSessionToken({ dataDir: dir, userId: 'alice', ttlSeconds: 60 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000);
    await expectFailure(createSessionVerifier({ mode: 'embedded', dataDir: dir }).verify(token), 'token_expired');
  });

  it('picks up a replaced key file without a restart', async () => {
    const v = createSessionVerifier({ mode: 'embedded', dataDir: dir });
    const old = await issueSessionToken({ dataDir: dir, userId: 'alice' });
    await expect(v.verify(old)).resolves.toEqual({ userId: 'alice' });
    await unlink(signingKeyPath(dir));
    const fresh = await issueSessionToken({ dataDir: dir, userId: 'alice' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6_000);
    await expect(v.verify(fresh)).resolves.toEqual({ userId: 'alice' });
    await expectFailure(v.verify(old), 'invalid_credentials', /unknown key/);
  });

  it('validates its inputs', async () => {
    await expect(issueSessionToken({ dataDir: dir, userId: '' })).rejects.toThrow(RangeError);
    await expect(issueSessionToken({ dataDir: dir, userId: 'a', ttlSeconds: 0 })).rejects.toThrow(RangeError);
    await expect(issueSessionToken({ dataDir: dir, userId: 'a', ttlSeconds: 1.5 })).rejects.toThrow(RangeError);
  });

  it('a corrupt key file is an error naming the file, not a silent new key', async () => {
    await writeFile(signingKeyPath(dir), '{"version":1', { mode: 0o600 });
    await expect(loadOrCreateSigningKey(dir)).rejects.toThrow(/session-signing-key\.json is corrupt/);
    const v = createSessionVerifier({ mode: 'embedded', dataDir: dir });
    const err = await v.verify('a.b.c').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('Error'); // a server fault (500), not an AuthFailure (401)
  });

  it('describe() names the key file', () => {
    expect(createSessionVerifier({ mode: 'embedded', dataDir: dir }).describe()).toContain(signingKeyPath(dir));
  });
});
