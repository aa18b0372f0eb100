// One browser-like GET over a pinned connection, and the words for what can go wrong with it.
import type { Dispatcher } from 'undici';
import { getDomain } from 'tldts';
import type { PinnedAddress } from './net-guard.js';
import type { PinnedClient } from './pinned-agent.js';

// A current desktop Chrome on Windows: the browser most affiliate traffic comes from. Bump with Chrome.
const CHROME_MAJOR = '142';
export const DEFAULT_USER_AGENT = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`;
const SEC_CH_UA = `"Chromium";v="${CHROME_MAJOR}", "Google Chrome";v="${CHROME_MAJOR}", "Not_A Brand";v="99"`;

export type FetchSite = 'none' | 'same-origin' | 'same-site' | 'cross-site';

/** How the browser came to make this request: drives Sec-Fetch-* and Referer. */
export interface Navigation {
  site: FetchSite;
  /** A user click (hop 0 and the redirects it causes), as opposed to a page navigating by itself. */
  userActivated: boolean;
  referer: string | null;
}

const SITE_RANK: Record<FetchSite, number> = { none: 0, 'same-origin': 1, 'same-site': 2, 'cross-site': 3 };

/** The Sec-Fetch-Site relation of `target` to the page that started the navigation. */
export function relateSites(from: URL, target: URL): FetchSite {
  if (from.origin === target.origin) return 'same-origin';
  // "Site" as browsers define it: scheme plus registrable domain, private PSL section included.
  const a = getDomain(from.hostname, { allowPrivateDomains: true }) ?? from.hostname;
  const b = getDomain(target.hostname, { allowPrivateDomains: true }) ?? target.hostname;
  return a === b && from.protocol === target.protocol ? 'same-site' : 'cross-site';
}

/** Across a redirect, Sec-Fetch-Site can only get less trusted. */
export function worstSite(a: FetchSite, b: FetchSite): FetchSite {
  return SITE_RANK[a] >= SITE_RANK[b] ? a : b;
}

/** Referer under Chrome's default policy, strict-origin-when-cross-origin. */
export function refererFor(page: URL, target: URL): string | null {
  if (page.protocol === 'https:' && target.protocol === 'http:') return null;
  if (page.origin === target.origin) {
    const copy = new URL(page.href);
    copy.hash = '';
    return copy.href;
  }
  return `${page.origin}/`;
}

export function buildRequestHeaders(url: URL, nav: Navigation, cookie: string, userAgent: string): Record<string, string> {
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = {};
  // Chrome sends client hints and fetch metadata only to secure origins.
  if (secure && userAgent === DEFAULT_USER_AGENT) {
    headers['sec-ch-ua'] = SEC_CH_UA;
    headers['sec-ch-ua-mobile'] = '?0';
    headers['sec-ch-ua-platform'] = '"Windows"';
  }
  headers['upgrade-insecure-requests'] = '1';
  headers['user-agent'] = userAgent;
  headers['accept'] =
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
  if (secure) {
    headers['sec-fetch-site'] = nav.site;
    headers['sec-fetch-mode'] = 'navigate';
    if (nav.userActivated) headers['sec-fetch-user'] = '?1';
    headers['sec-fetch-dest'] = 'document';
  }
  if (nav.referer !== null) headers['referer'] = nav.referer;
  headers['accept-encoding'] = 'gzip, deflate, br';
  headers['accept-language'] = 'en-US,en;q=0.9';
  if (cookie !== '') headers['cookie'] = cookie;
  return headers;
}

/** Sends one GET to `url`, with the connection pinned to the verified addresses. */
export async function sendRequest(
  client: PinnedClient,
  url: URL,
  addresses: PinnedAddress[],
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  const release = client.pins.acquire(url.hostname, addresses);
  try {
    return await client.agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers,
      signal,
    });
  } finally {
    release();
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function tlsReason(code: string): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'certificate does not match the host name';
  if (code === 'CERT_HAS_EXPIRED') return 'certificate has expired';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') return 'self-signed certificate';
  if (code.startsWith('UNABLE_TO_')) return 'certificate is not trusted';
  return code
    .toLowerCase()
    .replace(/^err_(tls|ssl|ossl)_/, '')
    .replace(/_/g, ' ');
}

/**
 * A short, user-facing reason for a request that produced no response. Built from error codes only:
 * library messages can echo request data, and cookie values must never reach a report.
 */
export function describeRequestError(err: unknown): string {
  const codes = errorCodes(err);
  for (const code of codes) {
    if (TLS_CODE.test(code)) return `TLS error: ${tlsReason(code)}`;
  }
  const message = err instanceof Error ? err.message : '';
  if (/ssl|tls|certificate/i.test(message) && !codes.includes('ECONNRESET')) return 'TLS error: handshake failed';
  // undici's parser errors carry no code, only their class name.
  if (err instanceof Error && err.name === 'HTTPParserError') return 'invalid HTTP response';
  for (const code of codes) {
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused';
      case 'ECONNRESET':
      case 'EPIPE':
        return 'connection reset';
      case 'UND_ERR_SOCKET':
        return 'connection closed before a complete response';
      case 'EHOSTUNREACH':
        return 'host unreachable';
      case 'ENETUNREACH':
        return 'network unreachable';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return 'connection timed out';
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return 'response timed out';
      case 'UND_ERR_HEADERS_OVERFLOW':
        return 'response headers too large';
      case 'ENOTPINNED':
        return 'no verified address for the host';
      default:
        if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
          return 'invalid HTTP response';
        }
    }
  }
  return codes.length > 0 ? `request failed (${codes[0]})` : 'request failed';
}
