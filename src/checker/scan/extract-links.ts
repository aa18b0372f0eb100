// The links of a page, as a shopper's browser would resolve them. A streaming (SAX) parse keeps the work
// linear in the page size and holds no DOM; resolution waits for the end of the document because the first
// <base href> governs every link, even the ones written before it.
import { Parser } from 'htmlparser2';
import { documentBase } from '../analysis/url-facts.js';

export interface PageLink {
  /** Absolute http(s) URL, as resolved for the link's first occurrence (fragment kept). */
  url: string;
  /** Anchor text, whitespace-collapsed; else title, aria-label or an inner image's alt; '' when none. */
  text: string;
  /** The rel tokens, lowercased, de-duplicated, in document order (e.g. ['sponsored', 'nofollow']). */
  rel: string[];
}

export interface ExtractedLinks {
  /** Distinct links in page order, at most MAX_PAGE_LINKS. */
  links: PageLink[];
  /** Every distinct http(s) link on the page, including those past the cap. */
  linksFound: number;
}

/** Past this many distinct links a page is a link farm or a sitemap in disguise: the rest are only counted. */
export const MAX_PAGE_LINKS = 5000;
/** Raw text kept per link: enough for any real label, and a bound on memory for a page that is one giant anchor. */
const MAX_RAW_TEXT = 1000;
const MAX_TEXT = 300;

interface RawLink {
  href: string;
  rel: string;
  fallbacks: string[];
  text: string;
  imageAlt: string;
}

// Text of these never shows as link text (htmlparser2 reports their content as text).
const HIDDEN_CONTENT = new Set(['script', 'style', 'template', 'noscript']);
// Boundaries of these separate words, as the rendered text would (innerText, not textContent).
const WORD_BREAKS = new Set(['br', 'div', 'p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'tr', 'img']);

function collapse(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_TEXT ? `${collapsed.slice(0, MAX_TEXT - 1).trimEnd()}…` : collapsed;
}

function relTokens(rel: string): string[] {
  const tokens = rel
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .filter((token) => token !== '');
  return [...new Set(tokens)];
}

function labelOf(raw: RawLink): string {
  for (const candidate of [raw.text, ...raw.fallbacks, raw.imageAlt]) {
    const label = collapse(candidate);
    if (label !== '') return label;
  }
  return '';
}

/** Reads anchors, areas and the first base href in one pass; links come out unresolved. */
function collectRawLinks(html: string): { raw: RawLink[]; baseHref: string | null } {
  const raw: RawLink[] = [];
  let baseHref: string | null = null;
  let open: RawLink | null = null;
  let hiddenDepth = 0;
  // Links inside <template> are inert content, not part of the document.
  let templateDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (HIDDEN_CONTENT.has(name)) hiddenDepth++;
        if (name === 'template') templateDepth++;
        if (open !== null && WORD_BREAKS.has(name)) open.text += ' ';
        if (templateDepth > 0) return;
        if (name === 'base' && baseHref === null && attrs.href !== undefined) baseHref = attrs.href;
        if (name === 'img' && open !== null && open.imageAlt === '' && attrs.alt !== undefined) open.imageAlt = attrs.alt;
        if ((name !== 'a' && name !== 'area') || attrs.href === undefined) return;
        const link: RawLink = {
          href: attrs.href,
          rel: attrs.rel ?? '',
          fallbacks: [attrs.title ?? '', attrs['aria-label'] ?? ''],
          text: '',
          // An area has no content: its own alt is its label.
          imageAlt: name === 'area' ? (attrs.alt ?? '') : '',
        };
        raw.push(link);
        // htmlparser2 closes an open <a> when another opens, as browsers do, so one link collects at a time.
        if (name === 'a') open = link;
      },
      ontext(text) {
        if (open !== null && hiddenDepth === 0 && open.text.length < MAX_RAW_TEXT) open.text += text.slice(0, MAX_RAW_TEXT);
      },
      onclosetag(name) {
        if (HIDDEN_CONTENT.has(name) && hiddenDepth > 0) hiddenDepth--;
        if (name === 'template' && templateDepth > 0) templateDepth--;
        if (name === 'a') open = null;
        else if (open !== null && WORD_BREAKS.has(name)) open.text += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return { raw, baseHref };
}

function resolveHttp(href: string, base: URL): URL | null {
  const trimmed = href.trim();
  // A fragment-only or empty href points back into the same document: not a link worth following.
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * The distinct http(s) links (<a href>, <area href>) of an HTML page, in page order. Never throws: malformed
 * markup is parsed as a browser would recover it, and an unparseable page URL yields no links.
 */
export function extractLinks(html: string, pageUrl: string): ExtractedLinks {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return { links: [], linksFound: 0 };
  }
  const { raw, baseHref } = collectRawLinks(html);
  const base = documentBase(page, baseHref);
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const candidate of raw) {
    const url = resolveHttp(candidate.href, base);
    if (url === null) continue;
    const href = url.href;
    url.hash = '';
    const key = url.href;
    if (seen.has(key)) continue;
    seen.add(key);
    if (links.length < MAX_PAGE_LINKS) links.push({ url: href, text: labelOf(candidate), rel: relTokens(candidate.rel) });
  }
  return { links, linksFound: seen.size };
}
