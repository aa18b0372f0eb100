// Real `trackcheck serve` / `trackcheck worker` child processes for the scale suite: started, watched, killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../helpers/spawn-service.js';

export interface TrackcheckProcess {
  readonly name: string;
  readonly command: 'serve' | 'worker';
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT` of a `serve` process; null for a worker. */
  readonly url: string | null;
  /** The worker id a `worker` process announced (what `jobs.lease_owner` holds); null for `serve`. */
  readonly workerId: string | null;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  readonly alive: boolean;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code or signal once it has exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string | null>;
}

// `serve` logs `listening on http://…`; `worker` prints `worker <id> running N checks at once`.
const READY: Record<TrackcheckProcess['command'], RegExp> = {
  serve: /listening on (http:\/\/[^\s"]+)/,
  worker: /worker (worker-[0-9a-f-]{36}) running/,
};

/** Spawns `trackcheck <command>` with exactly `env` (on top of PATH etc.) and waits until it is ready. */
export function spawnTrackcheck(
  name: string,
  command: TrackcheckProcess['command'],
  env: Record<string, string>,
  // Generous: four processes compiling TypeScript at once on a busy CI machine take a while to listen.
  timeoutMs = 90_000,
): Promise<TrackcheckProcess> {
  const child = spawn(process.execPath, [CLI, command], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: number | string | null | undefined;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = code ?? signal;
      resolve(exit);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} (${command}) not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    let ready = false;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready) return;
      const match = READY[command].exec(output);
      if (!match?.[1]) return;
      ready = true;
      clearTimeout(timer);
      const found = match[1];
      resolve({
        name,
        command,
        child,
        url: command === 'serve' ? found : null,
        workerId: command === 'worker' ? found : null,
        output: () => output,
        get alive() {
          return exit === undefined;
        },
        async stop(signal = 'SIGTERM', graceMs = 10_000) {
          if (exit !== undefined) return exit;
          child.kill(signal);
          // A process that does not finish its graceful shutdown in time is killed: teardown must end.
          const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const code = await exited;
          clearTimeout(force);
          return code;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${name} (${command}) exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** Parsed pino lines of a process (other output is skipped). */
export function logLines(proc: TrackcheckProcess): Array<{ level?: number; msg?: string; err?: { message?: string } }> {
  const lines: Array<{ level?: number; msg?: string; err?: { message?: string } }> = [];
  for (const line of proc.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as { level?: number; msg?: string });
    } catch {
      // a line cut in half by a chunk boundary, or not JSON after all
    }
  }
  return lines;
}
