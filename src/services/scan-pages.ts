// Reading a scan's pages: the URL is fetched through the guarded follower; a sitemap becomes its pages (at most
// maxPages), a page is read as served or, with `render`, as the browser shows it after its scripts ran. The
// links of every page are extracted, de-duplicated across pages and the affiliate ones selected (at most 500).
import { decodeHtml } from '../checker/net/body.js';
import type { FetchedDocument } from '../checker/net/document-fetch.js';
import type { RenderedPage } from '../checker/browser/render-page.js';
import { extractLinks } from '../checker/scan/extract-links.js';
import { MAX_CHECKED_LINKS, selectLinksToCheck, type LinkToCheck } from '../checker/scan/classify-link.js';
import { parseSitemap } from '../checker/scan/sitemap.js';
import { planSitemapPages } from '../checker/scan/sitemap-plan.js';

export interface ScanPageSource {
  fetch(url: string): Promise<FetchedDocument>;
  /** Only called for `render: true` scans. */
  render(url: string): Promise<RenderedPage>;
  maxPages: number;
}

export interface ScanLink extends LinkToCheck {
  /** The scanned page the link was found on (its first one, for a link on several pages of a sitemap). */
  page: string;
}

export interface ScanPageError {
  code: string;
  message: string;
}

export interface ScanRead {
  pagesScanned: number;
  linksFound: number;
  links: ScanLink[];
  /** Why no page could be read (then pagesScanned is 0); null otherwise. */
  error: ScanPageError | null;
}

const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml|text\/plain)\b/i;
/** Served as HTML: never a sitemap, so the body is not parsed a second time to find out. */
const DECLARED_HTML = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
/** Pages of a sitemap read at once. */
const PAGE_CONCURRENCY = 4;

const FAILURE_CODES: Record<string, string> = {
  blocked_private_address: 'blocked_private_address',
  unreachable: 'page_unreachable',
  error_status: 'page_error_status',
  too_many_redirects: 'too_many_redirects',
};

function pageError(url: string, code: string, message: string): ScanPageError {
  return { code: FAILURE_CODES[code] ?? code, message: `${url}: ${message}` };
}

type PageHtml = { ok: true; url: string; html: string } | { ok: false; error: ScanPageError };

function htmlOf(doc: FetchedDocument, requested: string): PageHtml {
  if (!doc.ok) return { ok: false, error: pageError(requested, doc.code, doc.message) };
  if (doc.contentType !== null && doc.contentType.trim() !== '' && !HTML_TYPE.test(doc.contentType)) {
    return {
      ok: false,
      error: { code: 'not_a_page', message: `${requested}: neither an HTML page nor an XML sitemap (${doc.contentType})` },
    };
  }
  return { ok: true, url: doc.url, html: decodeHtml(doc.body, doc.contentType) };
}

async function readPage(url: string, render: boolean, source: ScanPageSource, fetched?: FetchedDocument): Promise<PageHtml> {
  if (!render) return htmlOf(fetched ?? (await source.fetch(url)), url);
  const rendered = await source.render(url);
  return rendered.ok ? rendered : { ok: false, error: pageError(url, rendered.code, rendered.message) };
}

/** The pages' links put together: distinct URLs (fragment aside) across pages, the first 500 affiliate ones selected. */
function collect(pages: { page: string; result: PageHtml }[]): ScanRead {
  const seen = new Set<string>();
  const links: ScanLink[] = [];
  let overflow = 0;
  let scanned = 0;
  let error: ScanPageError | null = null;
  for (const { page, result } of pages) {
    if (!result.ok) {
      error ??= result.error;
      continue;
    }
    scanned += 1;
    const extracted = extractLinks(result.html, result.url);
    overflow += extracted.linksFound - extracted.links.length;
    const fresh = extracted.links.filter((link) => {
      const key = link.url.split('#')[0] ?? link.url;
      return !seen.has(key) && seen.add(key);
    });
    for (const link of selectLinksToCheck(fresh, result.url, MAX_CHECKED_LINKS - links.length)) links.push({ ...link, page });
  }
  return { pagesScanned: scanned, linksFound: seen.size + overflow, links, error: scanned === 0 ? error : null };
}

/** Reads `url` (a page or a sitemap) and returns what a scan checks. Throws only for the browser's own failures. */
export async function readScanPages(url: string, render: boolean, source: ScanPageSource): Promise<ScanRead> {
  const first = await source.fetch(url);
  const sitemap = first.ok && !DECLARED_HTML.test(first.contentType ?? '') ? parseSitemap(first.body) : null;
  if (!first.ok || sitemap === null) {
    // Not a sitemap: the page itself (rendered, a page the server refuses to plain HTTP may still open in the browser).
    return collect([{ page: url, result: await readPage(url, render, source, render ? undefined : first) }]);
  }
  const pageUrls = await planSitemapPages(first.url, sitemap, {
    fetch: async (child) => {
      const doc = await source.fetch(child);
      return doc.ok ? doc.body : null;
    },
    maxPages: source.maxPages,
  });
  if (pageUrls.length === 0) {
    return {
      pagesScanned: 0,
      linksFound: 0,
      links: [],
      error: { code: 'empty_sitemap', message: `${url}: the sitemap lists no page of its own site` },
    };
  }
  const pages: { page: string; result: PageHtml }[] = [];
  for (let i = 0; i < pageUrls.length; i += PAGE_CONCURRENCY) {
    const chunk = pageUrls.slice(i, i + PAGE_CONCURRENCY);
    pages.push(...(await Promise.all(chunk.map(async (page) => ({ page, result: await readPage(page, render, source) })))));
  }
  return collect(pages);
}
