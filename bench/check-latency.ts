// Check latency: followChain (in-process, warm) against `curl -sL` (spawned) on the same local 5-hop
// chain, with 0 ms and 10 ms of injected latency per hop. Run: npx tsx bench/check-latency.ts [--write]
// (--write puts the table into bench/README.md between the check-latency markers).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { followChain } from '../dist/checker/follow/chain.js';
import { closePinnedClients } from '../dist/checker/net/pinned-agent.js';
import { startAffiliateWeb, type AffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { addNetworkChain } from './network-chain.js';
import { updateReadme } from './readme-markers.js';

const ITERATIONS = Number(process.env['BENCH_ITERATIONS'] ?? 30);
const WARMUP = 5;
const LATENCIES = [0, 10];
const TARGETS: Record<number, number> = { 0: 4, 10: 1.1 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function timeEngine(web: AffiliateWeb, start: string): Promise<number> {
  const began = performance.now();
  const trace = await followChain(start, { resolve: web.resolve });
  const took = performance.now() - began;
  if (trace.end.reason !== 'landed' || trace.hops.length !== 5) throw new Error(`engine did not land: ${JSON.stringify(trace.end)}`);
  return took;
}

function timeCurl(web: AffiliateWeb, start: string, hosts: string[]): Promise<number> {
  const args = [
    '-sL',
    '-o',
    '/dev/null',
    '-w',
    '%{num_redirects}',
    ...hosts.flatMap((h) => ['--resolve', `${h}:${web.httpPort}:127.0.0.1`]),
    start,
  ];
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const took = performance.now() - began;
      if (code !== 0 || out.trim() !== '4') reject(new Error(`curl failed (exit ${code}, redirects ${out})`));
      else resolve(took);
    });
  });
}

interface Row {
  latencyMs: number;
  engineMs: number;
  curlMs: number;
  ratio: number;
  target: number;
}

async function measure(web: AffiliateWeb, latencyMs: number, start: string, hosts: string[]): Promise<Row> {
  web.setLatency(latencyMs);
  for (let i = 0; i < WARMUP; i += 1) {
    await timeEngine(web, start);
    await timeCurl(web, start, hosts);
  }
  const engine: number[] = [];
  const curl: number[] = [];
  // Interleaved so both see the same machine conditions.
  for (let i = 0; i < ITERATIONS; i += 1) {
    engine.push(await timeEngine(web, start));
    curl.push(await timeCurl(web, start, hosts));
  }
  const engineMs = median(engine);
  const curlMs = median(curl);
  return { latencyMs, engineMs, curlMs, ratio: engineMs / curlMs, target: TARGETS[latencyMs] ?? Number.NaN };
}

function renderTable(rows: Row[]): string {
  const lines = [
    '| Injected latency per hop | followChain median | curl -sL median | Ratio engine/curl | Target | Met |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.latencyMs} ms | ${r.engineMs.toFixed(2)} ms | ${r.curlMs.toFixed(2)} ms | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× | ${r.ratio <= r.target ? 'yes' : 'NO'} |`,
    ),
  ];
  return lines.join('\n');
}

function writeReadme(table: string): void {
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ITERATIONS} iterations each after ${WARMUP} warm-up runs.`;
  updateReadme('check-latency', `${stamp}\n\n${table}`);
}

const web = await startAffiliateWeb();
try {
  const { start, hosts } = addNetworkChain(web);
  const rows: Row[] = [];
  for (const latency of LATENCIES) rows.push(await measure(web, latency, start, hosts));
  const table = renderTable(rows);
  console.log(table);
  if (process.argv.includes('--write')) writeReadme(table);
  if (rows.some((r) => r.ratio > r.target)) process.exitCode = 1;
} finally {
  await closePinnedClients();
  await web.close();
}
