// Pure address policy: which IP addresses the checker may connect to, and the static resolve map
// (TRACKCHECK_RESOLVE) that points chosen host names at chosen addresses. No I/O here.
import ipaddr from 'ipaddr.js';

/** Static DNS: exact host names, and `*.suffix` entries that match subdomains (never the bare suffix). */
export type ResolveMap = { exact: Map<string, string>; suffix: Array<[suffix: string, ip: string]> };

/** 'public' (may be contacted) or the name of the refused range, e.g. 'loopback' or 'ipv4Mapped:private'. */
export type AddressClass = 'public' | string;

// IPv6 ranges that carry or reach an IPv4 address through a translator: the embedded address could be
// anything, and the checker never needs them, so they are refused outright.
const TRANSITION_RANGES: Record<string, string> = {
  rfc6052: 'nat64',
  rfc6145: 'ipv4Translated',
  '6to4': '6to4',
  teredo: 'teredo',
};

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  const range = addr.range();
  return range === 'unicast' ? 'public' : range;
}

function classifyV6(addr: ipaddr.IPv6): AddressClass {
  const p = addr.parts;
  const firstFiveZero = p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0;
  // ::ffff:a.b.c.d is the IPv4 address a.b.c.d as far as the socket layer is concerned.
  if (firstFiveZero && p[5] === 0xffff) {
    const inner = classifyV4(addr.toIPv4Address());
    return inner === 'public' ? 'public' : `ipv4Mapped:${inner}`;
  }
  // ::a.b.c.d (deprecated "IPv4-compatible") — never legitimate on the public internet.
  if (firstFiveZero && p[5] === 0 && !(p[6] === 0 && (p[7] === 0 || p[7] === 1))) {
    const embedded = new ipaddr.IPv4([(p[6] ?? 0) >> 8, (p[6] ?? 0) & 0xff, (p[7] ?? 0) >> 8, (p[7] ?? 0) & 0xff]);
    const inner = classifyV4(embedded);
    return inner === 'public' ? 'ipv4Compatible' : `ipv4Compatible:${inner}`;
  }
  const range = addr.range();
  const transition = TRANSITION_RANGES[range];
  if (transition !== undefined) return transition;
  if (range !== 'unicast') return range;
  // Only 2000::/3 is allocated as global unicast; anything else ipaddr.js calls "unicast" is unassigned.
  return (p[0] ?? 0) >> 13 === 1 ? 'public' : 'unassigned';
}

function canonicalIpv6(text: string): string | null {
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/**
 * Classifies one IP address (IPv4 or IPv6, brackets and zone ids tolerated). Anything that is not a
 * public unicast address gets the name of its range; unparseable input is 'invalid'.
 */
export function classifyAddress(ip: string): AddressClass {
  let bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (bare.includes(':')) {
    // ipaddr.js reads "::a.b.c.d" as IPv4-mapped; the WHATWG URL parser writes every IPv6 form
    // (embedded dotted quads included) as plain hex groups first. Zone ids do not change the range.
    const canonical = canonicalIpv6(bare.replace(/%.*$/, ''));
    if (canonical === null) return 'invalid';
    bare = canonical;
  }
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bare);
  } catch {
    return 'invalid';
  }
  return addr.kind() === 'ipv4' ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
}

/** The address a socket should be opened to: IPv4-mapped IPv6 becomes plain IPv4. */
export function toConnectAddress(ip: string): { address: string; family: 4 | 6 } {
  const addr = ipaddr.process(ip.startsWith('[') ? ip.slice(1, -1) : ip);
  return { address: addr.toString(), family: addr.kind() === 'ipv4' ? 4 : 6 };
}

/** Host names a browser treats as this machine whatever DNS says (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const host = normaliseHostname(hostname);
  return host === 'localhost' || host.endsWith('.localhost');
}

/** Lower case, no trailing dots: the form resolve-map keys and comparisons use. Every trailing dot goes, not only
 * one: "localhost.." must not slip past a comparison with "localhost". */
export function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

function parseHostKey(raw: string, entry: string): string {
  if (raw === '' || /[\s/@?#\\]/.test(raw) || raw.includes('*')) {
    throw new Error(`invalid resolve entry "${entry}": "${raw}" is not a host name`);
  }
  let hostname: string;
  try {
    hostname = new URL(`http://${raw}/`).hostname;
  } catch {
    throw new Error(`invalid resolve entry "${entry}": "${raw}" is not a host name`);
  }
  // A port ("host:8080") parses but would silently be dropped: refuse it.
  if (raw.includes(':') && !raw.startsWith('[')) {
    throw new Error(`invalid resolve entry "${entry}": give a host name without a port`);
  }
  return normaliseHostname(hostname);
}

function parseIpValue(raw: string, entry: string): string {
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare).toString();
  const canonical = bare.includes('%') ? null : canonicalIpv6(bare);
  if (canonical !== null) return canonical;
  throw new Error(`invalid resolve entry "${entry}": "${raw}" is not an IP address`);
}

/**
 * Parses `host=ip,*.suffix=ip` (commas or whitespace between entries). Throws an Error naming the bad
 * entry. An empty or missing spec is an empty map.
 */
export function parseResolveMap(spec: string | undefined): ResolveMap {
  const map: ResolveMap = { exact: new Map(), suffix: [] };
  if (spec === undefined) return map;
  for (const entry of spec.split(/[,\s]+/)) {
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) {
      throw new Error(`invalid resolve entry "${entry}": expected host=ip or *.suffix=ip`);
    }
    const key = entry.slice(0, eq).trim();
    const ip = parseIpValue(entry.slice(eq + 1).trim(), entry);
    if (key.startsWith('*.')) {
      const suffix = parseHostKey(key.slice(2), entry);
      map.suffix = map.suffix.filter(([s]) => s !== suffix);
      map.suffix.push([suffix, ip]);
    } else {
      map.exact.set(parseHostKey(key, entry), ip);
    }
  }
  // Longest suffix first, so the most specific entry wins.
  map.suffix.sort((a, b) => b[0].length - a[0].length);
  return map;
}

/** The address the resolve map names for this host (URL hostname form), or undefined. */
export function lookupResolveMap(map: ResolveMap | undefined, hostname: string): string | undefined {
  if (map === undefined) return undefined;
  const host = normaliseHostname(hostname);
  const exact = map.exact.get(host);
  if (exact !== undefined) return exact;
  for (const [suffix, ip] of map.suffix) {
    if (host.endsWith(`.${suffix}`)) return ip;
  }
  return undefined;
}

/** A stable text form of a resolve map, used as a cache key for connection pools. */
export function describeResolveMap(map: ResolveMap | undefined): string {
  if (map === undefined) return '';
  const exact = [...map.exact.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([h, ip]) => `${h}=${ip}`);
  const suffix = map.suffix.map(([s, ip]) => `*.${s}=${ip}`);
  return [...exact, ...suffix].join(',');
}
