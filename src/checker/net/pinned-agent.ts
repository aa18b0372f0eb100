// Keep-alive undici agents whose sockets can only reach addresses the net guard verified. The guard
// pins a host's verified addresses right before a request; the agent's `lookup` answers from those
// pins and never asks DNS, so a second (rebinding) answer can never be used. IP-literal hosts skip
// `lookup` in Node, which is why the guard classifies literals before any request.
import { createHash } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import tls from 'node:tls';
import { Agent } from 'undici';
import { describeResolveMap, normaliseHostname, type ResolveMap } from './address-policy.js';
import type { PinnedAddress } from './net-guard.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

interface Pin {
  addresses: PinnedAddress[];
  refs: number;
}

/** Verified addresses per host, held while requests to that host are in flight. */
export class PinRegistry {
  private readonly pins = new Map<string, Pin>();

  /** Pins `addresses` for `hostname` until the returned release function is called. */
  acquire(hostname: string, addresses: PinnedAddress[]): () => void {
    const key = normaliseHostname(hostname);
    const existing = this.pins.get(key);
    // Concurrent checks may pin different verified answers for one host: the newest wins, and
    // every one of them passed the guard.
    const pin: Pin = { addresses, refs: (existing?.refs ?? 0) + 1 };
    this.pins.set(key, pin);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.pins.get(key);
      if (current === undefined) return;
      current.refs -= 1;
      if (current.refs <= 0) this.pins.delete(key);
    };
  }

  /** A `net.connect` lookup that answers only from pins: an unpinned host is an error, never DNS. */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const pin = this.pins.get(normaliseHostname(hostname));
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const addresses = (pin?.addresses ?? []).filter((a) => wanted === undefined || a.family === wanted);
    const first = addresses[0];
    if (first === undefined) {
      const err: NodeJS.ErrnoException = new Error(`no verified address pinned for ${hostname}`);
      err.code = 'ENOTPINNED';
      process.nextTick(callback, err, '', 0);
      return;
    }
    if (options.all === true) {
      process.nextTick(
        callback,
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    } else {
      process.nextTick(callback, null, first.address, first.family);
    }
  };
}

export interface PinnedClient {
  agent: Agent;
  pins: PinRegistry;
}

const MAX_CACHED_CLIENTS = 8;
const clients = new Map<string, PinnedClient>();

function createClient(extraCaCerts: string[] | undefined): PinnedClient {
  const pins = new PinRegistry();
  const ca = extraCaCerts !== undefined && extraCaCerts.length > 0 ? [...tls.rootCertificates, ...extraCaCerts] : undefined;
  const agent = new Agent({
    connect: { lookup: pins.lookup, ...(ca !== undefined ? { ca } : {}) },
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    // Backstops only: every hop carries its own AbortSignal with the real per-hop limit.
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
    // Trackers send large Set-Cookie blocks; browsers accept far more than Node's 16 KiB default.
    maxHeaderSize: 256 * 1024,
  });
  return { agent, pins };
}

/** The shared client for this resolve map and CA set (connections are reused across checks). */
export function getPinnedClient(resolve: ResolveMap | undefined, extraCaCerts: string[] | undefined): PinnedClient {
  const caKey = extraCaCerts === undefined ? '' : createHash('sha256').update(extraCaCerts.join('\n')).digest('hex');
  const key = `${describeResolveMap(resolve)}|${caKey}`;
  const cached = clients.get(key);
  if (cached !== undefined) {
    // Map order doubles as recency order for eviction.
    clients.delete(key);
    clients.set(key, cached);
    return cached;
  }
  const client = createClient(extraCaCerts);
  clients.set(key, client);
  if (clients.size > MAX_CACHED_CLIENTS) {
    // Forget the least recently used pool without closing it: a check may still be using it, and
    // its idle sockets close on their own after the keep-alive timeout.
    const oldestKey = clients.keys().next().value;
    if (oldestKey !== undefined) clients.delete(oldestKey);
  }
  return client;
}

/** Closes every cached connection pool (graceful shutdown, end of a test file). */
export async function closePinnedClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.agent.close().catch(() => undefined)));
}
