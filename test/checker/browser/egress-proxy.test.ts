// The guarded egress proxy on its own (no browser): what it forwards, what it refuses, and that a refused
// target is never contacted.
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResolveMap } from '../../../src/checker/net/address-policy.js';
import { openEgressSession, type EgressSession } from '../../../src/checker/browser/egress-proxy.js';
import { filterRawHeaders, parseAuthority, REFUSED_HEADER } from '../../../src/checker/browser/egress-wire.js';

let target: http.Server;
let targetPort = 0;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    seen.push(req);
    res.writeHead(200, {
      'content-type': 'text/plain',
      'set-cookie': ['a=1', 'b=2'],
      [REFUSED_HEADER]: 'forged',
      connection: 'keep-alive',
    });
    res.end(`host=${req.headers.host} proxy-conn=${req.headers['proxy-connection'] ?? '-'}`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

function proxyGet(session: EgressSession, url: string, headers: Record<string, string> = {}) {
  const proxy = new URL(session.proxyUrl);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: proxy.hostname,
        port: proxy.port,
        method: 'GET',
        path: url,
        headers: { host: URL.canParse(url) ? new URL(url).host : 'x', ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function proxyConnect(session: EgressSession, authority: string): Promise<string> {
  const proxy = new URL(session.proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(proxy.port), proxy.hostname, () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text.split('\r\n')[0] ?? '');
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
  });
}

describe('guarded egress proxy', () => {
  it('forwards plain http for a host TRACKCHECK_RESOLVE maps, to the mapped address, Host header intact', async () => {
    const session = await openEgressSession({ resolve: parseResolveMap('www.shop.example=127.0.0.1') });
    try {
      const res = await proxyGet(session, `http://www.shop.example:${targetPort}/p/1?x=1`, { 'proxy-connection': 'keep-alive' });
      expect(res.status).toBe(200);
      expect(res.body).toBe(`host=www.shop.example:${targetPort} proxy-conn=-`);
      expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      // A site cannot pose as the proxy's own refusal.
      expect(res.headers[REFUSED_HEADER]).toBeUndefined();
      expect(session.events.at(-1)).toMatchObject({ kind: 'http', host: 'www.shop.example', outcome: 'allowed', address: '127.0.0.1' });
    } finally {
      await session.close();
    }
  });

  it('refuses loopback not named in TRACKCHECK_RESOLVE, and never contacts it', async () => {
    const session = await openEgressSession({ resolve: parseResolveMap('www.shop.example=127.0.0.1') });
    const before = seen.length;
    try {
      for (const url of [
        `http://127.0.0.1:${targetPort}/`,
        `http://localhost:${targetPort}/`,
        `http://[::1]:${targetPort}/`,
        `http://[::ffff:127.0.0.1]:${targetPort}/`,
      ]) {
        const res = await proxyGet(session, url);
        expect(res.status, url).toBe(403);
        expect(res.headers[REFUSED_HEADER], url).toBe('blocked');
        expect(session.findFailure(url), url).toMatchObject({ outcome: 'blocked' });
      }
      expect(await proxyConnect(session, `127.0.0.1:${targetPort}`)).toMatch(/^HTTP\/1\.1 403/);
      expect(await proxyConnect(session, `[::1]:${targetPort}`)).toMatch(/^HTTP\/1\.1 403/);
      expect(session.findFailure(`https://127.0.0.1:${targetPort}/x`)).toMatchObject({
        kind: 'connect',
        outcome: 'blocked',
        range: 'loopback',
      });
      expect(seen.length).toBe(before);
    } finally {
      await session.close();
    }
  });

  it('refuses names whose DNS answer is private (rebinding-style), resolving once through the guard', async () => {
    const lookups: string[] = [];
    const session = await openEgressSession({
      lookupAll: async (host) => {
        lookups.push(host);
        return host === 'evil.example' ? [{ address: '10.0.0.7', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];
      },
    });
    try {
      const res = await proxyGet(session, 'http://evil.example/');
      expect(res.status).toBe(403);
      expect(session.findFailure('http://evil.example/')).toMatchObject({ outcome: 'blocked', address: '10.0.0.7', range: 'private' });
      expect(await proxyConnect(session, 'evil.example:443')).toMatch(/403/);
      expect(lookups).toEqual(['evil.example', 'evil.example']);
    } finally {
      await session.close();
    }
  });

  it("answers 502 for a DNS failure and records it in the follower's words", async () => {
    const session = await openEgressSession({ lookupAll: async () => Promise.reject(new Error('ENOTFOUND')) });
    try {
      const res = await proxyGet(session, 'http://nowhere.example/');
      expect(res.status).toBe(502);
      expect(session.findFailure('http://nowhere.example/')).toMatchObject({
        outcome: 'dns_failed',
        error: 'DNS lookup failed for nowhere.example',
      });
      expect(await proxyConnect(session, 'nowhere.example:443')).toMatch(/^HTTP\/1\.1 502/);
    } finally {
      await session.close();
    }
  });

  it('tunnels CONNECT to the verified address and reports a refused connection', async () => {
    const session = await openEgressSession({ resolve: parseResolveMap('secure.shop.example=127.0.0.1,closed.shop.example=127.0.0.1') });
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      expect(await proxyConnect(session, `secure.shop.example:${targetPort}`)).toBe('HTTP/1.1 200 Connection Established');
      expect(await proxyConnect(session, `closed.shop.example:${closedPort}`)).toMatch(/^HTTP\/1\.1 502/);
      expect(session.findFailure(`https://closed.shop.example:${closedPort}/`)).toMatchObject({
        outcome: 'failed',
        error: 'connection refused',
      });
      expect(await proxyConnect(session, 'no-port.example')).toMatch(/^HTTP\/1\.1 400/);
    } finally {
      await session.close();
    }
  });

  it('refuses requests that are not absolute http URLs', async () => {
    const session = await openEgressSession();
    try {
      const res = await proxyGet(session, '/relative');
      expect(res.status).toBe(400);
    } finally {
      await session.close();
    }
  });
});

describe('egress wire helpers', () => {
  it('drops hop-by-hop fields and those the Connection header names, keeping order and case', () => {
    expect(
      filterRawHeaders([
        'Host',
        'a.example',
        'Connection',
        'keep-alive, X-Secret',
        'X-Secret',
        '1',
        'Proxy-Connection',
        'keep-alive',
        'Accept',
        '*/*',
        'Proxy-Authorization',
        'Basic x',
      ]),
    ).toEqual(['Host', 'a.example', 'Accept', '*/*']);
  });

  it('parses CONNECT authorities', () => {
    expect(parseAuthority('www.shop.example:443')).toEqual({ host: 'www.shop.example', port: 443 });
    expect(parseAuthority('[::1]:8443')).toEqual({ host: '[::1]', port: 8443 });
    for (const bad of ['www.shop.example', 'a:0', 'a:70000', 'user@a:443', '[zz]:443', 'a b:443'])
      expect(parseAuthority(bad), bad).toBeNull();
  });
});
