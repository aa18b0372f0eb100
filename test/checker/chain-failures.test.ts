import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseResolveMap, type ResolveMap } from '../../src/checker/net/address-policy.js';
import { followChain, type ChainOptions } from '../../src/checker/follow/chain.js';
import { describeRequestError } from '../../src/checker/net/http-client.js';
import type { LookupAll } from '../../src/checker/net/net-guard.js';
import { closePinnedClients } from '../../src/checker/net/pinned-agent.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

// A raw TCP server for responses no HTTP library would send.
const RAW: Record<string, (socket: net.Socket) => void> = {
  '/garbage': (s) => s.end('HELLO THERE\r\n\r\n'),
  '/reset': (s) => s.resetAndDestroy(),
  '/close': (s) => s.end(),
  '/hang': () => undefined,
  '/bad-header': (s) => s.end('HTTP/1.1 302 Found\r\nLocation: /x\r\nthis is not a header\r\n\r\n'),
  '/two-locations': (s) => s.end('HTTP/1.1 302 Found\r\nLocation: /a\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n'),
  '/same-locations': (s) => s.end('HTTP/1.1 302 Found\r\nLocation: /raw-ok\r\nLocation: /raw-ok\r\nContent-Length: 0\r\n\r\n'),
  '/huge-header': (s) => s.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(300 * 1024)}\r\nContent-Length: 0\r\n\r\n`),
  '/partial-body': (s) => s.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<title>Partial</title>'),
  '/raw-ok': (s) => s.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<title>ok</title'),
  // Resets the first connection of each test, answers the next: a server that drops one request.
  '/flaky': (s) => (hits.get('/flaky') === 1 ? s.resetAndDestroy() : RAW['/raw-ok']?.(s)),
  // Never answers the first request of each test, answers the next at once.
  '/slow-once': (s) => (hits.get('/slow-once') === 1 ? undefined : RAW['/raw-ok']?.(s)),
};
const hits = new Map<string, number>();

let web: AffiliateWeb;
let raw: net.Server;
let rawPort = 0;
let closedPort = 0;
const sockets = new Set<net.Socket>();
// Built per call: the simulator's resolve spec grows as tests register hosts.
const resolveMap = (): ResolveMap => parseResolveMap(`${web.resolveSpec},raw.example=127.0.0.1,closed.example=127.0.0.1`);
const opts = (extra: ChainOptions = {}): ChainOptions => ({ resolve: resolveMap(), extraCaCerts: [web.caCert], ...extra });
const rawUrl = (path: string): string => `http://raw.example:${rawPort}${path}`;

beforeAll(async () => {
  web = await startAffiliateWeb();
  raw = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      // A TLS ClientHello on this plain port: answer in HTTP, as a misconfigured server would.
      if (chunk[0] === 0x16) {
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      buffered += chunk.toString('latin1');
      if (!buffered.includes('\r\n\r\n')) return;
      const path = buffered.split(' ')[1] ?? '/';
      buffered = '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      (RAW[path] ?? ((s: net.Socket) => s.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n')))(socket);
    });
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  rawPort = (raw.address() as net.AddressInfo).port;
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});

beforeEach(() => {
  hits.clear();
  web.reset();
  web.page('www.shop.example', '/landing', '<title>Landing</title>');
});

afterAll(async () => {
  await closePinnedClients();
  await web.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => raw.close(() => r()));
});

describe('unreachable hops', () => {
  it('records a refused connection', async () => {
    web.redirect('www.awin1.com', '/r', `http://closed.example:${closedPort}/`);
    const trace = await followChain(web.url('www.awin1.com', '/r'), opts());
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 1, error: 'connection refused' });
    expect(trace.hops[1]).toMatchObject({ status: null, location: null, error: 'connection refused' });
    expect(trace.landing).toBeNull();
  });

  it('records a DNS failure', async () => {
    const lookupAll: LookupAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nx.example'), { code: 'ENOTFOUND' });
    };
    web.redirect('www.awin1.com', '/r', 'https://nx.example/p');
    const trace = await followChain(web.url('www.awin1.com', '/r'), opts({ lookupAll }));
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 1, error: 'DNS lookup failed for nx.example' });
  });

  it.each([
    ['/garbage', 'invalid HTTP response'],
    ['/bad-header', 'invalid HTTP response'],
    ['/reset', 'connection reset'],
    ['/close', 'connection closed before a complete response'],
    ['/huge-header', 'response headers too large'],
  ])('records %s as "%s" without throwing', async (path, error) => {
    const trace = await followChain(rawUrl(path), opts());
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 0, error });
    expect(trace.hops[0]?.status).toBeNull();
  });

  it('tries a reset or a timeout once more (CONTRACT.md section 7), and refusals, DNS and parse errors never', async () => {
    const flaky = await followChain(rawUrl('/flaky'), opts());
    expect(flaky.end).toEqual({ reason: 'landed' });
    expect(hits.get('/flaky')).toBe(2);
    const slow = await followChain(rawUrl('/slow-once'), opts({ hopTimeoutMs: 200 }));
    expect(slow.end).toEqual({ reason: 'landed' });
    expect(hits.get('/slow-once')).toBe(2);

    await followChain(rawUrl('/reset'), opts());
    expect(hits.get('/reset')).toBe(2);
    await followChain(rawUrl('/hang'), opts({ hopTimeoutMs: 100 }));
    expect(hits.get('/hang')).toBe(2);
    await followChain(rawUrl('/garbage'), opts());
    expect(hits.get('/garbage')).toBe(1);
  });

  it('does not retry when the check itself ran out of time', async () => {
    const trace = await followChain(rawUrl('/hang'), opts({ hopTimeoutMs: 1000, checkTimeoutMs: 300 }));
    expect(trace.end).toEqual({ reason: 'check_timeout', hop: 0 });
    expect(hits.get('/hang')).toBe(1);
  });

  it('refuses conflicting Location headers like Chrome, but accepts duplicates of one value', async () => {
    expect((await followChain(rawUrl('/two-locations'), opts())).end).toEqual({
      reason: 'unreachable',
      hop: 0,
      error: 'conflicting Location headers',
    });
    const same = await followChain(rawUrl('/same-locations'), opts());
    expect(same.end).toEqual({ reason: 'landed' });
    expect(same.hops[0]?.location).toBe('/raw-ok');
  });

  it('times out a hop that never answers', async () => {
    const trace = await followChain(rawUrl('/hang'), opts({ hopTimeoutMs: 200 }));
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 0, error: 'timed out after 0.2 s' });
    expect(trace.hops[0]?.timeMs).toBeGreaterThanOrEqual(190);
    expect(trace.hops[0]?.timeMs).toBeLessThan(1500);
  });

  it('keeps the response of a page whose body stalls, with what arrived', async () => {
    const trace = await followChain(rawUrl('/partial-body'), opts({ hopTimeoutMs: 250 }));
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops[0]?.status).toBe(200);
    expect(trace.landing?.title).toBe('Partial');
  });
});

describe('HTTPS through the simulator', () => {
  it('follows http → https hops with the test CA', async () => {
    web.redirect('www.awin1.com', '/cread.php', web.url('track.shop.example', '/t', true));
    web.redirect('track.shop.example', '/t', web.url('www.shop.example', '/landing', true));
    const trace = await followChain(web.url('www.awin1.com', '/cread.php'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops.map((h) => [new URL(h.url).protocol, h.status])).toEqual([
      ['http:', 302],
      ['https:', 302],
      ['https:', 200],
    ]);
    expect(web.requests.filter((r) => r.https)).toHaveLength(2);
  });

  it('reports an untrusted certificate as a TLS error', async () => {
    web.redirect('www.awin1.com', '/r', web.url('www.shop.example', '/landing', true));
    const trace = await followChain(web.url('www.awin1.com', '/r'), { resolve: resolveMap() });
    expect(trace.end).toMatchObject({ reason: 'unreachable', hop: 1 });
    expect(trace.hops[1]?.error).toMatch(/^TLS error: /);
    expect(web.hits('www.shop.example')).toBe(0);
  });

  it('reports plain HTTP spoken to a TLS port as a TLS error', async () => {
    const trace = await followChain(`https://raw.example:${rawPort}/raw-ok`, opts({ hopTimeoutMs: 1000 }));
    expect(trace.end.reason).toBe('unreachable');
    expect(trace.hops[0]?.error).toBe('TLS error: wrong version number');
  });
});

describe('the whole-check limit and cancellation', () => {
  it('ends with check_timeout when the chain outlasts checkTimeoutMs', async () => {
    web.redirect('slow.example', '/1', '/2', { delayMs: 150 });
    web.redirect('slow.example', '/2', '/3', { delayMs: 150 });
    web.redirect('slow.example', '/3', '/4', { delayMs: 150 });
    web.page('slow.example', '/4', '<title>late</title>');
    const trace = await followChain(web.url('slow.example', '/1'), opts({ checkTimeoutMs: 380, hopTimeoutMs: 5000 }));
    expect(trace.end).toEqual({ reason: 'check_timeout', hop: 2 });
    expect(trace.hops).toHaveLength(3);
    expect(trace.hops[2]).toMatchObject({ status: null, error: 'check timed out after 0.38 s' });
    expect(trace.landing).toBeNull();
  });

  it('records the placeholder hop when no time is left at all', async () => {
    const trace = await followChain(web.url('www.shop.example', '/landing'), opts({ checkTimeoutMs: 0 }));
    expect(trace.end).toEqual({ reason: 'check_timeout', hop: 0 });
    expect(web.hits('www.shop.example')).toBe(0);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const trace = await followChain(rawUrl('/hang'), opts({ signal: controller.signal }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(trace.end).toEqual({ reason: 'check_timeout', hop: 0 });
    expect(trace.hops[0]?.error).toBe('check aborted');

    const pre = new AbortController();
    pre.abort();
    expect((await followChain(web.url('www.shop.example', '/landing'), opts({ signal: pre.signal }))).end).toEqual({
      reason: 'check_timeout',
      hop: 0,
    });
  });
});

describe('describeRequestError', () => {
  const err = (code: string, message = 'x', cause?: unknown): Error => Object.assign(new Error(message), { code, cause });

  it.each([
    [err('ECONNREFUSED'), 'connection refused'],
    [err('ECONNRESET'), 'connection reset'],
    [err('EHOSTUNREACH'), 'host unreachable'],
    [err('ENETUNREACH'), 'network unreachable'],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'connection timed out'],
    [err('UND_ERR_HEADERS_TIMEOUT'), 'response timed out'],
    [err('HPE_INVALID_CONSTANT'), 'invalid HTTP response'],
    [err('UND_ERR_SOCKET', 'other side closed', err('ECONNRESET')), 'connection closed before a complete response'],
    [err('CERT_HAS_EXPIRED'), 'TLS error: certificate has expired'],
    [err('ERR_TLS_CERT_ALTNAME_INVALID'), 'TLS error: certificate does not match the host name'],
    [err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'TLS error: self-signed certificate'],
    [err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'TLS error: certificate is not trusted'],
    [err('ERR_SSL_WRONG_VERSION_NUMBER'), 'TLS error: wrong version number'],
    [err('EWHATEVER'), 'request failed (EWHATEVER)'],
    ['not even an error', 'request failed'],
  ])('describes %s', (error, text) => {
    expect(describeRequestError(error)).toBe(text);
  });

  it('never repeats the library message (it could carry request data)', () => {
    expect(describeRequestError(new Error('cookie=SECRET something broke'))).toBe('request failed');
  });
});
