// Small, pure URL helpers for the analysis. Everything here tolerates malformed input: a hop URL that does not
// parse simply yields no facts, never an exception.
import { getDomain } from 'tldts';

export function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** Decodes percent-escapes, returning the input unchanged when it is not valid percent-encoding. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Parameters of a URL: its query, plus a `#key=value&…` fragment, because some networks (Tapfiliate) hand the
 * click id over in the hash, where the merchant's script reads it and redirects keep it.
 */
export function readParams(raw: string): URLSearchParams {
  const url = parseUrl(raw);
  const params = new URLSearchParams();
  if (url === null) return params;
  url.searchParams.forEach((value, key) => params.append(key, value));
  const hash = url.hash.slice(1);
  // Hash routes (`#/cart?ref=x`) carry their parameters after the `?`.
  const fragmentQuery = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : hash;
  if (fragmentQuery.includes('=')) {
    new URLSearchParams(fragmentQuery).forEach((value, key) => params.append(key, value));
  }
  return params;
}

/**
 * The registrable domain of a URL's host, counting private suffixes (`shop.myshopify.com`) as the follower's
 * first-party test does; the bare host for IPs and single-label hosts.
 */
export function registrableDomain(raw: string): string | null {
  const url = parseUrl(raw);
  if (url === null || url.hostname === '') return null;
  return getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname.toLowerCase();
}

const LOCALE_ROOT = /^\/[a-z]{2}(?:[-_][a-z0-9]{2,4})?\/?$/i;
const INDEX_PAGE = /^\/(?:[a-z]{2}(?:[-_][a-z0-9]{2,4})?\/)?index\.(?:html?|php|aspx?|jsp)$/i;

/** The site's front page: `/`, a bare locale root (`/en/`, `/en-gb`), or an index document at either. */
export function isRootPath(pathname: string): boolean {
  return pathname === '' || pathname === '/' || LOCALE_ROOT.test(pathname) || INDEX_PAGE.test(pathname);
}

/** A document's base URL: its first `<base href>` resolved against the page URL, or the page URL when absent or broken. */
export function documentBase(pageUrl: URL, baseHref: string | null): URL {
  if (baseHref === null) return pageUrl;
  try {
    return new URL(baseHref, pageUrl);
  } catch {
    return pageUrl;
  }
}
