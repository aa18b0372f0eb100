// The signature snippets in docs/monitors.md, run as written against bodies signed by signWebhook and, for
// the Node receiver, against a real delivery. A snippet that drifts from the signing code fails here.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseResolveMap } from '../../../src/checker/net/address-policy.js';
import { closePinnedClients } from '../../../src/checker/net/pinned-agent.js';
import { DEFAULT_TOLERANCE_SECONDS, deliver, serializeWebhookBody, signWebhook } from '../../../src/services/alerts/index.js';
import { sampleAlert } from './helpers.js';

const SECTION = '## Verifying a webhook signature';
const SECRET = 'whsec_docs_0123456789 with spaces';
const dir = mkdtempSync(path.join(tmpdir(), 'trackcheck-snippets-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closePinnedClients();
});

function snippets(language: string): string[] {
  const doc = readFileSync(new URL('../../../docs/monitors.md', import.meta.url), 'utf8');
  const start = doc.indexOf(SECTION);
  expect(start).toBeGreaterThanOrEqual(0);
  const section = doc.slice(start);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language).map((m) => m[2] ?? '');
}

// A body with non-ASCII text, so a snippet that signs characters instead of bytes fails.
const alert = sampleAlert();
alert.event.changes.push({ field: 'finalUrl', from: 'https://bücher.example/a', to: 'https://bücher.example/→' });
const BODY = serializeWebhookBody(alert.event);
const bodyFile = path.join(dir, 'body.json');
const tamperedFile = path.join(dir, 'tampered.json');
writeFileSync(bodyFile, BODY);
writeFileSync(tamperedFile, BODY.replace('monitor.broken', 'monitor.recovered'));

const nowSeconds = () => Math.floor(Date.now() / 1000);
// The Python and shell snippets need their interpreters; a machine without one skips that test, saying why.
const missing = (command: string, args: string[]) => (spawnSync(command, args, { encoding: 'utf8' }).status === 0 ? null : command);
const NO_PYTHON = missing('python3', ['--version']);
const NO_OPENSSL = missing('openssl', ['version']);
const cases = () => {
  const fresh = signWebhook(SECRET, BODY, nowSeconds());
  return [
    { name: 'a fresh signature', header: fresh, file: bodyFile, secret: SECRET, valid: true },
    { name: 'a changed body', header: fresh, file: tamperedFile, secret: SECRET, valid: false },
    { name: 'another secret', header: fresh, file: bodyFile, secret: 'whsec_someone_else', valid: false },
    { name: 'an hour-old signature', header: signWebhook(SECRET, BODY, nowSeconds() - 3600), file: bodyFile, secret: SECRET, valid: false },
    {
      name: 'a second v1 after a wrong one',
      header: `${fresh.replace(/v1=\w+/, `v1=${'0'.repeat(64)}`)},${fresh.split(',')[1]}`,
      file: bodyFile,
      secret: SECRET,
      valid: true,
    },
    { name: 'no timestamp', header: fresh.split(',')[1] ?? '', file: bodyFile, secret: SECRET, valid: false },
  ];
};

describe('docs/monitors.md signature snippets', () => {
  it('has one Node function, one Node receiver, one Python and one shell snippet', () => {
    expect(snippets('js')).toHaveLength(2);
    expect(snippets('python')).toHaveLength(1);
    expect(snippets('sh')).toHaveLength(1);
  });

  it('every snippet defaults to the tolerance trackcheck recommends (DEFAULT_TOLERANCE_SECONDS)', () => {
    expect(snippets('js')[0]).toContain(`toleranceSeconds = ${DEFAULT_TOLERANCE_SECONDS})`);
    expect(snippets('python')[0]).toContain(`tolerance_seconds: int = ${DEFAULT_TOLERANCE_SECONDS})`);
    expect(snippets('sh')[0]).toContain(`tolerance=${DEFAULT_TOLERANCE_SECONDS}\n`);
    expect(readFileSync(new URL('../../../docs/monitors.md', import.meta.url), 'utf8')).toContain(
      `within\n   ${DEFAULT_TOLERANCE_SECONDS / 60} minutes of your clock`,
    );
  });

  it('the Node function verifies a body signed by trackcheck and refuses the rest', () => {
    const script = path.join(dir, 'verify.mjs');
    const harness = `
import { readFileSync } from 'node:fs';
const [header, file, secret] = process.argv.slice(2);
console.log(verifyTrackcheckSignature(header, readFileSync(file), secret) ? 'valid' : 'invalid');`;
    writeFileSync(script, `${snippets('js')[0]}\n${harness}\n`);
    for (const c of cases()) {
      const run = spawnSync(process.execPath, [script, c.header, c.file, c.secret], { encoding: 'utf8', timeout: 10_000 });
      expect(run.stderr, c.name).toBe('');
      expect(run.stdout.trim(), c.name).toBe(c.valid ? 'valid' : 'invalid');
    }
  });

  it.skipIf(NO_PYTHON !== null)(`the Python function does too${NO_PYTHON ? ' (skipped: python3 is not installed)' : ''}`, () => {
    const script = path.join(dir, 'verify.py');
    const harness = `
import sys
with open(sys.argv[2], "rb") as f:
    print("valid" if verify_trackcheck_signature(sys.argv[1], f.read(), sys.argv[3]) else "invalid")`;
    writeFileSync(script, `${snippets('python')[0]}\n${harness}\n`);
    for (const c of cases()) {
      const run = spawnSync('python3', [script, c.header, c.file, c.secret], { encoding: 'utf8', timeout: 10_000 });
      expect(run.stderr, c.name).toBe('');
      expect(run.stdout.trim(), c.name).toBe(c.valid ? 'valid' : 'invalid');
    }
  });

  it.skipIf(NO_OPENSSL !== null)(
    `the shell script does too, with its exit status${NO_OPENSSL ? ' (skipped: openssl is not installed)' : ''}`,
    () => {
      const script = path.join(dir, 'verify-signature.sh');
      writeFileSync(script, snippets('sh')[0] ?? '');
      for (const c of cases()) {
        const run = spawnSync('sh', [script, c.header, c.file], {
          encoding: 'utf8',
          timeout: 10_000,
          env: { PATH: process.env.PATH, TRACKCHECK_WEBHOOK_SECRET: c.secret },
        });
        expect(run.status, `${c.name}: ${run.stderr}`).toBe(c.valid ? 0 : 1);
        expect(run.stdout.trim(), c.name).toBe(c.valid ? 'valid' : '');
      }
    },
  );

  it('the Node receiver accepts a real delivery once, and refuses one signed with another secret', async () => {
    const port = await freePort();
    const script = path.join(dir, 'receiver.mjs');
    const [verifier, receiver] = snippets('js');
    writeFileSync(script, `${verifier}\n${receiver}\n`);
    const child = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH, PORT: String(port), TRACKCHECK_WEBHOOK_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitForPort(port);
      const deps = { options: { smtpUrl: null, alertFrom: 'x@example.test' }, resolve: parseResolveMap('receiver.example.test=127.0.0.1') };
      const url = `http://receiver.example.test:${port}/trackcheck`;
      const first = await deliver(alert, { type: 'webhook', url, secret: SECRET }, 'delivery-1', deps);
      const retry = await deliver(alert, { type: 'webhook', url, secret: SECRET }, 'delivery-1', deps);
      const forged = await deliver(alert, { type: 'webhook', url, secret: 'whsec_forger_000' }, 'delivery-2', deps);
      expect([first, retry]).toEqual([
        { ok: true, detail: 'HTTP 204' },
        { ok: true, detail: 'HTTP 204' },
      ]);
      expect(forged).toEqual({ ok: false, error: 'HTTP 400', retryable: true });
      expect(stdout).toBe(`monitor.broken for monitor ${alert.event.monitorId} (delivery delivery-1)\n`);
      expect(stderr).toBe('');
    } finally {
      child.kill();
    }
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}
