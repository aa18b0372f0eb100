// Who an anonymous caller is counted as: X-Forwarded-For believed only as far as TRACKCHECK_TRUST_PROXY says, the
// result validated as an IP address, IPv6 callers counted per /64 (issue 13).
import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { clientIp, clientSubject, parseTrustProxy } from '../../src/http/client-address.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const LINK = 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2';
const randomV4 = () => `198.51.100.${randomInt(1, 255)}`;

describe('parseTrustProxy', () => {
  it('reads hop counts, true/false and address lists, and refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.0.2.7,2001:db8::/32')).toEqual(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    for (const bad of ['maybe', '10.0.0.0/33', 'lb.internal', '1.2.3.4:80', '-1', '999', '10.1/8']) {
      expect(() => parseTrustProxy(bad), bad).toThrow();
    }
  });

  it('keys IPv6 callers per /64 and IPv4-mapped IPv6 as IPv4', () => {
    expect(clientSubject('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('203.0.113.5')).toBe('203.0.113.5');
    expect(clientIp({ ip: '::ffff:203.0.113.5' })).toBe('203.0.113.5');
    expect(clientIp({ ip: 'evil', socket: { remoteAddress: '::ffff:10.0.0.1' } })).toBe('10.0.0.1');
    expect(clientIp({ ip: '2001:DB8::1%eth0' })).toBe('2001:db8::1');
  });
});

describe('the client address behind proxies', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const start = async (env: Record<string, string>) => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_SYNC_WAIT_MS: '0', ...env } });
    return t;
  };
  const get = (app: TestApp, remoteAddress: string, forwardedFor?: string) =>
    app.app.inject({
      method: 'GET',
      url: '/v1/checks/abcdefghijkl',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
  const submit = (app: TestApp, remoteAddress: string, forwardedFor?: string) =>
    app.app.inject({
      method: 'POST',
      url: '/v1/checks',
      payload: { url: LINK },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('with TRACKCHECK_TRUST_PROXY=true trusts one hop: a client rotating the leftmost entry is still one client', async () => {
    const app = await start({ TRACKCHECK_TRUST_PROXY: 'true' });
    const client = randomV4();
    for (let i = 0; i < 20; i++) expect((await get(app, '10.0.0.1', `${randomV4()}, ${client}`)).statusCode).toBe(404);
    const over = await get(app, '10.0.0.1', `203.0.113.${randomInt(1, 255)}, ${client}`);
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('rate_limited');
    // The anonymous weekly cap too.
    for (let i = 0; i < 3; i++) expect((await submit(app, '10.0.0.1', `${randomV4()}, ${client}`)).statusCode).toBe(202);
    const capped = await submit(app, '10.0.0.1', `${randomV4()}, ${client}`);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().error.code).toBe('anonymous_check_limit_reached');
  });

  it('trusts exactly n hops, or exactly the listed proxies', async () => {
    const hops = await start({ TRACKCHECK_TRUST_PROXY: '2' });
    for (let i = 0; i < 3; i++) await submit(hops, '10.0.0.1', `${randomV4()}, 203.0.113.50, 10.0.0.2`);
    const rows = await hops.ctx.store.db.selectFrom('anonymous_usage').select(['ip', 'count']).execute();
    expect(rows).toEqual([{ ip: '203.0.113.50', count: 3 }]);
    await hops.close();

    const listed = await start({ TRACKCHECK_TRUST_PROXY: '10.0.0.0/8,192.0.2.1' });
    await submit(listed, '10.1.2.3', '203.0.113.60, 192.0.2.1, 10.9.9.9');
    // Not from a listed proxy: X-Forwarded-For is only a header anyone can send.
    await submit(listed, '203.0.113.70', '203.0.113.99');
    const ips = (await listed.ctx.store.db.selectFrom('anonymous_usage').select('ip').execute()).map((r) => r.ip).sort();
    expect(ips).toEqual(['203.0.113.60', '203.0.113.70']);
  });

  it('falls back to the socket address when the forwarded entry is not an IP address, and never stores one', async () => {
    const app = await start({ TRACKCHECK_TRUST_PROXY: 'true' });
    for (const junk of ['evil', "' or 1=1 --", '203.0.113.5:8080', 'unknown', '999.1.1.1']) {
      expect((await submit(app, '10.0.0.7', `198.51.100.1, ${junk}`)).statusCode).not.toBe(500);
    }
    const rows = await app.ctx.store.db.selectFrom('anonymous_usage').select(['ip', 'count']).execute();
    expect(rows).toEqual([{ ip: '10.0.0.7', count: 3 }]);
    expect(app.logs()).toContain('"remoteAddress":"10.0.0.7"');
    expect(app.logs()).not.toContain('evil');
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const app = await start({});
    for (let i = 0; i < 20; i++) await get(app, '203.0.113.80', randomV4());
    expect((await get(app, '203.0.113.80', randomV4())).statusCode).toBe(429);
  });

  it('counts an IPv6 caller per /64 for the per-minute limit and the weekly cap, IPv4-mapped IPv6 as IPv4', async () => {
    const app = await start({});
    const prefix = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
    const inside = () => `${prefix}:${[0, 0, 0, 0].map(() => randomInt(0, 0xffff).toString(16)).join(':')}`;
    for (let i = 0; i < 20; i++) expect((await get(app, inside())).statusCode).toBe(404);
    expect((await get(app, inside())).statusCode).toBe(429);
    expect((await get(app, '2001:db8:ffff:ffff::1')).statusCode).toBe(404); // another /64
    for (let i = 0; i < 3; i++) expect((await submit(app, inside())).statusCode).toBe(202);
    expect((await submit(app, inside())).statusCode).toBe(429);
    await submit(app, '::ffff:203.0.113.90');
    await submit(app, '203.0.113.90');
    const rows = await app.ctx.store.db.selectFrom('anonymous_usage').select(['ip', 'count']).orderBy('ip').execute();
    expect(rows).toEqual([
      { ip: `${clientSubject(inside())}`, count: 3 },
      { ip: '203.0.113.90', count: 2 },
    ]);
    expect(rows[0]?.ip).toMatch(/\/64$/);
  });
});
