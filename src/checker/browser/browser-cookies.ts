// Cookies as the browser holds them at the end of the chain (HTTP- and JavaScript-set alike), turned into
// the value-free records the report shows. Values are never read.
import { Cookie as ToughCookie } from 'tough-cookie';
import { getDomain } from 'tldts';
import type { BrowserContext, Cookie } from 'playwright-core';
import { markFirstParty, MAX_COOKIE_LIFETIME_DAYS, MAX_COOKIES_PER_CHECK } from '../analysis/cookies.js';
import type { CookieRecord } from '../types.js';

const DAY_MS = 86_400_000;

function registrable(host: string): string {
  const bare = host.replace(/^\./, '').toLowerCase();
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

function cookieKey(name: string, domain: string): string {
  return `${name}\u0000${domain.replace(/^\./, '').toLowerCase()}`;
}

/** Which hop's response set each cookie (name + domain), from the hops' raw Set-Cookie headers. */
export function ownersFromSetCookie(perHop: readonly { url: string; setCookies: readonly string[] }[]): Map<string, number> {
  const owners = new Map<string, number>();
  perHop.forEach(({ url, setCookies }, index) => {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return;
    }
    for (const header of setCookies) {
      const parsed = ToughCookie.parse(header, { loose: true });
      if (parsed === undefined || parsed === null) continue;
      owners.set(cookieKey(parsed.key, parsed.domain ?? host), index);
    }
  });
  return owners;
}

function sameSiteOf(value: string | undefined): CookieRecord['sameSite'] {
  const lower = (value ?? '').toLowerCase();
  return lower === 'strict' || lower === 'lax' || lower === 'none' ? lower : null;
}

/**
 * The context's cookies (`context.cookies()`) as records. `setByHop`: the hop whose Set-Cookie created it; for cookies a
 * script wrote, the last hop on the cookie's site (the page that ran the script), else the last hop.
 */
export function toCookieRecords(
  cookies: readonly Cookie[],
  hopUrls: readonly string[],
  owners: ReadonlyMap<string, number>,
  now: Date = new Date(),
): CookieRecord[] {
  const hopSites = hopUrls.map((url) => {
    try {
      return registrable(new URL(url).hostname);
    } catch {
      return '';
    }
  });
  const lastHop = Math.max(0, hopUrls.length - 1);
  const records: CookieRecord[] = cookies.slice(0, MAX_COOKIES_PER_CHECK).map((cookie) => {
    const domain = cookie.domain.replace(/^\./, '');
    const site = registrable(domain);
    const byHeader = owners.get(cookieKey(cookie.name, cookie.domain));
    const bySite = hopSites.lastIndexOf(site);
    const persistent = cookie.expires > 0;
    const expiry = persistent ? Math.min(cookie.expires * 1000, now.getTime() + MAX_COOKIE_LIFETIME_DAYS * DAY_MS) : null;
    return {
      name: cookie.name,
      domain,
      path: cookie.path,
      expiresAt: expiry === null ? null : new Date(expiry).toISOString(),
      expiryDays: expiry === null ? null : Math.round(((expiry - now.getTime()) / DAY_MS) * 10) / 10,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite: sameSiteOf(cookie.sameSite),
      firstParty: false,
      setByHop: Math.min(byHeader ?? (bySite >= 0 ? bySite : lastHop), lastHop),
    };
  });
  const landing = hopUrls[hopUrls.length - 1];
  if (landing !== undefined) {
    try {
      markFirstParty(records, new URL(landing).hostname);
    } catch {
      // hop URLs are parsed URLs
    }
  }
  return records.sort((a, b) => a.setByHop - b.setByHop);
}

/** Names of the first-party cookies on the landing site that match `isAttribution` (values never read). */
export async function readAttributionCookieNames(
  context: BrowserContext,
  landingUrl: string,
  isAttribution: (name: string) => boolean,
): Promise<string[]> {
  let site: string;
  try {
    site = registrable(new URL(landingUrl).hostname);
  } catch {
    return [];
  }
  const names = (await context.cookies())
    .filter((cookie) => registrable(cookie.domain) === site && isAttribution(cookie.name))
    .map((cookie) => cookie.name);
  return [...new Set(names)].sort();
}
