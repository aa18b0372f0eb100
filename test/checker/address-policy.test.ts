import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  describeResolveMap,
  isLocalhostName,
  lookupResolveMap,
  parseResolveMap,
  toConnectAddress,
} from '../../src/checker/net/address-policy.js';

describe('classifyAddress: IPv4', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'], // Alibaba Cloud metadata
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'linkLocal'],
    ['169.254.169.254', 'linkLocal'], // AWS/GCP/Azure metadata
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '11.0.0.1',
    '192.169.0.1',
    '169.253.255.255',
    '223.255.255.255',
    '198.20.0.1',
  ])('allows public %s', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
  });
});

describe('classifyAddress: IPv6', () => {
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'], // AWS metadata over IPv6
    ['fdff:ffff::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:db8:ffff::1', 'reserved'],
    ['100::1', 'discard'],
    ['2001::1', 'teredo'],
    ['2001:0:4136:e378::1', 'teredo'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['64:ff9b::7f00:1', 'nat64'],
    ['64:ff9b::808:808', 'nat64'],
    ['::ffff:0:7f00:1', 'ipv4Translated'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['3fff::1', 'reserved'],
    ['4000::1', 'unassigned'],
    ['::2:1', 'ipv4Compatible:unspecified'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888', '2400:cb00::1', '3ffe::1'])(
    'allows public %s',
    (ip) => {
      expect(classifyAddress(ip)).toBe('public');
    },
  );

  it('classifies IPv4-mapped addresses by the embedded IPv4 address', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('ipv4Mapped:loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('ipv4Mapped:loopback');
    expect(classifyAddress('0:0:0:0:0:ffff:7f00:1')).toBe('ipv4Mapped:loopback');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('ipv4Mapped:private');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('ipv4Mapped:linkLocal');
    expect(classifyAddress('::ffff:100.64.0.1')).toBe('ipv4Mapped:carrierGradeNat');
    expect(classifyAddress('::ffff:0.0.0.0')).toBe('ipv4Mapped:unspecified');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
  });

  it('refuses IPv4-compatible addresses, naming the embedded range', () => {
    expect(classifyAddress('::127.0.0.1')).toBe('ipv4Compatible:loopback');
    expect(classifyAddress('::1.0.0.0')).toBe('ipv4Compatible');
    expect(classifyAddress('::7f00:1')).toBe('ipv4Compatible:loopback');
    expect(classifyAddress('::a00:1')).toBe('ipv4Compatible:private');
    expect(classifyAddress('::a9fe:a9fe')).toBe('ipv4Compatible:linkLocal');
    expect(classifyAddress('::808:808')).toBe('ipv4Compatible');
  });
});

describe('classifyAddress: odd input', () => {
  it('classifies the lenient IPv4 forms by the address they denote', () => {
    expect(classifyAddress('127.1')).toBe('loopback');
    expect(classifyAddress('0177.0.0.1')).toBe('loopback');
    expect(classifyAddress('0x7f.0.0.1')).toBe('loopback');
    expect(classifyAddress('2130706433')).toBe('loopback');
  });

  it.each(['', 'localhost', 'not-an-ip', '1.2.3.4.5', '::g', '[::1', '999.1.1.1'])('calls %j invalid', (text) => {
    expect(classifyAddress(text)).toBe('invalid');
  });
});

describe('toConnectAddress', () => {
  it('turns IPv4-mapped IPv6 into the IPv4 address and keeps families right', () => {
    expect(toConnectAddress('::ffff:8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(toConnectAddress('1.2.3.4')).toEqual({ address: '1.2.3.4', family: 4 });
    expect(toConnectAddress('[2606:4700::1]')).toEqual({ address: '2606:4700::1', family: 6 });
  });
});

describe('isLocalhostName', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'a.localhost', 'x.y.localhost.'])('%s is localhost', (h) => {
    expect(isLocalhostName(h)).toBe(true);
  });
  it.each(['localhost.com', 'mylocalhost', 'localhostx', 'example.com'])('%s is not', (h) => {
    expect(isLocalhostName(h)).toBe(false);
  });
});

describe('parseResolveMap', () => {
  it('parses exact and suffix entries, normalising hosts and addresses', () => {
    const map = parseResolveMap(
      ' www.AWIN1.com=127.0.0.1, *.Shop.Example=10.0.0.5,v6.test=[::1] , ipv6b.test=0:0:0:0:0:0:0:1,bücher.example=127.0.0.2',
    );
    expect(map.exact.get('www.awin1.com')).toBe('127.0.0.1');
    expect(map.exact.get('v6.test')).toBe('::1');
    expect(map.exact.get('ipv6b.test')).toBe('::1');
    expect(map.exact.get('xn--bcher-kva.example')).toBe('127.0.0.2');
    expect(map.suffix).toEqual([['shop.example', '10.0.0.5']]);
  });

  it('is empty for an unset or blank spec', () => {
    expect(parseResolveMap(undefined).exact.size).toBe(0);
    expect(parseResolveMap('').suffix).toEqual([]);
    expect(parseResolveMap(' , ').exact.size).toBe(0);
  });

  it('lets the last entry for a host win and sorts suffixes most specific first', () => {
    const map = parseResolveMap('a.test=1.1.1.1,a.test=2.2.2.2,*.test=3.3.3.3,*.b.test=4.4.4.4,*.test=5.5.5.5');
    expect(map.exact.get('a.test')).toBe('2.2.2.2');
    expect(map.suffix).toEqual([
      ['b.test', '4.4.4.4'],
      ['test', '5.5.5.5'],
    ]);
  });

  it.each([
    ['justahost', /expected host=ip/],
    ['=1.2.3.4', /expected host=ip/],
    ['host=', /expected host=ip/],
    ['host=localhost', /not an IP address/],
    ['host=127.1', /not an IP address/],
    ['host=1.2.3.256', /not an IP address/],
    ['host=fe80::1%eth0', /not an IP address/],
    ['ho st=1.2.3.4', /expected host=ip|not a host name/],
    ['host:8080=1.2.3.4', /without a port/],
    ['a/b=1.2.3.4', /not a host name/],
    ['*=1.2.3.4', /not a host name/],
    ['*.=1.2.3.4', /not a host name/],
    ['a.*.b=1.2.3.4', /not a host name/],
  ])('rejects %j with a clear message', (spec, message) => {
    expect(() => parseResolveMap(spec)).toThrow(message);
  });

  it('names the offending entry in the error', () => {
    expect(() => parseResolveMap('good.test=1.2.3.4,bad.test=nope')).toThrow('invalid resolve entry "bad.test=nope"');
  });
});

describe('lookupResolveMap', () => {
  const map = parseResolveMap('www.awin1.com=127.0.0.1,*.shop.example=127.0.0.2,*.deep.shop.example=127.0.0.3');

  it('matches exact hosts case-insensitively and ignoring a trailing dot', () => {
    expect(lookupResolveMap(map, 'www.awin1.com')).toBe('127.0.0.1');
    expect(lookupResolveMap(map, 'WWW.AWIN1.COM.')).toBe('127.0.0.1');
    expect(lookupResolveMap(map, 'awin1.com')).toBeUndefined();
    expect(lookupResolveMap(map, 'x.www.awin1.com')).toBeUndefined();
  });

  it('matches *.suffix for subdomains only, never the bare suffix', () => {
    expect(lookupResolveMap(map, 'www.shop.example')).toBe('127.0.0.2');
    expect(lookupResolveMap(map, 'a.b.shop.example')).toBe('127.0.0.2');
    expect(lookupResolveMap(map, 'shop.example')).toBeUndefined();
    expect(lookupResolveMap(map, 'evilshop.example')).toBeUndefined();
    expect(lookupResolveMap(map, 'x.deep.shop.example')).toBe('127.0.0.3');
  });

  it('is undefined without a map', () => {
    expect(lookupResolveMap(undefined, 'www.awin1.com')).toBeUndefined();
  });

  it('describes a map stably (the pool cache key)', () => {
    const a = parseResolveMap('b.test=1.1.1.1,a.test=2.2.2.2,*.c.test=3.3.3.3');
    const b = parseResolveMap('*.c.test=3.3.3.3,a.test=2.2.2.2,b.test=1.1.1.1');
    expect(describeResolveMap(a)).toBe(describeResolveMap(b));
    expect(describeResolveMap(a)).toBe('a.test=2.2.2.2,b.test=1.1.1.1,*.c.test=3.3.3.3');
    expect(describeResolveMap(undefined)).toBe('');
  });
});

describe('classifyAddress: properties', () => {
  // An independent reference: the refused IPv4 ranges as (network, prefix) pairs.
  const REFUSED_V4: Array<[number, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
    ['192.175.48.0', 24],
    ['192.31.196.0', 24],
    ['192.52.193.0', 24], // AS112 and AMT: special-purpose too
  ].map(([ip, prefix]) => [toInt(ip as string), prefix as number]);

  function toInt(ip: string): number {
    return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
  }
  function inRange(value: number, [network, prefix]: [number, number]): boolean {
    const size = 2 ** (32 - prefix);
    return Math.floor(value / size) === Math.floor(network / size);
  }

  it('agrees with the reference ranges for every IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const refused = REFUSED_V4.some((r) => inRange(toInt(ip), r)) || ip === '255.255.255.255';
        expect(classifyAddress(ip) === 'public').toBe(!refused);
      }),
      { numRuns: 5000 },
    );
  });

  it('classifies the IPv4-mapped form exactly like the IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const plain = classifyAddress(ip);
        expect(classifyAddress(`::ffff:${ip}`)).toBe(plain === 'public' ? 'public' : `ipv4Mapped:${plain}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('never allows an IPv6 address outside 2000::/3, and never throws', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const result = classifyAddress(ip);
        const first = Number.parseInt(ip.split(':')[0] || '0', 16);
        const global = first >> 13 === 1;
        const mapped = /^(0{0,4}:){0,5}(0{0,4}:)?ffff:/i.test(ip) || ip.toLowerCase().startsWith('::ffff:');
        if (result === 'public' && !mapped) expect(global).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => typeof classifyAddress(text) === 'string'));
  });
});
