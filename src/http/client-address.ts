// Who is on the other end, as the rate limits and the anonymous weekly cap count them. X-Forwarded-For is written by
// whoever sends the request: only the entries appended by proxies we trust (TRACKCHECK_TRUST_PROXY) are believed,
// and whatever comes out must still be an IP address, or a caller could pick a fresh identity per request.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** `false`: the socket address; a number: trust that many proxies nearest to us; a list: trust these addresses/CIDRs. */
export type TrustProxy = false | number | string[];

const MAX_HOPS = 32;

function isAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

function isAddressOrRange(text: string): boolean {
  if (!text.includes('/')) return isAddress(text);
  const [address = '', bits = ''] = text.split('/');
  if (!isAddress(address) || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (address.includes(':') ? 128 : 32);
}

/**
 * `TRACKCHECK_TRUST_PROXY`: unset/false/0 = no proxy; a hop count; `true` = one hop (it used to trust every entry,
 * which let any client choose its address); or a comma-separated list of proxy addresses and CIDR ranges.
 * Throws an Error describing a bad value.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || /^(false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) throw new Error(`a hop count must be between 0 and ${MAX_HOPS}, got ${value}`);
    return hops === 0 ? false : hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.find((entry) => !isAddressOrRange(entry));
  if (bad !== undefined || entries.length === 0) {
    throw new Error(
      `expected a hop count, true/false, or proxy addresses/CIDR ranges separated by commas; "${bad ?? value}" is none of these`,
    );
  }
  return entries;
}

/**
 * The form Fastify's `trustProxy` option takes. A hop count becomes the function "the i-th address from our end is
 * a proxy when i < n" (proxy-addr numbers the socket 0): Fastify itself refuses plain numbers, since a hop count
 * cannot tell a proxy from a client that connects directly. Use it only where every request comes through them.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** The address in its one canonical text form: IPv4-mapped IPv6 as IPv4, IPv6 compressed, no zone id. */
function canonical(text: string): string {
  if (isIPv4(text)) return text; // dotted decimal without leading zeros: already canonical (the common case, cheap)
  const addr = ipaddr.process(text);
  if (addr.kind() === 'ipv6') (addr as ipaddr.IPv6).zoneId = undefined;
  return addr.toString();
}

interface AddressedRequest {
  /** Fastify's client address: X-Forwarded-For read as far as trustProxy allows, else the socket's. */
  ip: string;
  socket?: { remoteAddress?: string };
}

/** The client's IP address: Fastify's answer when it is one, else the socket's (a forwarded entry like "evil",
 * "1.2.3.4:80" or "unknown" is not an address anyone can be counted by). */
export function clientIp(request: AddressedRequest): string {
  const forwarded = request.ip;
  if (isAddress(forwarded)) return canonical(forwarded);
  const socket = request.socket?.remoteAddress ?? '';
  return isAddress(socket) ? canonical(socket) : socket;
}

/**
 * What one caller is counted as: an IPv4 address, or the /64 of an IPv6 address, since one subscriber usually holds a
 * whole /64 and could otherwise rotate through 2^64 identities. Used for the per-minute limits and the weekly cap
 * (and stored as the cap's key).
 */
export function clientSubject(ip: string): string {
  if (!ip.includes(':') || !ipaddr.IPv6.isValid(ip)) return ip;
  const parts = ipaddr.IPv6.parse(ip).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
