// Start-up: wall time from `npm start` to the `listening on` line (fresh data dir each time: first start,
// migrations included), against a bare Fastify server started the same way (`node` on a one-file script).
// Run: npx tsx bench/startup.ts [--write] [--project <dir>]   (--project: measure another checkout, e.g. an
// older commit, with the same reference)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { updateReadme } from './readme-markers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 9);

const BARE = `import Fastify from ${JSON.stringify(path.join(ROOT, 'node_modules/fastify/fastify.js'))};
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('listening on ' + 'http://127.0.0.1:' + app.server.address().port);`;

/** Milliseconds until the child prints `listening on`; the child's process group is then stopped. */
function timeToListening(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('listening on')) return;
      const ms = performance.now() - started;
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.once('close', () => resolve(ms));
      process.kill(-(child.pid as number), 'SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (!output.includes('listening on')) reject(new Error(`${command} exited with ${code}:\n${output}`));
    });
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { write: { type: 'boolean' }, project: { type: 'string' } } });
  const project = path.resolve(values.project ?? ROOT);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-startup-'));
  const bare = path.join(scratch, 'bare.mjs');
  writeFileSync(bare, BARE);
  const service: number[] = [];
  const reference: number[] = [];
  try {
    // Interleaved, so a busy moment on the machine hits both.
    for (let run = 0; run < RUNS; run += 1) {
      const dataDir = mkdtempSync(path.join(scratch, 'data-'));
      service.push(await timeToListening('npm', ['start', '--silent'], project, { PORT: '0', TRACKCHECK_DATA_DIR: dataDir }));
      reference.push(await timeToListening(process.execPath, [bare], scratch, {}));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const s = median(service);
  const r = median(reference);
  const table = [
    '| | median to `listening on` | runs |',
    '|---|---|---|',
    `| \`npm start\` (${values.project === undefined ? 'this checkout' : path.basename(project)}) | ${Math.round(s)} ms (${(s / r).toFixed(2)}× the bare server) | ${RUNS} |`,
    `| bare Fastify (\`node bare.mjs\`) | ${Math.round(r)} ms | ${RUNS} |`,
  ].join('\n');
  console.log(table);
  if (values.write) updateReadme('startup', table);
}

await main();
