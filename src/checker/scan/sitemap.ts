// Recognising and reading an XML sitemap (sitemaps.org protocol): a <urlset> of pages or a <sitemapindex> of
// further sitemaps, plain or gzipped. Anything else (an HTML page, a feed, garbage) is "not a sitemap": null.
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';

export type SitemapKind = 'urlset' | 'index';

export interface ParsedSitemap {
  kind: SitemapKind;
  /** The <loc> values in document order, trimmed, as written (the planner validates them). */
  urls: string[];
}

export interface ParseSitemapOptions {
  /** Cap on the decompressed size of a gzipped body; past it only the first part is read. */
  maxBytes?: number;
  /** Cap on the entries read (the protocol allows 50,000 per file). */
  maxUrls?: number;
}

/** Ten times the follower's page cap: sitemaps compress ~10:1, and the planner needs only the first entries. */
export const DEFAULT_SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
export const SITEMAP_MAX_URLS = 50_000;

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

function isTooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as { code?: string } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * Gunzips at most `maxBytes`. Node's synchronous gunzip gives nothing back past the cap, so an oversized
 * body is retried on shorter prefixes of the compressed stream (a prefix decodes to a prefix of the document,
 * with Z_SYNC_FLUSH tolerating the cut) until one fits: a bomb costs a few capped passes, never the memory.
 */
function gunzipCapped(body: Buffer, maxBytes: number): Buffer | null {
  const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: maxBytes };
  for (let length = body.length; length >= 10; length = Math.floor(length / 2)) {
    try {
      return zlib.gunzipSync(body.subarray(0, length), options);
    } catch (error) {
      if (!isTooLarge(error)) return null;
    }
  }
  return null;
}

function toText(body: Buffer | string, maxBytes: number): string | null {
  if (typeof body === 'string') return body;
  if (body[0] === GZIP_MAGIC_0 && body[1] === GZIP_MAGIC_1) {
    const unzipped = gunzipCapped(body, maxBytes);
    return unzipped === null ? null : unzipped.toString('utf8');
  }
  // The protocol requires UTF-8; a stray byte becomes U+FFFD rather than an error.
  return body.toString('utf8');
}

/** `sm:loc` → `loc`: sitemaps are often written with a namespace prefix. */
function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

/**
 * The sitemap in `body`, or null when it is not one (the root element is neither <urlset> nor <sitemapindex>,
 * or a gzipped body does not decompress). Only a <loc> directly inside <url> / <sitemap> counts (never the
 * image or video extensions' own locs), and only one whose closing tag arrived, so a body cut short by a
 * byte cap never yields a truncated URL.
 */
export function parseSitemap(body: Buffer | string, options: ParseSitemapOptions = {}): ParsedSitemap | null {
  const text = toText(body, options.maxBytes ?? DEFAULT_SITEMAP_MAX_BYTES);
  if (text === null) return null;
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  let kind: SitemapKind | null = null;
  let rootSeen = false;
  const stack: string[] = [];
  const urls: string[] = [];
  let loc: string | null = null;

  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (!rootSeen) {
          rootSeen = true;
          kind = local === 'urlset' ? 'urlset' : local === 'sitemapindex' ? 'index' : null;
          // Every scanned page passes through here first: an HTML page is given up at its root element.
          if (kind === null) parser.pause();
        }
        stack.push(local);
        const entry = kind === 'urlset' ? 'url' : 'sitemap';
        if (kind !== null && local === 'loc' && stack.length === 3 && stack[1] === entry) loc = '';
      },
      ontext(data) {
        if (loc !== null && loc.length < 8192) loc += data;
      },
      onclosetag(_name, isImplied) {
        stack.pop();
        if (loc === null) return;
        const value = loc.trim();
        loc = null;
        if (!isImplied && value !== '' && urls.length < maxUrls) urls.push(value);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  // A BOM before the XML declaration would otherwise be text ahead of the root.
  parser.end(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return kind === null ? null : { kind, urls };
}
