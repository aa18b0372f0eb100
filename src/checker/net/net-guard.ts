// The network guard (CONTRACT.md section 6): which URLs may be submitted, and which address each hop
// may connect to. The checker must never become a proxy into private networks.
import dns from 'node:dns';
import net from 'node:net';
import {
  classifyAddress,
  isLocalhostName,
  lookupResolveMap,
  normaliseHostname,
  toConnectAddress,
  type ResolveMap,
} from './address-policy.js';

export { classifyAddress, parseResolveMap, type ResolveMap } from './address-policy.js';

export const MAX_URL_LENGTH = 8192;

export type SubmittedUrlCheck = { ok: true; url: URL } | { ok: false; code: 'invalid_url' | 'url_not_allowed'; message: string };

/** A verified address the connection for one hop is pinned to. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export type GuardDecision =
  | { ok: true; addresses: PinnedAddress[] }
  | { ok: false; kind: 'blocked'; address: string; range: string }
  | { ok: false; kind: 'dns_failed'; message: string };

export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** URL.hostname without the brackets IPv6 literals carry. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function invalid(message: string): SubmittedUrlCheck {
  return { ok: false, code: 'invalid_url', message };
}

function notAllowed(message: string): SubmittedUrlCheck {
  return { ok: false, code: 'url_not_allowed', message };
}

/**
 * Validates a URL a user submitted for checking, before anything is queued. Host names are resolved
 * later, hop by hop; here only literal addresses and localhost names can be refused.
 */
export function checkSubmittedUrl(raw: unknown, resolve?: ResolveMap): SubmittedUrlCheck {
  if (typeof raw !== 'string') return invalid('The URL must be a string.');
  const text = raw.trim();
  if (text === '') return invalid('The URL is empty.');
  if (raw.length > MAX_URL_LENGTH) return invalid(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(text) ? '' : ' Include the scheme, e.g. https://';
    return invalid(`The URL could not be parsed as an absolute http(s) URL.${hint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // "shop.example.com:8080/x" parses with the scheme "shop.example.com:": a missing scheme, not a bad one.
    if (url.protocol.includes('.')) return invalid('The URL must start with http:// or https://.');
    return notAllowed(`Only http:// and https:// links can be checked, not ${url.protocol}//.`);
  }
  if (url.hostname === '') return invalid('The URL has no host name.');
  if (url.username !== '' || url.password !== '') {
    return notAllowed('Links with a user name or password in them cannot be checked.');
  }
  const host = canonicalHost(url.hostname);
  if (host === '') return invalid('The URL has no host name.');
  if (lookupResolveMap(resolve, host) !== undefined) return { ok: true, url };
  if (isLocalhostName(host)) return notAllowed('Links to localhost cannot be checked.');
  const bare = bareHostname(host);
  if (net.isIP(bare) !== 0) {
    const range = classifyAddress(bare);
    if (range !== 'public') {
      return notAllowed(`Links to private or reserved addresses cannot be checked (${bare} is ${range}).`);
    }
  }
  // "shop..example.com" or ".example.com": no DNS name has an empty label; it could only ever fail, or be read
  // differently by the next parser along.
  if (!host.startsWith('[') && host.split('.').includes('')) return invalid('The host name has an empty label ("..").');
  return { ok: true, url };
}

/**
 * The host as everything downstream understands it: without trailing dots (the WHATWG parser drops one, and only
 * when the rest is an IPv4 address), then parsed again so that a shorthand IPv4 address hidden behind them
 * ("127.1..", "0x7f.1..") becomes the dotted quad it is. '' when nothing is left.
 */
function canonicalHost(hostname: string): string {
  if (hostname.startsWith('[')) return hostname;
  const stripped = normaliseHostname(hostname);
  if (stripped === '' || stripped === hostname) return stripped;
  try {
    return new URL(`http://${stripped}/`).hostname;
  } catch {
    return stripped;
  }
}

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

function describeDnsFailure(hostname: string): string {
  return `DNS lookup failed for ${hostname}`;
}

/**
 * Resolves a hop's host and verifies every address. The resolve map wins (and may name private
 * addresses); IP literals are classified as they are; everything else goes through DNS once, and a
 * single refused address refuses the host. The caller must connect only to the returned addresses.
 */
export async function resolveTarget(
  hostname: string,
  resolve: ResolveMap | undefined,
  lookupAll: LookupAll = systemLookup,
): Promise<GuardDecision> {
  const mapped = lookupResolveMap(resolve, hostname);
  if (mapped !== undefined) return { ok: true, addresses: [toConnectAddress(mapped)] };

  const host = bareHostname(hostname);
  if (net.isIP(host) !== 0) {
    const range = classifyAddress(host);
    if (range !== 'public') return { ok: false, kind: 'blocked', address: host, range };
    return { ok: true, addresses: [toConnectAddress(host)] };
  }

  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await lookupAll(normaliseHostname(host));
  } catch {
    if (isLocalhostName(host)) return { ok: false, kind: 'blocked', address: host, range: 'loopback' };
    return { ok: false, kind: 'dns_failed', message: describeDnsFailure(host) };
  }
  if (answers.length === 0) return { ok: false, kind: 'dns_failed', message: describeDnsFailure(host) };
  for (const answer of answers) {
    const range = classifyAddress(answer.address);
    if (range !== 'public') return { ok: false, kind: 'blocked', address: answer.address, range };
  }
  // *.localhost is loopback by definition, whatever a misconfigured resolver answers.
  if (isLocalhostName(host)) {
    return { ok: false, kind: 'blocked', address: answers[0]?.address ?? host, range: 'loopback' };
  }
  return { ok: true, addresses: answers.map((a) => toConnectAddress(a.address)) };
}

/** The human-readable hop error for a refused address. */
export function describeBlocked(range: string): string {
  return `blocked: resolves to a private address (${range})`;
}
