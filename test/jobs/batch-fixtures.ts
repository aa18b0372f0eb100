// Shared by the batch and queue tests: link farms on the affiliate-web simulator and polling a batch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sendResponse, type AffiliateWeb } from '../fixtures/affiliate-web.js';

export interface BatchBody {
  id: string;
  status: 'queued' | 'running' | 'completed';
  checkType: string;
  total: number;
  completed: number;
  failed: number;
  createdAt: string;
  completedAt: string | null;
  checks: { url: string; slug: string; status: string }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `count` tracking links, link i on host `i % hosts`: /go/<i> → 302 → a landing page on another host.
 * Every first hop has its own path, so `web.hits(host, path)` counts how often each link really ran.
 */
export function addLinkFarm(
  web: AffiliateWeb,
  opts: { count: number; hosts: number; prefix: string; delayMs?: number },
): { urls: string[]; firstHop(i: number): { host: string; path: string } } {
  const hostName = (h: number) => `tracker-${String(h).padStart(2, '0')}.${opts.prefix}.example`;
  const landingHost = `shop.${opts.prefix}.example`;
  web.page(landingHost, '*', {
    html: '<!doctype html><title>Product</title><p>In stock</p>',
    setCookies: ['_session_ref=1; Max-Age=2592000; Path=/'],
  });
  const urls: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const host = hostName(i % opts.hosts);
    web.redirect(host, `/go/${i}`, web.url(landingHost, `/p/${i}?ref=${i}`), { delayMs: opts.delayMs });
    urls.push(web.url(host, `/go/${i}`));
  }
  return { urls, firstHop: (i) => ({ host: hostName(i % opts.hosts), path: `/go/${i}` }) };
}

/** A handler that records how many requests it holds at once (per-host politeness). */
export function concurrencyProbe(delayMs: number) {
  let inFlight = 0;
  let peak = 0;
  const handler = async (_req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await sleep(delayMs);
    inFlight--;
    sendResponse(res, '<!doctype html><title>Landing</title>', { contentType: 'text/html; charset=utf-8' });
  };
  return { handler, peak: () => peak, inFlight: () => inFlight };
}

type Headers = Record<string, string>;

/** Polls GET /v1/batches/:id until it is completed (or the deadline passes) and returns the last body. */
export async function waitForBatch(app: FastifyInstance, headers: Headers, id: string, timeoutMs = 20_000): Promise<BatchBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/v1/batches/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET batch: ${res.statusCode} ${res.body}`);
    const batch = (res.json() as { data: BatchBody }).data;
    if (batch.status === 'completed' || Date.now() > deadline) return batch;
    await sleep(40);
  }
}

/** The same over real HTTP, for child-process services. */
export async function pollBatch(
  baseUrl: string,
  headers: Headers,
  id: string,
  until: (b: BatchBody) => boolean,
  timeoutMs = 30_000,
): Promise<BatchBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/v1/batches/${id}`, { headers });
    if (res.status !== 200) throw new Error(`GET /v1/batches/${id}: ${res.status} ${await res.text()}`);
    const batch = ((await res.json()) as { data: BatchBody }).data;
    if (until(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} not done in time: ${JSON.stringify({ ...batch, checks: undefined })}`);
    await sleep(30);
  }
}

/** Finished jobs leave the queue shortly after their outcome is stored (deleted in groups): wait for it. */
export async function waitForEmptyQueue(
  depth: () => Promise<{ queued: number; running: number }>,
  timeoutMs = 5_000,
): Promise<{ queued: number; running: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = await depth();
    if ((d.queued === 0 && d.running === 0) || Date.now() > deadline) return d;
    await sleep(20);
  }
}
