// The chain's cookie jar (RFC 6265 via tough-cookie) and the value-free records the report shows.
import { Cookie, CookieJar } from 'tough-cookie';
import { getDomain } from 'tldts';
import type { CookieRecord } from './types.js';

const DAY_MS = 86_400_000;
// Chrome (and RFC 6265bis) cap a cookie's lifetime at 400 days, whatever the server asks for.
export const MAX_COOKIE_LIFETIME_DAYS = 400;

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

function expiryOf(cookie: Cookie, now: Date): Date | null {
  const maxAge = cookie.maxAge;
  if (typeof maxAge === 'number') return new Date(now.getTime() + maxAge * 1000);
  if (maxAge === '-Infinity') return new Date(0);
  if (cookie.expires instanceof Date) return cookie.expires;
  return null;
}

function sameSiteOf(cookie: Cookie): CookieRecord['sameSite'] {
  const value = (cookie.sameSite ?? '').toLowerCase();
  return value === 'strict' || value === 'lax' || value === 'none' ? value : null;
}

function toRecord(cookie: Cookie, requestHost: string, hopIndex: number, now: Date): CookieRecord | null {
  const expiry = expiryOf(cookie, now);
  // A cookie that arrives already expired deletes one: nothing was set.
  if (expiry !== null && expiry.getTime() <= now.getTime()) return null;
  const capped =
    expiry === null ? null : new Date(Math.min(expiry.getTime(), now.getTime() + MAX_COOKIE_LIFETIME_DAYS * DAY_MS));
  return {
    name: cookie.key,
    domain: (cookie.domain ?? requestHost).replace(/^\./, ''),
    path: cookie.path ?? '/',
    expiresAt: capped === null ? null : capped.toISOString(),
    expiryDays: capped === null ? null : Math.round(((capped.getTime() - now.getTime()) / DAY_MS) * 10) / 10,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: sameSiteOf(cookie),
    firstParty: false,
    setByHop: hopIndex,
  };
}

/**
 * Stores a response's Set-Cookie headers in the jar and returns a record for each cookie the browser
 * would have kept (rejected ones — wrong domain, public suffix, Secure over http — are not "set").
 */
export function storeResponseCookies(
  jar: CookieJar,
  url: URL,
  setCookie: string | string[] | undefined,
  hopIndex: number,
  now: Date = new Date(),
): CookieRecord[] {
  if (setCookie === undefined) return [];
  const headers = Array.isArray(setCookie) ? setCookie : [setCookie];
  const records: CookieRecord[] = [];
  for (const header of headers) {
    let stored: Cookie | undefined;
    try {
      stored = jar.setCookieSync(header, url.href, { ignoreError: true, http: true, now });
    } catch {
      stored = undefined;
    }
    if (stored === undefined) continue;
    const record = toRecord(stored, url.hostname, hopIndex, now);
    if (record !== null) records.push(record);
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
