// Page scans: a 200-link article through the real service (POST /v1/scans → the scan's completedAt) against what a
// client does without scans: fetch the page itself, then check the same 200 links as a batch (POST /v1/batches →
// the batch's completedAt), in the same run, interleaved. Extraction and the scan's page-fetch job must cost
// nothing noticeable: target ≤ 1.1× the batch. Peak RSS of the service is reported.
// Run: npx tsx bench/scan.ts [--write]   (--write updates bench/README.md between the markers)
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { issueSessionToken } from '../dist/auth/embedded-idp.js';
import { startAffiliateWeb, type AffiliateWeb } from '../test/fixtures/affiliate-web.js';
import { updateReadme } from './readme-markers.js';
import { memoryOf, startService, type Service } from './service-process.js';

const LINKS = 200;
const HOSTS = 50;
const HOP_LATENCY_MS = 20;
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const TARGET_RATIO = 1.1;
const POLL_MS = 100;
const BLOG = 'www.bench-blog.example';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * An article of about 120 KB with 200 cloaked affiliate links (`hNN.bench-blog.example/go/…`, the site's own, over
 * 50 hosts, each a 3-hop chain like batch-throughput's) among 100 ordinary links, images and paragraphs.
 */
function buildArticle(web: AffiliateWeb, round: string): { page: string; links: string[] } {
  const host = (n: number, kind: string) => `h${String(n % HOSTS).padStart(2, '0')}.${kind}.example`;
  const links: string[] = [];
  const paragraphs: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const link = web.chain(
      [
        { host: host(i, 'bench-blog'), path: `/go/${round}-${i}` },
        { host: host(i + 17, 'bench-net'), path: `/n/${round}/${i}` },
        { host: host(i + 31, 'bench-shop'), path: `/p/${round}/${i}` },
      ],
      { html: `<!doctype html><html><head><title>Product ${i}</title></head><body>${'<p>copy</p>'.repeat(200)}</body></html>` },
    );
    links.push(link);
    paragraphs.push(
      `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6)}<a href="${link}" rel="sponsored">Product ${i}</a>` +
        (i % 2 === 0 ? ` and <a href="/guides/${round}/${i}">our guide ${i}</a>` : '') +
        ` <img src="/img/${i}.jpg" alt="Product ${i}"></p>`,
    );
  }
  const pagePath = `/best-things-${round}`;
  web.page(
    BLOG,
    pagePath,
    `<!doctype html><html><head><title>The 200 best things</title></head><body><article>${paragraphs.join('\n')}</article></body></html>`,
  );
  return { page: web.url(BLOG, pagePath), links };
}

interface Run {
  wallMs: number;
  peakRssMb: number;
  /** POST → the links' checks created (for a scan: the page read, its links extracted and queued). */
  queuedMs: number;
  /** The last check's outcome stored → the scan or batch completed (the completion probe; a scan's findings). */
  closingMs: number;
}

/** POSTs `body` to `/v1/<kind>` and polls until its completedAt; the wall time ends at completedAt (same clock). */
async function runToCompletion(
  service: Service,
  token: string,
  kind: 'scans' | 'batches',
  body: unknown,
  startedAt: number,
  expectTotal: number,
): Promise<Run> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const pid = service.child.pid ?? 0;
  let peakRssMb = memoryOf(pid).rssMb;
  const posted = await fetch(`${service.url}/v1/${kind}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (posted.status !== 202) throw new Error(`POST /v1/${kind}: ${posted.status} ${await posted.text()}`);
  const { data } = (await posted.json()) as { data: { id: string } };
  for (;;) {
    await sleep(POLL_MS);
    peakRssMb = Math.max(peakRssMb, memoryOf(pid).rssMb);
    const res = await fetch(`${service.url}/v1/${kind}/${data.id}`, { headers });
    const got = (
      (await res.json()) as {
        data: {
          status: string;
          total: number;
          completed: number;
          completedAt: string | null;
          links?: { slug: string }[];
          checks?: { slug: string }[];
        };
      }
    ).data;
    if (got.status === 'failed') throw new Error(`${kind} ${data.id} failed`);
    if (got.status === 'completed') {
      if (got.total !== expectTotal || got.completed !== expectTotal)
        throw new Error(`${kind}: ${got.completed} of ${got.total} completed, expected ${expectTotal}`);
      // The last link's check is created at the moment the links were queued (services/batches.ts, scan-runner.ts).
      const checks = await Promise.all(
        (got.links ?? got.checks ?? []).map(
          async (c) =>
            (
              (await (await fetch(`${service.url}/v1/checks/${c.slug}`, { headers })).json()) as {
                data: { createdAt: string; completedAt: string };
              }
            ).data,
        ),
      );
      const queuedAt = Date.parse(checks.at(-1)?.createdAt ?? '');
      const lastDone = Math.max(...checks.map((c) => Date.parse(c.completedAt)));
      const completedAt = Date.parse(got.completedAt ?? '');
      return { wallMs: completedAt - startedAt, peakRssMb, queuedMs: queuedAt - startedAt, closingMs: completedAt - lastDone };
    }
  }
}

async function runScan(service: Service, token: string, page: string): Promise<Run> {
  return runToCompletion(service, token, 'scans', { url: page }, Date.now(), LINKS);
}

/** The client fetches the page (its time counts), then submits the links it already knows as a batch. */
async function runFetchAndBatch(
  service: Service,
  token: string,
  page: string,
  links: string[],
  web: AffiliateWeb,
): Promise<Run & { fetchMs: number }> {
  const startedAt = Date.now();
  const began = performance.now();
  // The service's own fetch resolves through TRACKCHECK_RESOLVE; the client reaches the simulator directly.
  await new Promise<void>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: web.httpPort, path: new URL(page).pathname, headers: { host: `${BLOG}:${web.httpPort}` } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
  });
  const fetchMs = performance.now() - began;
  return { ...(await runToCompletion(service, token, 'batches', { urls: links }, startedAt, LINKS)), fetchMs };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-bench-scan-'));
  const web = await startAffiliateWeb();
  web.setLatency(HOP_LATENCY_MS);
  const rounds = Array.from({ length: RUNS + 1 }, (_, r) => buildArticle(web, `r${r}`));
  const service = await startService({
    TRACKCHECK_DATA_DIR: dir,
    TRACKCHECK_RESOLVE: web.resolveSpec,
    TRACKCHECK_LOG_LEVEL: 'info',
    TRACKCHECK_RATE_LIMIT: '100000',
  });
  try {
    const token = await issueSessionToken({ dataDir: dir, userId: 'bench' });
    const warm = rounds[0] ?? { page: '', links: [] };
    await runScan(service, token, warm.page);
    await runFetchAndBatch(service, token, warm.page, warm.links, web);
    const scans: Run[] = [];
    const batches: (Run & { fetchMs: number })[] = [];
    for (let r = 1; r <= RUNS; r++) {
      const round = rounds[r] ?? { page: '', links: [] };
      // Alternating which goes first, so neither always runs on a warmer service.
      if (r % 2 === 1) {
        scans.push(await runScan(service, token, round.page));
        batches.push(await runFetchAndBatch(service, token, round.page, round.links, web));
      } else {
        batches.push(await runFetchAndBatch(service, token, round.page, round.links, web));
        scans.push(await runScan(service, token, round.page));
      }
    }
    const scanMs = median(scans.map((s) => s.wallMs));
    const batchMs = median(batches.map((b) => b.wallMs));
    const ratio = scanMs / batchMs;
    const peakRss = Math.max(...scans.map((s) => s.peakRssMb), ...batches.map((b) => b.peakRssMb));
    const hwmMb = memoryOf(service.child.pid ?? 0).hwmMb;
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} CPUs (load average ${os.loadavg()[0]?.toFixed(1)} at the end), median of ${RUNS} runs after a warm-up round.`,
      '',
      '| What | Figure | Target | Met |',
      '|---|---|---|---|',
      `| scan: POST /v1/scans of a 200-link article → scan completedAt (wall) | ${scanMs.toFixed(0)} ms (runs: ${scans.map((s) => s.wallMs.toFixed(0)).join(', ')}) | | |`,
      `| reference: client fetches the page, POST /v1/batches of its 200 links → batch completedAt (wall) | ${batchMs.toFixed(0)} ms (runs: ${batches.map((b) => b.wallMs.toFixed(0)).join(', ')}; page fetch ${median(batches.map((b) => b.fetchMs)).toFixed(0)} ms) | | |`,
      `| of which: POST → links queued (scan: page fetched, links extracted and queued; reference: page fetched by the client, batch stored) | ${median(scans.map((x) => x.queuedMs)).toFixed(0)} ms · ${median(batches.map((x) => x.queuedMs)).toFixed(0)} ms | | |`,
      `| of which: links queued → completedAt (the checks) | ${median(scans.map((x) => x.wallMs - x.queuedMs)).toFixed(0)} ms · ${median(batches.map((x) => x.wallMs - x.queuedMs)).toFixed(0)} ms | | |`,
      `| of which: last check stored → completedAt (the completion probe; for the scan, its page findings too) | ${median(scans.map((x) => x.closingMs)).toFixed(0)} ms · ${median(batches.map((x) => x.closingMs)).toFixed(0)} ms | | |`,
      `| ratio scan/reference | ${ratio.toFixed(2)}× | ≤ ${TARGET_RATIO}× | ${ratio <= TARGET_RATIO ? 'yes' : 'NO'} |`,
      `| service peak RSS during the runs (sampled VmRSS) | ${peakRss.toFixed(0)} MB | | |`,
      `| service VmHWM (whole life, start-up included) | ${hwmMb.toFixed(0)} MB | | |`,
    ];
    console.log(lines.join('\n'));
    if (process.argv.includes('--write')) updateReadme('scan', lines.join('\n'));
    process.exitCode = ratio <= TARGET_RATIO ? 0 : 1;
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
