// Which pages a sitemap scan visits. Pure apart from the injected fetch, which the caller must route through
// the guarded follower (CONTRACT.md §6): a sitemap is attacker-written, and its entries are URLs we would fetch.
import { parseSitemap, type ParsedSitemap } from './sitemap.js';
import { parseHttp } from './classify-link.js';

/** CONTRACT.md §9: `TRACKCHECK_SCAN_MAX_PAGES` defaults to 20 (config.ts reads the variable, not this module). */
export const DEFAULT_SCAN_MAX_PAGES = 20;
/** Child sitemaps fetched per scan: an index of thousands of empty or failing sitemaps must not become thousands of fetches. */
export const DEFAULT_MAX_SITEMAP_FETCHES = 10;

export interface SitemapPlanOptions {
  /** The body of a child sitemap, or null when it could not be fetched (a throw counts as null). */
  fetch: (url: string) => Promise<Buffer | string | null>;
  maxPages?: number;
  maxSitemapFetches?: number;
}

/** Entries of `sitemap` on its own origin: the protocol lets a sitemap list only URLs of its own host. */
function sameOriginEntries(sitemap: ParsedSitemap, sitemapUrl: string): URL[] {
  const origin = parseHttp(sitemapUrl)?.origin;
  if (origin === undefined) return [];
  return sitemap.urls.flatMap((raw) => {
    const url = parseHttp(raw); // locs must be absolute (the protocol); search engines drop relative ones
    return url !== null && url.origin === origin ? [url] : [];
  });
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

async function fetchSitemap(url: string, options: SitemapPlanOptions): Promise<ParsedSitemap | null> {
  try {
    const body = await options.fetch(url);
    return body === null ? null : parseSitemap(body);
  } catch {
    return null;
  }
}

/**
 * Up to `maxPages` distinct page URLs of a sitemap, breadth-first: the pages of `sitemap` itself, then of
 * each child sitemap in index order (fetched only while pages are still wanted), then of any nested index's
 * children. `sitemapUrl` must be the URL the sitemap was finally served from (after redirects), since entries
 * are judged against its origin. Non-http(s), cross-origin and repeated entries are skipped, and so are child
 * sitemaps that fail to fetch or parse.
 */
export async function planSitemapPages(sitemapUrl: string, sitemap: ParsedSitemap, options: SitemapPlanOptions): Promise<string[]> {
  const maxPages = options.maxPages ?? DEFAULT_SCAN_MAX_PAGES;
  let fetchesLeft = options.maxSitemapFetches ?? DEFAULT_MAX_SITEMAP_FETCHES;
  const pages = new Map<string, string>();
  const root = parseHttp(sitemapUrl);
  const seenSitemaps = new Set<string>(root === null ? [] : [withoutFragment(root)]);
  const queue: { url: string; sitemap: ParsedSitemap | null }[] = [{ url: sitemapUrl, sitemap }];

  for (let next = queue.shift(); next !== undefined && pages.size < maxPages; next = queue.shift()) {
    let current = next.sitemap;
    if (current === null) {
      if (fetchesLeft <= 0) break;
      fetchesLeft--;
      current = await fetchSitemap(next.url, options);
      if (current === null) continue;
    }
    for (const entry of sameOriginEntries(current, next.url)) {
      const key = withoutFragment(entry);
      if (current.kind === 'index') {
        if (!seenSitemaps.has(key)) queue.push({ url: entry.href, sitemap: null });
        seenSitemaps.add(key);
      } else if (!pages.has(key)) {
        pages.set(key, entry.href);
        if (pages.size >= maxPages) break;
      }
    }
  }
  return [...pages.values()];
}
