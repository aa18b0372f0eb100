import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResolveMap } from '../../src/checker/net/address-policy.js';
import { followChain } from '../../src/checker/follow/chain.js';
import { checkSubmittedUrl, resolveTarget, type LookupAll } from '../../src/checker/net/net-guard.js';
import { closePinnedClients, PinRegistry } from '../../src/checker/net/pinned-agent.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

function expectCode(raw: unknown, code: 'invalid_url' | 'url_not_allowed') {
  const result = checkSubmittedUrl(raw);
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.code).toBe(code);
    expect(result.message.length).toBeGreaterThan(10);
  }
  return result;
}

describe('checkSubmittedUrl', () => {
  it('accepts ordinary http(s) links and returns the parsed URL', () => {
    const result = checkSubmittedUrl('https://www.awin1.com/cread.php?awinmid=1&awinaffid=2');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.hostname).toBe('www.awin1.com');
    expect(checkSubmittedUrl('http://example.com').ok).toBe(true);
    expect(checkSubmittedUrl('  https://example.com/x  ').ok).toBe(true);
    expect(checkSubmittedUrl('https://8.8.8.8/').ok).toBe(true);
    expect(checkSubmittedUrl('https://[2606:4700:4700::1111]/').ok).toBe(true);
  });

  it('accepts Unicode hosts (punycode via URL)', () => {
    const result = checkSubmittedUrl('https://bücher.example/straße');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.hostname).toBe('xn--bcher-kva.example');
  });

  it.each([[42], [null], [undefined], [{ url: 'https://x.com' }], [['https://x.com']]])(
    'refuses non-strings (%j) as invalid_url',
    (raw) => {
      expectCode(raw, 'invalid_url');
    },
  );

  it.each([
    '',
    '   ',
    'not a url',
    'www.example.com/path',
    '/relative/path',
    '//example.com/x',
    'http://',
    'https://exa mple.com/',
    'http://[::1/',
  ])('refuses %j as invalid_url', (raw) => {
    expectCode(raw, 'invalid_url');
  });

  it('explains a missing scheme instead of calling the host a scheme', () => {
    const result = expectCode('shop.example.com:8080/p', 'invalid_url');
    if (!result.ok) expect(result.message).toMatch(/http:\/\/ or https:\/\//);
  });

  it('refuses URLs longer than 8192 characters', () => {
    const long = `https://example.com/?q=${'a'.repeat(8200)}`;
    const result = expectCode(long, 'invalid_url');
    if (!result.ok) expect(result.message).toContain('8192');
    expect(checkSubmittedUrl(`https://example.com/?q=${'a'.repeat(8000)}`).ok).toBe(true);
  });

  it.each([
    'ftp://example.com/file',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'gopher://example.com/',
    'ws://example.com/',
  ])('refuses the scheme of %s as url_not_allowed', (raw) => {
    expectCode(raw, 'url_not_allowed');
  });

  it.each(['https://user:pass@example.com/', 'https://user@example.com/', 'https://:pw@example.com/'])(
    'refuses credentials in %s',
    (raw) => {
      const result = expectCode(raw, 'url_not_allowed');
      if (!result.ok) expect(result.message).toMatch(/user name or password/);
    },
  );

  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1:8080/admin',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://%31%32%37.0.0.1/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://172.16.5.4/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://100.64.0.1/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.1/',
    'http://[64:ff9b::7f00:1]/',
  ])('refuses the literal non-public address in %s', (raw) => {
    const result = expectCode(raw, 'url_not_allowed');
    if (!result.ok) expect(result.message).toMatch(/private or reserved/);
  });

  it.each(['http://localhost/', 'http://LOCALHOST:3000/', 'http://localhost./', 'http://app.localhost/', 'http://a.b.localhost/x'])(
    'refuses %s',
    (raw) => {
      const result = expectCode(raw, 'url_not_allowed');
      if (!result.ok) expect(result.message).toMatch(/localhost/);
    },
  );

  it('allows hosts named in the resolve map, and only those', () => {
    const map = parseResolveMap('localhost=127.0.0.1,127.0.0.1=127.0.0.1,*.dev.test=10.0.0.2');
    expect(checkSubmittedUrl('http://localhost:3000/', map).ok).toBe(true);
    expect(checkSubmittedUrl('http://127.0.0.1:3000/', map).ok).toBe(true);
    expect(checkSubmittedUrl('http://shop.dev.test/', map).ok).toBe(true);
    expect(checkSubmittedUrl('http://app.localhost/', map).ok).toBe(false);
    expect(checkSubmittedUrl('http://127.0.0.2/', map).ok).toBe(false);
    // The map does not lift the scheme and credential rules.
    expect(checkSubmittedUrl('ftp://localhost/', map).ok).toBe(false);
    expect(checkSubmittedUrl('http://u:p@localhost/', map).ok).toBe(false);
  });
});

describe('resolveTarget', () => {
  const answers =
    (...ips: string[]): LookupAll =>
    async () =>
      ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const failing: LookupAll = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };

  it('uses the resolve map first, without DNS, and allows its private addresses', async () => {
    const map = parseResolveMap('www.awin1.com=127.0.0.1,*.shop.test=::1');
    expect(await resolveTarget('www.awin1.com', map, failing)).toEqual({ ok: true, addresses: [{ address: '127.0.0.1', family: 4 }] });
    expect(await resolveTarget('a.shop.test', map, failing)).toEqual({ ok: true, addresses: [{ address: '::1', family: 6 }] });
  });

  it('classifies IP literals without DNS', async () => {
    expect(await resolveTarget('127.0.0.1', undefined, failing)).toEqual({
      ok: false,
      kind: 'blocked',
      address: '127.0.0.1',
      range: 'loopback',
    });
    expect(await resolveTarget('[::1]', undefined, failing)).toMatchObject({ kind: 'blocked', address: '::1', range: 'loopback' });
    expect(await resolveTarget('[::ffff:7f00:1]', undefined, failing)).toMatchObject({ kind: 'blocked', range: 'ipv4Mapped:loopback' });
    expect(await resolveTarget('8.8.8.8', undefined, failing)).toEqual({ ok: true, addresses: [{ address: '8.8.8.8', family: 4 }] });
  });

  it('verifies every DNS answer and refuses the host when any one is non-public', async () => {
    expect(await resolveTarget('shop.test', undefined, answers('8.8.8.8', '2606:4700::1'))).toEqual({
      ok: true,
      addresses: [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    });
    expect(await resolveTarget('mixed.test', undefined, answers('8.8.8.8', '10.0.0.1'))).toEqual({
      ok: false,
      kind: 'blocked',
      address: '10.0.0.1',
      range: 'private',
    });
    expect(await resolveTarget('meta.test', undefined, answers('169.254.169.254'))).toMatchObject({ kind: 'blocked', range: 'linkLocal' });
    expect(await resolveTarget('v6.test', undefined, answers('fd00:ec2::254'))).toMatchObject({ kind: 'blocked', range: 'uniqueLocal' });
    expect(await resolveTarget('mapped.test', undefined, answers('::ffff:192.168.1.1'))).toMatchObject({
      kind: 'blocked',
      range: 'ipv4Mapped:private',
    });
  });

  it('connects to IPv4-mapped public answers over IPv4', async () => {
    expect(await resolveTarget('m.test', undefined, answers('::ffff:8.8.4.4'))).toEqual({
      ok: true,
      addresses: [{ address: '8.8.4.4', family: 4 }],
    });
  });

  it('reports DNS failures and empty answers', async () => {
    expect(await resolveTarget('nowhere.test', undefined, failing)).toEqual({
      ok: false,
      kind: 'dns_failed',
      message: 'DNS lookup failed for nowhere.test',
    });
    expect(await resolveTarget('empty.test', undefined, answers())).toMatchObject({ kind: 'dns_failed' });
  });

  it('treats *.localhost as loopback even when DNS says otherwise or fails', async () => {
    expect(await resolveTarget('app.localhost', undefined, failing)).toMatchObject({ kind: 'blocked', range: 'loopback' });
    expect(await resolveTarget('app.localhost', undefined, answers('8.8.8.8'))).toMatchObject({ kind: 'blocked', range: 'loopback' });
  });

  it('asks the system resolver for localhost and refuses its loopback answer', async () => {
    expect(await resolveTarget('localhost', undefined)).toMatchObject({ ok: false, kind: 'blocked', range: 'loopback' });
  });
});

describe('PinRegistry (the agent lookup that never asks DNS)', () => {
  type Result = { err: NodeJS.ErrnoException | null; address: unknown; family?: number };
  const lookup = (pins: PinRegistry, host: string, options: { all?: boolean; family?: number }): Promise<Result> =>
    new Promise((resolve) => pins.lookup(host, options, (err, address, family) => resolve({ err, address, family })));

  it('answers with the pinned addresses, in both callback shapes, honouring family', async () => {
    const pins = new PinRegistry();
    const release = pins.acquire('Shop.Test', [
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
    expect(await lookup(pins, 'shop.test', {})).toMatchObject({ err: null, address: '8.8.8.8', family: 4 });
    expect((await lookup(pins, 'shop.test.', { all: true })).address).toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
    expect(await lookup(pins, 'shop.test', { family: 6 })).toMatchObject({ address: '2606:4700::1', family: 6 });
    release();
    release(); // idempotent
    expect((await lookup(pins, 'shop.test', {})).err?.code).toBe('ENOTPINNED');
  });

  it('refuses hosts that were never pinned instead of falling back to DNS', async () => {
    const pins = new PinRegistry();
    const result = await lookup(pins, 'example.com', { all: true });
    expect(result.err?.code).toBe('ENOTPINNED');
  });

  it('keeps a pin while any request holding it is in flight', async () => {
    const pins = new PinRegistry();
    const a = pins.acquire('h.test', [{ address: '8.8.8.8', family: 4 }]);
    const b = pins.acquire('h.test', [{ address: '8.8.4.4', family: 4 }]);
    a();
    expect(await lookup(pins, 'h.test', {})).toMatchObject({ address: '8.8.4.4' });
    b();
    expect((await lookup(pins, 'h.test', {})).err?.code).toBe('ENOTPINNED');
  });
});

describe('the follower never reaches a refused address (loopback targets only)', () => {
  let web: AffiliateWeb;
  const servers: http.Server[] = [];
  let targetHits = 0;
  let port = 0;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const handler = (_req: http.IncomingMessage, res: http.ServerResponse): void => {
      targetHits += 1;
      res.end('internal secret');
    };
    const v4 = http.createServer(handler);
    await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
    port = (v4.address() as AddressInfo).port;
    servers.push(v4);
    // The same port on ::1, so an IPv6 loopback attempt would be counted too.
    const v6 = http.createServer(handler);
    await new Promise<void>((resolve) => v6.once('error', () => resolve()).listen(port, '::1', resolve));
    servers.push(v6);
  });

  afterAll(async () => {
    await closePinnedClients();
    await web.close();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  const forbidden = (p: number): Array<[string, string, string]> => [
    [`http://127.0.0.1:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://2130706433:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://0x7f000001:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://127.1:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://0177.0.0.01:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://[::1]:${p}/secret`, '::1', 'loopback'],
    [`http://[::ffff:127.0.0.1]:${p}/secret`, '::ffff:7f00:1', 'ipv4Mapped:loopback'],
    [`http://localhost:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://LocalHost.:${p}/secret`, '127.0.0.1', 'loopback'],
    [`http://app.localhost:${p}/secret`, '', 'loopback'],
  ];

  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])('refuses redirect target #%i and never contacts it', async (n) => {
    const [target, address, range] = forbidden(port)[n] ?? ['', '', ''];
    const before = targetHits;
    web.redirect('www.awin1.com', `/r${n}`, target);
    const trace = await followChain(web.url('www.awin1.com', `/r${n}`), { resolve: web.resolve });
    expect(trace.hops).toHaveLength(2);
    expect(trace.hops[0]?.status).toBe(302);
    expect(trace.hops[1]).toMatchObject({
      status: null,
      error: `blocked: resolves to a private address (${range})`,
      timeMs: expect.any(Number),
    });
    expect(trace.end).toMatchObject({ reason: 'blocked_private_address', hop: 1 });
    if (address !== '' && trace.end.reason === 'blocked_private_address') expect(trace.end.address).toBe(address);
    expect(trace.landing).toBeNull();
    expect(targetHits).toBe(before);
  });

  it('refuses a submitted loopback URL at hop 0 without contacting it', async () => {
    const trace = await followChain(`http://127.0.0.1:${port}/secret`);
    expect(trace.end).toEqual({ reason: 'blocked_private_address', hop: 0, address: '127.0.0.1' });
    expect(trace.hops[0]?.status).toBeNull();
    expect(targetHits).toBe(0);
  });

  it('refuses a host whose DNS answers include a private address, before connecting', async () => {
    web.redirect('www.awin1.com', '/dns', 'http://rebind.test:1/secret');
    const lookupAll: LookupAll = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const trace = await followChain(web.url('www.awin1.com', '/dns'), { resolve: web.resolve, lookupAll });
    expect(trace.end).toEqual({ reason: 'blocked_private_address', hop: 1, address: '10.0.0.7' });
    expect(trace.hops[1]?.error).toBe('blocked: resolves to a private address (private)');
  });

  it('resolves every hop afresh: a host that now answers loopback is refused', async () => {
    let calls = 0;
    const lookupAll: LookupAll = async () => {
      calls += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    web.redirect('www.awin1.com', '/rebind', `http://rebind.test:${port}/secret`);
    const trace = await followChain(web.url('www.awin1.com', '/rebind'), { resolve: web.resolve, lookupAll });
    expect(calls).toBe(1);
    expect(trace.end.reason).toBe('blocked_private_address');
    expect(targetHits).toBe(0);
  });

  it('connects resolve-map hosts to the mapped address only (no system DNS for them)', async () => {
    const lookupAll: LookupAll = async () => {
      throw new Error('DNS must not be asked for mapped hosts');
    };
    const map = parseResolveMap(`allowed.test=127.0.0.1,${web.resolveSpec}`);
    web.redirect('www.awin1.com', '/allowed', `http://allowed.test:${port}/ok`);
    const trace = await followChain(web.url('www.awin1.com', '/allowed'), { resolve: map, lookupAll });
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops[1]?.status).toBe(200);
    expect(targetHits).toBe(1);
  });

  it('still refuses the literal address a mapped host points at', async () => {
    const before = targetHits;
    const map = parseResolveMap(`allowed.test=127.0.0.1,${web.resolveSpec}`);
    web.redirect('www.awin1.com', '/literal', `http://127.0.0.1:${port}/secret`);
    const trace = await followChain(web.url('www.awin1.com', '/literal'), { resolve: map });
    expect(trace.end.reason).toBe('blocked_private_address');
    expect(targetHits).toBe(before);
  });

  it('refuses non-http(s) schemes in a redirect as unreachable', async () => {
    web.redirect('www.awin1.com', '/ftp', 'ftp://files.example.com/x');
    const trace = await followChain(web.url('www.awin1.com', '/ftp'), { resolve: web.resolve });
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 0, error: 'redirect to an unsupported scheme (ftp:)' });
    expect(trace.hops).toHaveLength(1);
  });
});
