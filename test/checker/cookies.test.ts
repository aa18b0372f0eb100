import { describe, expect, it } from 'vitest';
import {
  cookieHeaderFor,
  createCookieJar,
  markFirstParty,
  MAX_COOKIE_LIFETIME_DAYS,
  storeResponseCookies,
} from '../../src/checker/analysis/cookies.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const url = (href: string): URL => new URL(href);

describe('storeResponseCookies', () => {
  it('records name, domain, path, flags and lifetime but never the value', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(
      jar,
      url('https://www.awin1.com/cread.php'),
      ['aw_click=SECRET-VALUE-123; Max-Age=2592000; Path=/; Domain=awin1.com; Secure; HttpOnly; SameSite=None'],
      0,
      { now: NOW },
    );
    expect(records).toEqual([
      {
        name: 'aw_click',
        domain: 'awin1.com',
        path: '/',
        expiresAt: '2026-03-31T12:00:00.000Z',
        expiryDays: 30,
        secure: true,
        httpOnly: true,
        sameSite: 'none',
        firstParty: false,
        setByHop: 0,
      },
    ]);
    expect(JSON.stringify(records)).not.toContain('SECRET-VALUE-123');
  });

  it('accepts a single header string as well as an array, and nothing when absent', () => {
    const jar = createCookieJar();
    expect(storeResponseCookies(jar, url('http://shop.test/'), 'a=1', 3, { now: NOW })).toHaveLength(1);
    expect(storeResponseCookies(jar, url('http://shop.test/'), undefined, 3, { now: NOW })).toEqual([]);
  });

  it('uses Expires when there is no Max-Age, and Max-Age when both are present', () => {
    const jar = createCookieJar();
    const [expires, both] = storeResponseCookies(
      jar,
      url('http://shop.test/'),
      ['e=1; Expires=Wed, 11 Mar 2026 00:00:00 GMT', 'b=1; Expires=Wed, 11 Mar 2026 00:00:00 GMT; Max-Age=3600'],
      1,
      { now: NOW },
    );
    expect(expires?.expiresAt).toBe('2026-03-11T00:00:00.000Z');
    expect(expires?.expiryDays).toBe(9.5);
    expect(both?.expiresAt).toBe('2026-03-01T13:00:00.000Z');
    expect(both?.expiryDays).toBe(0);
  });

  it('rounds the lifetime to one decimal', () => {
    const jar = createCookieJar();
    const [r] = storeResponseCookies(jar, url('http://shop.test/'), ['x=1; Max-Age=100000'], 0, { now: NOW });
    expect(r?.expiryDays).toBe(1.2);
  });

  it('leaves session cookies without expiry', () => {
    const jar = createCookieJar();
    const [r] = storeResponseCookies(jar, url('http://shop.test/a/b'), ['sess=1'], 2, { now: NOW });
    expect(r).toMatchObject({
      name: 'sess',
      domain: 'shop.test',
      path: '/a',
      expiresAt: null,
      expiryDays: null,
      sameSite: null,
      setByHop: 2,
    });
  });

  it('caps lifetimes at 400 days like Chrome does', () => {
    const jar = createCookieJar();
    const [r] = storeResponseCookies(jar, url('http://shop.test/'), ['long=1; Max-Age=315360000'], 0, { now: NOW });
    expect(r?.expiryDays).toBe(MAX_COOKIE_LIFETIME_DAYS);
    expect(r?.expiresAt).toBe('2027-04-05T12:00:00.000Z');
  });

  it('does not record cookies a browser would reject, and records deletions as expired', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(
      jar,
      url('http://www.shop.test/'),
      [
        'wrongdomain=1; Domain=other.test',
        'publicsuffix=1; Domain=co.uk',
        'secureonhttp=1; Secure',
        '__Host-x=1; Path=/',
        'gone=1; Max-Age=0',
        'past=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
        'nonesecure=1; SameSite=None',
        'ok=1',
      ],
      0,
      { now: NOW },
    );
    expect(records.map((r) => [r.name, r.expiryDays])).toEqual([
      ['gone', 0],
      ['past', 0],
      ['ok', null],
    ]);
    expect(records[0]?.expiresAt && Date.parse(records[0].expiresAt)).toBeLessThanOrEqual(NOW.getTime());
  });

  it('caps absurd lifetimes at 400 days instead of failing', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(
      jar,
      url('https://shop.test/'),
      ['a=1; Max-Age=99999999999999', 'b=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT'],
      0,
      { now: NOW },
    );
    expect(records.map((r) => r.expiryDays)).toEqual([400, 400]);
  });

  it('reads SameSite values case-insensitively and ignores unknown ones', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(
      jar,
      url('https://shop.test/'),
      ['a=1; SameSite=STRICT', 'b=1; samesite=lax', 'c=1; SameSite=bogus'],
      0,
      { now: NOW },
    );
    expect(records.map((r) => r.sameSite)).toEqual(['strict', 'lax', null]);
  });

  it('survives garbage headers without throwing', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(
      jar,
      url('http://shop.test/'),
      ['', ';;;', '=; Max-Age=x', '\u0000bad=1', 'fine=1; Max-Age=abc'],
      0,
      { now: NOW },
    );
    expect(records.every((r) => typeof r.name === 'string')).toBe(true);
    expect(records.some((r) => r.name === 'fine')).toBe(true);
  });
});

describe('cookieHeaderFor', () => {
  it('sends matching cookies like a browser on a top-level navigation', () => {
    const jar = createCookieJar();
    storeResponseCookies(
      jar,
      url('https://track.shop.test/c'),
      ['a=1; Domain=shop.test; Path=/', 'b=2; Path=/c', 'lax=3; SameSite=Lax', 'strict=4; SameSite=Strict', 's=5; Secure'],
      0,
      { now: NOW },
    );
    expect(cookieHeaderFor(jar, url('https://www.shop.test/p'))).toBe('a=1');
    const header = cookieHeaderFor(jar, url('https://track.shop.test/c/x'));
    expect(header.split('; ').sort()).toEqual(['a=1', 'b=2', 'lax=3', 's=5']);
    expect(cookieHeaderFor(jar, url('http://track.shop.test/c/x'))).not.toContain('s=5');
    expect(cookieHeaderFor(jar, url('https://elsewhere.test/'))).toBe('');
  });
});

describe('markFirstParty', () => {
  it('compares registrable domains with the landing host (public-suffix aware)', () => {
    const jar = createCookieJar();
    const records = [
      ...storeResponseCookies(jar, url('https://www.awin1.com/'), ['aw=1'], 0, { now: NOW }),
      ...storeResponseCookies(jar, url('https://www.example-shoes.co.uk/p'), ['shop=1; Domain=example-shoes.co.uk', 'host=1'], 1, {
        now: NOW,
      }),
      ...storeResponseCookies(jar, url('https://other.co.uk/'), ['o=1'], 1, { now: NOW }),
    ];
    markFirstParty(records, 'shop.example-shoes.co.uk');
    expect(records.map((r) => [r.name, r.firstParty])).toEqual([
      ['aw', false],
      ['shop', true],
      ['host', true],
      ['o', false],
    ]);
  });

  it('treats private public suffixes (e.g. myshopify.com) as separate sites', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(jar, url('https://a-shop.myshopify.com/'), ['s=1'], 0, { now: NOW });
    markFirstParty(records, 'a-shop.myshopify.com');
    expect(records[0]?.firstParty).toBe(true);
    markFirstParty(records, 'other-shop.myshopify.com');
    expect(records[0]?.firstParty).toBe(false);
  });

  it('compares IP hosts exactly', () => {
    const jar = createCookieJar();
    const records = storeResponseCookies(jar, url('http://8.8.8.8/'), ['ip=1'], 0, { now: NOW });
    markFirstParty(records, '8.8.8.8');
    expect(records[0]?.firstParty).toBe(true);
    markFirstParty(records, '8.8.4.4');
    expect(records[0]?.firstParty).toBe(false);
  });
});
