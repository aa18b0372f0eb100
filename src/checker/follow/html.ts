// Page reading without a DOM: one linear pass over the HTML collects what the follower needs (title,
// <base>, the first refresh <meta>, inline scripts, JSON-LD, microdata availability). Linear scans
// only — pages are attacker-controlled, so no backtracking-prone patterns over the whole document.
import { decodeEntities } from './html-entities.js';

export interface HtmlScan {
  title: string | null;
  baseHref: string | null;
  /** The content attribute of the first `<meta http-equiv="refresh">`. */
  metaRefresh: string | null;
  /** Inline classic scripts and `<body onload>` handlers, in document order. */
  inlineScripts: string[];
  jsonLd: string[];
  /** Values of `itemprop="availability"` (content, href, or the element's text). */
  microdataAvailability: string[];
}

type Attributes = Map<string, string>;

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f']);
// Elements whose content is not markup for a scripting-enabled browser.
const RAW_TEXT = new Set(['style', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'template', 'plaintext']);
const JS_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'module',
  'text/ecmascript',
  'application/ecmascript',
  'application/x-javascript',
]);
const MAX_TITLE = 500;

const closers = new Map<string, RegExp>();
function closingTagIndex(html: string, name: string, from: number): { start: number; end: number } {
  let re = closers.get(name);
  if (re === undefined) {
    re = new RegExp(`</${name}[\\s/>]`, 'gi');
    closers.set(name, re);
  }
  re.lastIndex = from;
  const match = re.exec(html);
  if (match === null) return { start: html.length, end: html.length };
  const gt = html.indexOf('>', match.index);
  return { start: match.index, end: gt < 0 ? html.length : gt + 1 };
}

function skipWhitespace(html: string, pos: number): number {
  let p = pos;
  while (p < html.length && WHITESPACE.has(html[p] ?? '')) p += 1;
  return p;
}

/** Parses attributes from `pos` (just after the tag name) to the closing `>`. */
export function parseAttributes(html: string, pos: number): { attrs: Attributes; end: number } {
  const attrs: Attributes = new Map();
  let p = pos;
  for (;;) {
    while (p < html.length && (WHITESPACE.has(html[p] ?? '') || html[p] === '/')) p += 1;
    if (p >= html.length) return { attrs, end: html.length };
    if (html[p] === '>') return { attrs, end: p + 1 };
    const nameStart = p;
    p += 1; // the first character may be '=' (a parse error browsers keep as a name)
    while (p < html.length && !WHITESPACE.has(html[p] ?? '') && html[p] !== '/' && html[p] !== '>' && html[p] !== '=') p += 1;
    const name = html.slice(nameStart, p).toLowerCase();
    p = skipWhitespace(html, p);
    let value = '';
    if (html[p] === '=') {
      p = skipWhitespace(html, p + 1);
      const quote = html[p];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, p + 1);
        const stop = close < 0 ? html.length : close;
        value = html.slice(p + 1, stop);
        p = stop + 1;
      } else {
        const valueStart = p;
        while (p < html.length && !WHITESPACE.has(html[p] ?? '') && html[p] !== '>') p += 1;
        value = html.slice(valueStart, p);
      }
    }
    if (!attrs.has(name)) attrs.set(name, decodeEntities(value, true));
  }
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

function hasToken(value: string | undefined, token: string): boolean {
  return value !== undefined && value.toLowerCase().split(/\s+/).includes(token);
}

/** Scans an HTML document once. */
export function scanHtml(html: string): HtmlScan {
  const scan: HtmlScan = { title: null, baseHref: null, metaRefresh: null, inlineScripts: [], jsonLd: [], microdataAvailability: [] };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const next = html[lt + 1] ?? '';
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (next === '!' || next === '?' || next === '/') {
      const gt = html.indexOf('>', lt + 1);
      i = gt < 0 ? html.length : gt + 1;
      continue;
    }
    if (!/[a-zA-Z]/.test(next)) {
      i = lt + 1;
      continue;
    }
    let p = lt + 1;
    while (p < html.length && !WHITESPACE.has(html[p] ?? '') && html[p] !== '/' && html[p] !== '>') p += 1;
    const name = html.slice(lt + 1, p).toLowerCase();
    const { attrs, end } = parseAttributes(html, p);
    i = end;
    if (name === 'script') {
      const close = closingTagIndex(html, 'script', end);
      const content = html.slice(end, close.start);
      i = close.end;
      const type = (attrs.get('type') ?? '').trim().toLowerCase();
      if (type === 'application/ld+json') scan.jsonLd.push(content);
      else if (!attrs.has('src') && JS_TYPES.has(type)) scan.inlineScripts.push(content);
      continue;
    }
    if (name === 'title') {
      const close = closingTagIndex(html, 'title', end);
      if (scan.title === null) {
        const text = collapse(decodeEntities(html.slice(end, close.start), false));
        if (text !== '') scan.title = text.slice(0, MAX_TITLE);
      }
      i = close.end;
      continue;
    }
    if (RAW_TEXT.has(name)) {
      i = closingTagIndex(html, name, end).end;
      continue;
    }
    readElement(scan, name, attrs, html, end);
  }
  return scan;
}

function readElement(scan: HtmlScan, name: string, attrs: Attributes, html: string, end: number): void {
  if (name === 'meta' && scan.metaRefresh === null && (attrs.get('http-equiv') ?? '').trim().toLowerCase() === 'refresh') {
    const content = attrs.get('content');
    if (content !== undefined) scan.metaRefresh = content;
  }
  if (name === 'base' && scan.baseHref === null && attrs.has('href')) scan.baseHref = attrs.get('href') ?? null;
  if (name === 'body' && attrs.has('onload')) scan.inlineScripts.push(attrs.get('onload') ?? '');
  if (hasToken(attrs.get('itemprop'), 'availability')) {
    const explicit = attrs.get('content') ?? attrs.get('href');
    if (explicit !== undefined) {
      scan.microdataAvailability.push(explicit);
    } else {
      const textEnd = html.indexOf('<', end);
      scan.microdataAvailability.push(collapse(decodeEntities(html.slice(end, textEnd < 0 ? html.length : textEnd), false)));
    }
  }
}

/** A parsed refresh instruction (meta tag or Refresh header). */
export interface RefreshInstruction {
  delaySeconds: number;
  /** The target as written, null for "reload this page". */
  url: string | null;
}

/** Parses a refresh value ("5; url='/next'") following the HTML spec's declarative refresh steps. */
export function parseRefresh(content: string): RefreshInstruction | null {
  let p = skipWhitespace(content, 0);
  const digitsStart = p;
  while (p < content.length && /[0-9]/.test(content[p] ?? '')) p += 1;
  const digits = content.slice(digitsStart, p);
  if (digits === '' && content[p] !== '.') return null;
  const delaySeconds = digits === '' ? 0 : Number.parseInt(digits, 10);
  while (p < content.length && /[0-9.]/.test(content[p] ?? '')) p += 1;
  if (p >= content.length) return { delaySeconds, url: null };
  const sep = content[p] ?? '';
  if (sep !== ';' && sep !== ',' && !WHITESPACE.has(sep)) return null;
  p = skipWhitespace(content, p);
  if (content[p] === ';' || content[p] === ',') p = skipWhitespace(content, p + 1);
  let rest = content.slice(p);
  const prefix = /^url\s*=\s*/i.exec(rest);
  if (prefix !== null) rest = rest.slice(prefix[0].length);
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    rest = rest.slice(1);
    const close = rest.indexOf(quote);
    if (close >= 0) rest = rest.slice(0, close);
  }
  const url = rest.trim();
  return { delaySeconds, url: url === '' ? null : url };
}
