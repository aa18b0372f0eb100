// Batch throughput: a 500-link batch through the real service (child process, SQLite, in-process worker)
// against `curl --parallel --parallel-max 32 -L` over the same 500 URLs, in the same run; and the bare engine
// (runCheck, 32 at a time, in a process of its own) to show what the queue and the API add to it.
// Run: npx tsx bench/batch-throughput.ts [--write]   (--write updates bench/README.md between the markers)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { issueSessionToken } from '../dist/auth/embedded-idp.js';
import { parseResolveMap } from '../dist/checker/net/address-policy.js';
import { runCheck } from '../dist/checker/check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { updateReadme } from './readme-markers.js';
import { cpuMsOf, memoryOf, startService, type Service } from './service-process.js';

const LINKS = 500;
const HOSTS = 50;
const HOP_LATENCY_MS = 20;
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const TARGET_RATIO = 1.3;
const TARGET_WALL_MS = 2000;
const TARGET_RSS_MB = 400;
const POLL_MS = 100;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Link i: tracker (host i) → network (host i+17) → shop (host i+31), all 302 except the 200 landing page. */
function buildLinks(web: AffiliateWeb, round: string): string[] {
  const host = (n: number) => `h${String(n % HOSTS).padStart(2, '0')}.bench-links.example`;
  const urls: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    urls.push(
      web.chain(
        [
          { host: host(i), path: `/c/${round}/${i}?aff=${i}` },
          { host: host(i + 17), path: `/n/${round}/${i}` },
          { host: host(i + 31), path: `/p/${round}/${i}` },
        ],
        { html: `<!doctype html><html><head><title>Product ${i}</title></head><body>${'<p>copy</p>'.repeat(200)}</body></html>` },
      ),
    );
  }
  return urls;
}

function runCurl(web: AffiliateWeb, urls: string[], dir: string): Promise<number> {
  const config = [
    ...Array.from({ length: HOSTS }, (_, n) => `resolve = "h${String(n).padStart(2, '0')}.bench-links.example:${web.httpPort}:127.0.0.1"`),
    ...urls.flatMap((u) => [`url = "${u}"`, 'output = "/dev/null"']),
  ].join('\n');
  const file = path.join(dir, 'curl.conf');
  writeFileSync(file, config);
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn('curl', ['--parallel', '--parallel-max', '32', '-L', '-s', '--no-progress-meter', '-K', file], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - began) : reject(new Error(`curl exited ${code}`))));
  });
}

/**
 * `--engine-only`: this file as a child process that runs each list of URLs it reads on stdin (one JSON array
 * per line) through runCheck, 32 at a time, and answers with the wall time. No queue, database or HTTP API.
 */
async function serveEngineOnly(resolveSpec: string): Promise<void> {
  const resolve = parseResolveMap(resolveSpec);
  for await (const line of createInterface({ input: process.stdin })) {
    const urls = JSON.parse(line) as string[];
    let next = 0;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < urls.length) await runCheck(urls[next++] ?? '', { resolve });
      }),
    );
    process.stdout.write(`${JSON.stringify({ wallMs: performance.now() - began })}\n`);
  }
}

function startEngineOnly(resolveSpec: string): { run(urls: string[]): Promise<number>; stop(): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--engine-only', resolveSpec], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((ms: number) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.((JSON.parse(line) as { wallMs: number }).wallMs));
  return {
    run: (urls) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(urls)}\n`);
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

interface BatchRun {
  wallMs: number;
  polledMs: number;
  /** POST → 202: validating and storing 500 checks and jobs. */
  acceptedMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/**
 * POSTs the batch and polls it until completed. The wall time runs from just before the POST to the batch's
 * own completedAt (same machine, same clock), so the poll interval adds nothing to it and polling gently
 * (every 100 ms; a real client would wait longer) keeps the poller from loading the service it measures.
 */
async function runBatch(service: Service, token: string, urls: string[]): Promise<BatchRun> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const pid = service.child.pid ?? 0;
  let peakRssMb = memoryOf(pid).rssMb;
  const cpuBefore = cpuMsOf(pid);
  const postedAt = Date.now();
  const began = performance.now();
  const posted = await fetch(`${service.url}/v1/batches`, { method: 'POST', headers, body: JSON.stringify({ urls }) });
  if (posted.status !== 202) throw new Error(`POST /v1/batches: ${posted.status} ${await posted.text()}`);
  const { data } = (await posted.json()) as { data: { id: string } };
  const acceptedMs = performance.now() - began;
  for (;;) {
    await sleep(POLL_MS);
    peakRssMb = Math.max(peakRssMb, memoryOf(pid).rssMb);
    const res = await fetch(`${service.url}/v1/batches/${data.id}`, { headers });
    const batch = ((await res.json()) as { data: { status: string; completed: number; failed: number; completedAt: string | null } }).data;
    if (batch.status === 'completed') {
      const polledMs = performance.now() - began;
      if (batch.completed !== LINKS) throw new Error(`only ${batch.completed} of ${LINKS} completed (${batch.failed} failed)`);
      return { wallMs: Date.parse(batch.completedAt ?? '') - postedAt, polledMs, acceptedMs, cpuMs: cpuMsOf(pid) - cpuBefore, peakRssMb };
    }
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-bench-'));
  const web = await startAffiliateWeb();
  web.setLatency(HOP_LATENCY_MS);
  const rounds = Array.from({ length: RUNS + 1 }, (_, r) => buildLinks(web, `r${r}`));
  const service = await startService({
    TRACKCHECK_DATA_DIR: dir,
    TRACKCHECK_RESOLVE: web.resolveSpec,
    TRACKCHECK_LOG_LEVEL: 'info',
    TRACKCHECK_RATE_LIMIT: '100000',
  });
  const engine = startEngineOnly(web.resolveSpec);
  try {
    const token = await issueSessionToken({ dataDir: dir, userId: 'bench' });
    // Warm-up (JIT, connection pools, SQLite pages) on links of its own, for every contender.
    const warm = rounds[0] ?? [];
    await runBatch(service, token, warm);
    await runCurl(web, warm, dir);
    await engine.run(warm);
    const curlMs: number[] = [];
    const engineMs: number[] = [];
    const batches: BatchRun[] = [];
    for (let r = 1; r <= RUNS; r++) {
      const urls = rounds[r] ?? [];
      // Interleaved, fresh URLs each round (the contenders of one round share them; the simulator answers
      // a repeated URL the same way, and nothing is cached between runs).
      batches.push(await runBatch(service, token, urls));
      curlMs.push(await runCurl(web, urls, dir));
      engineMs.push(await engine.run(urls));
    }
    const hwmMb = memoryOf(service.child.pid ?? 0).hwmMb;
    const batchMs = median(batches.map((b) => b.wallMs));
    const curl = median(curlMs);
    const ratio = batchMs / curl;
    const peakRss = Math.max(...batches.map((b) => b.peakRssMb));
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} CPUs (load average ${os.loadavg()[0]?.toFixed(1)} at the end), median of ${RUNS} runs after a warm-up round.`,
      '',
      '| What | Figure | Target | Met |',
      '|---|---|---|---|',
      `| service: POST of 500 links → batch completedAt (wall) | ${batchMs.toFixed(0)} ms (runs: ${batches.map((b) => b.wallMs.toFixed(0)).join(', ')}) | < ${TARGET_WALL_MS} ms | ${batchMs < TARGET_WALL_MS ? 'yes' : 'NO'} |`,
      `| service: POST → the poll (every ${POLL_MS} ms) that saw it completed | ${median(batches.map((b) => b.polledMs)).toFixed(0)} ms | | |`,
      `| service: POST → 202 (validate, store 500 checks + jobs) | ${median(batches.map((b) => b.acceptedMs)).toFixed(0)} ms | | |`,
      `| service CPU time per batch (user + system) | ${median(batches.map((b) => b.cpuMs)).toFixed(0)} ms | | |`,
      `| curl --parallel --parallel-max 32 -L (wall) | ${curl.toFixed(0)} ms (runs: ${curlMs.map((c) => c.toFixed(0)).join(', ')}) | | |`,
      `| ratio service/curl | ${ratio.toFixed(2)}× | ≤ ${TARGET_RATIO}× | ${ratio <= TARGET_RATIO ? 'yes' : 'NO'} |`,
      `| bare engine: runCheck, 32 at a time, own process (wall) | ${median(engineMs).toFixed(0)} ms (runs: ${engineMs.map((e) => e.toFixed(0)).join(', ')}) | | |`,
      `| ratio engine/curl · service/engine (what the queue, database and API add) | ${(median(engineMs) / curl).toFixed(2)}× · ${(batchMs / median(engineMs)).toFixed(2)}× | | |`,
      `| service peak RSS during the batches (sampled VmRSS) | ${peakRss.toFixed(0)} MB | ≤ ${TARGET_RSS_MB} MB | ${peakRss <= TARGET_RSS_MB ? 'yes' : 'NO'} |`,
      `| service VmHWM (whole life, start-up included) | ${hwmMb.toFixed(0)} MB | ≤ ${TARGET_RSS_MB} MB | ${hwmMb <= TARGET_RSS_MB ? 'yes' : 'NO'} |`,
    ];
    console.log(lines.join('\n'));
    if (process.argv.includes('--write')) updateReadme('batch-throughput', lines.join('\n'));
    const met = batchMs < TARGET_WALL_MS && ratio <= TARGET_RATIO && peakRss <= TARGET_RSS_MB && hwmMb <= TARGET_RSS_MB;
    process.exitCode = met ? 0 : 1;
  } finally {
    engine.stop();
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const engineOnly = process.argv.indexOf('--engine-only');
if (engineOnly >= 0) await serveEngineOnly(process.argv[engineOnly + 1] ?? '');
else await main();
