// Runs the real service as a child process: `trackcheck <command>` through the bin, or `npm start` exactly as
// the README tells a user (the e2e suite). Both run the compiled JavaScript in dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const CLI = path.resolve('bin/trackcheck.js');
export const PROJECT_ROOT = path.resolve('.');

export interface RunningService {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Resolves once the child logs `listening on http://…`; `kill` sends a signal to what was started. */
function whenListening(child: ChildProcess, timeoutMs: number, kill: (signal: NodeJS.Signals) => void): Promise<RunningService> {
  let output = '';
  // 'close' (every process holding the output pipes has ended), not 'exit': under `npm start` the service is
  // npm's child and may still be shutting down when npm itself is gone.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1],
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Starts `trackcheck <command>` and resolves once it logs `listening on http://…`. */
export function startService(env: Record<string, string>, command = 'serve', timeoutMs = 20_000): Promise<RunningService> {
  const child = spawn(process.execPath, [CLI, command], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return whenListening(child, timeoutMs, (signal) => child.kill(signal));
}

/**
 * `npm start` in the project directory, as a user runs it. npm runs the service in a child of its own, so the
 * whole process group gets the signal (as a terminal's Ctrl-C would).
 */
export function startNpmService(env: Record<string, string>, timeoutMs = 30_000): Promise<RunningService> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return whenListening(child, timeoutMs, (signal) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  });
}

/** Runs a CLI command to completion. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(input ?? '');
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
