// The chain's cookie jar (RFC 6265 via tough-cookie) and the value-free records the report shows.
import { Cookie, CookieJar } from 'tough-cookie';
import { getDomain } from 'tldts';
import type { CookieRecord } from '../types.js';

const DAY_MS = 86_400_000;
// Chrome (and RFC 6265bis) cap a cookie's lifetime at 400 days, whatever the server asks for.
export const MAX_COOKIE_LIFETIME_DAYS = 400;
/**
 * A response's Set-Cookie headers read at most (Chromium keeps 180 cookies per domain), and the cookie records a
 * check keeps at most: a chain setting thousands of cookies per hop must not cost thousands of parses per hop
 * nor a result of megabytes. Real chains set a few dozen.
 */
export const MAX_COOKIES_PER_RESPONSE = 180;
export const MAX_COOKIES_PER_CHECK = 500;

/** A cookie name against catalogue patterns: exact, or a prefix for a trailing "*". Case-sensitive, as names are. */
export function matchesCookieName(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

/** A browser-like cookie jar for one chain. */
export function createCookieJar(): CookieJar {
  return new CookieJar(undefined, { looseMode: true, rejectPublicSuffixes: true });
}

/** The Cookie header a browser would send on a top-level navigation to `url` (empty when none). */
export function cookieHeaderFor(jar: CookieJar, url: URL): string {
  try {
    return jar.getCookieStringSync(url.href, { sameSiteContext: 'lax', http: true });
  } catch {
    return '';
  }
}

const MAX_LIFETIME_MS = MAX_COOKIE_LIFETIME_DAYS * DAY_MS;

/** Epoch ms the cookie expires at, clamped to the 400-day cap (so absurd Max-Age values stay valid dates). */
function expiryOf(cookie: Cookie, nowMs: number): number | null {
  const maxAge = cookie.maxAge;
  if (typeof maxAge === 'number') return nowMs + Math.max(-nowMs, Math.min(maxAge * 1000, MAX_LIFETIME_MS));
  if (maxAge === '-Infinity') return 0;
  if (maxAge === 'Infinity') return nowMs + MAX_LIFETIME_MS;
  if (cookie.expires instanceof Date && !Number.isNaN(cookie.expires.getTime())) {
    return Math.min(cookie.expires.getTime(), nowMs + MAX_LIFETIME_MS);
  }
  return null;
}

function sameSiteOf(cookie: Cookie): CookieRecord['sameSite'] {
  const value = (cookie.sameSite ?? '').toLowerCase();
  return value === 'strict' || value === 'lax' || value === 'none' ? value : null;
}

/**
 * The value-free record of a cookie the response set. A cookie that arrives already expired deletes one: it is
 * recorded with expiryDays 0 and its past expiry, so the analysis knows the cookie no longer stands.
 */
function toRecord(cookie: Cookie, requestHost: string, hopIndex: number, now: Date): CookieRecord {
  const nowMs = now.getTime();
  const expiry = expiryOf(cookie, nowMs);
  const deleted = expiry !== null && expiry <= nowMs;
  return {
    name: cookie.key,
    domain: (cookie.domain ?? requestHost).replace(/^\./, ''),
    path: cookie.path ?? '/',
    expiresAt: expiry === null ? null : new Date(Math.max(expiry, 0)).toISOString(),
    expiryDays: expiry === null ? null : deleted ? 0 : Math.round(((expiry - nowMs) / DAY_MS) * 10) / 10,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: sameSiteOf(cookie),
    firstParty: false,
    setByHop: hopIndex,
  };
}

/** Browsers refuse `SameSite=None` without `Secure` (Chrome since v80, Firefox): the cookie is never set. */
function refusedByBrowsers(header: string): boolean {
  const parsed = Cookie.parse(header, { loose: true });
  return parsed !== undefined && (parsed.sameSite ?? '').toLowerCase() === 'none' && !parsed.secure;
}

/**
 * Stores a response's Set-Cookie headers in the jar and returns a record for each cookie the browser
 * would have kept, or deleted (rejected ones — wrong domain, public suffix, Secure over http, SameSite=None
 * without Secure — are not "set").
 */
export function storeResponseCookies(
  jar: CookieJar,
  url: URL,
  setCookie: string | string[] | undefined,
  hopIndex: number,
  options: { /** Records the check still has room for. */ room?: number; now?: Date } = {},
): CookieRecord[] {
  const { room = MAX_COOKIES_PER_CHECK, now = new Date() } = options;
  if (setCookie === undefined || room <= 0) return [];
  const headers = (Array.isArray(setCookie) ? setCookie : [setCookie]).slice(0, MAX_COOKIES_PER_RESPONSE);
  const records: CookieRecord[] = [];
  for (const header of headers) {
    if (records.length >= room) break;
    if (refusedByBrowsers(header)) continue;
    let stored: Cookie | undefined;
    try {
      stored = jar.setCookieSync(header, url.href, { ignoreError: true, http: true, now });
    } catch {
      stored = undefined;
    }
    if (stored !== undefined) records.push(toRecord(stored, url.hostname, hopIndex, now));
  }
  return records;
}

function registrableDomain(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host.toLowerCase();
}

/** Marks records set on the landing page's registrable domain (so `shop.example.co.uk` counts). */
export function markFirstParty(records: CookieRecord[], landingHost: string): void {
  const landing = registrableDomain(landingHost.replace(/^\[|\]$/g, ''));
  for (const record of records) record.firstParty = registrableDomain(record.domain) === landing;
}
