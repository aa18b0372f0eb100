// Real `trackcheck serve` / `trackcheck worker` child processes for the crash tests, and what they need.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, startService, type RunningService } from '../helpers/spawn-service.js';
import { issueSessionToken } from '../../src/auth/embedded-idp.js';
import type { BatchBody } from './batch-fixtures.js';

export interface RunningWorker {
  child: ChildProcess;
  /** The worker's lease owner id, as stored in jobs.lease_owner. */
  id: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `trackcheck worker` and resolves once it announces its id. */
export function startWorker(env: Record<string, string>, timeoutMs = 30_000): Promise<RunningWorker> {
  const child = spawn(process.execPath, [CLI, 'worker'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /worker (worker-[0-9a-f-]{36}) running/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, id: match[1], output: () => output, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code} before starting:\n${output}`));
    });
  });
}

export function startServe(env: Record<string, string>): Promise<RunningService> {
  return startService(env, 'serve', 30_000);
}

/** SIGKILL, and wait until the process is really gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

export function bearerFor(dataDir: string): Promise<Record<string, string>> {
  return issueSessionToken({ dataDir, userId: 'crash-tester' }).then((token) => ({ authorization: `Bearer ${token}` }));
}

export async function postBatch(baseUrl: string, headers: Record<string, string>, urls: string[]): Promise<BatchBody> {
  const res = await fetch(`${baseUrl}/v1/batches`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ urls }),
  });
  const body = (await res.json()) as { data: BatchBody };
  if (res.status !== 202) throw new Error(`POST /v1/batches: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}
