// The browser's only way out (CONTRACT.md section 6): a forward proxy on 127.0.0.1 that Chromium must use
// for every request. Each request's host is resolved by the checker (TRACKCHECK_RESOLVE first), every
// address is classified like the HTTP follower does, and the upstream connection goes to the verified
// address — Chromium never resolves or connects to anything itself. Plain http arrives in absolute form
// and is forwarded; https and WebSockets arrive as CONNECT and are tunnelled (TLS stays end to end, so
// Chromium validates certificates itself).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ResolveMap } from '../net/address-policy.js';
import { describeBlocked, resolveTarget, type GuardDecision, type LookupAll, type PinnedAddress } from '../net/net-guard.js';
import { describeUpstreamError, filterRawHeaders, parseAuthority, REFUSED_HEADER } from './egress-wire.js';

export interface EgressOptions {
  resolve?: ResolveMap;
  /** Test seam: replaces the system resolver. */
  lookupAll?: LookupAll;
  /** Connecting to the verified address. Default 10 s. */
  connectTimeoutMs?: number;
  /** Events kept per session (the oldest are dropped). Default 2000. */
  maxEvents?: number;
}

export type EgressOutcome = 'allowed' | 'blocked' | 'dns_failed' | 'failed';

/** One request Chromium asked the proxy to make. */
export interface EgressEvent {
  kind: 'http' | 'connect';
  host: string;
  port: number;
  /** The full URL for plain http; null for a tunnel (its path is inside TLS). */
  url: string | null;
  outcome: EgressOutcome;
  /** The refused address, or the verified one the connection was pinned to. */
  address: string | null;
  /** The refused range (e.g. "loopback"), null unless blocked. */
  range: string | null;
  /** Why the request failed, in the follower's words (null when allowed). */
  error: string | null;
}

/** A proxy listener for one browser context: everything that context does is recorded here. */
export interface EgressSession {
  readonly proxyUrl: string;
  readonly events: readonly EgressEvent[];
  /** The latest failure (refusal, DNS, connect) for the host and port of `url`, if any. */
  findFailure(url: string): EgressEvent | undefined;
  close(): Promise<void>;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

// Upstream plain-http connections are pooled per verified address and port; the Host header travels as sent.
const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 });

function hostKey(host: string): string {
  const lower = host.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

function failureText(decision: Exclude<GuardDecision, { ok: true }>): string {
  return decision.kind === 'blocked' ? describeBlocked(decision.range) : decision.message;
}

function refusalEvent(
  base: Pick<EgressEvent, 'kind' | 'host' | 'port' | 'url'>,
  decision: Exclude<GuardDecision, { ok: true }>,
): EgressEvent {
  return decision.kind === 'blocked'
    ? { ...base, outcome: 'blocked', address: decision.address, range: decision.range, error: failureText(decision) }
    : { ...base, outcome: 'dns_failed', address: null, range: null, error: failureText(decision) };
}

/** Opens a guarded proxy listener on 127.0.0.1 (a free port). */
export async function openEgressSession(options: EgressOptions = {}): Promise<EgressSession> {
  const events: EgressEvent[] = [];
  const maxEvents = options.maxEvents ?? 2000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const sockets = new Set<Duplex>();
  const record = (event: EgressEvent): void => {
    events.push(event);
    if (events.length > maxEvents) events.splice(0, events.length - maxEvents);
  };
  const guard = (host: string): Promise<GuardDecision> => resolveTarget(host, options.resolve, options.lookupAll);

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = new URL('invalid://');
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('absolute http:// URLs only');
      return;
    }
    const port = target.port === '' ? 80 : Number(target.port);
    const base = { kind: 'http' as const, host: hostKey(target.hostname), port, url: target.href };
    const decision = await guard(target.hostname);
    if (!decision.ok) {
      record(refusalEvent(base, decision));
      res.writeHead(decision.kind === 'blocked' ? 403 : 502, { 'content-type': 'text/plain', [REFUSED_HEADER]: decision.kind });
      res.end(failureText(decision));
      return;
    }
    const pinned = decision.addresses[0] as PinnedAddress; // resolveTarget never answers ok with no address
    const upstream = http.request({
      host: pinned.address,
      family: pinned.family,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: filterRawHeaders(req.rawHeaders),
      setHost: false,
      agent: upstreamAgent,
      timeout: connectTimeoutMs,
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('response', (answer) => {
      record({ ...base, outcome: 'allowed', address: pinned.address, range: null, error: null });
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, filterRawHeaders(answer.rawHeaders));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (err) => {
      record({ ...base, outcome: 'failed', address: pinned.address, range: null, error: describeUpstreamError(err) });
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain', [REFUSED_HEADER]: 'failed' }).end(describeUpstreamError(err));
    });
    req.pipe(upstream);
  }

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const authority = parseAuthority(req.url ?? '');
    if (authority === null) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const base = { kind: 'connect' as const, host: hostKey(authority.host), port: authority.port, url: null };
    const decision = await guard(authority.host);
    if (!decision.ok) {
      record(refusalEvent(base, decision));
      const status = decision.kind === 'blocked' ? '403 Forbidden' : '502 Bad Gateway';
      client.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const pinned = decision.addresses[0] as PinnedAddress;
    const upstream: Socket = net.connect({ host: pinned.address, family: pinned.family, port: authority.port });
    sockets.add(upstream);
    upstream.setTimeout(connectTimeoutMs, () => upstream.destroy(new Error('timed out')));
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      // A tunnel carries TLS handshakes: Nagle's algorithm would hold small records back.
      upstream.setNoDelay(true);
      if (client instanceof net.Socket) client.setNoDelay(true);
      upstream.setTimeout(0);
      record({ ...base, outcome: 'allowed', address: pinned.address, range: null, error: null });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      if (connected) {
        client.destroy();
        return;
      }
      record({ ...base, outcome: 'failed', address: pinned.address, range: null, error: describeUpstreamError(err) });
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }

  const server = http.createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnel(req, client, head).catch(() => client.destroy());
  });
  // Upgrades on a plain forward request are not something Chromium sends (it tunnels WebSockets): refuse.
  server.on('upgrade', (_req: IncomingMessage, client: Duplex) => client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket: Duplex) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    events,
    findFailure(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      const host = hostKey(parsed.hostname);
      const wanted = parsed.port === '' ? (DEFAULT_PORTS[parsed.protocol] ?? 0) : Number(parsed.port);
      for (let i = events.length - 1; i >= 0; i -= 1) {
        const event = events[i];
        if (event === undefined || event.host !== host || event.port !== wanted) continue;
        if (event.kind === 'http' && event.url !== null && event.url.split('#')[0] !== parsed.href.split('#')[0]) continue;
        return event.outcome === 'allowed' ? undefined : event;
      }
      return undefined;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
