// Literal JavaScript redirects (`location.href = "…"`, `location.replace('…')`, …) read from inline
// scripts without running them. A navigation we cannot resolve literally is reported so the chain can
// be handed to a real browser.
import { pairBraces, runsOnLoad } from './js-context.js';

export interface ScriptRedirects {
  /** Literal targets in source order, as written (unresolved). */
  literals: string[];
  /** The scripts navigate in a way that needs execution (computed URL, form submit, location.search…). */
  nonLiteral: boolean;
}

const GLOBAL_OBJECTS = new Set(['window', 'self', 'top', 'parent', 'document', 'globalThis', 'frames']);
const IDENT = /[A-Za-z0-9_$]/;
const REGEX_PRECEDERS = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '']);

/** Replaces comments with spaces, keeping strings, template literals and regex literals intact. */
export function stripJsComments(src: string): string {
  let out = '';
  let i = 0;
  let lastSignificant = '';
  while (i < src.length) {
    const c = src[i] ?? '';
    const n = src[i + 1] ?? '';
    if (c === '/' && n === '/') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      out += ' ';
      continue;
    }
    if (c === '/' && n === '*') {
      const close = src.indexOf('*/', i + 2);
      i = close < 0 ? src.length : close + 2;
      out += ' ';
      continue;
    }
    if (c === '"' || c === "'" || c === '`' || (c === '/' && REGEX_PRECEDERS.has(lastSignificant))) {
      const end = skipQuoted(src, i, c);
      out += src.slice(i, end);
      i = end;
      lastSignificant = c === '/' ? 'a' : c;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) lastSignificant = c;
    i += 1;
  }
  return out;
}

/** Index just past the string/template/regex literal starting at `start`. */
function skipQuoted(src: string, start: number, quote: string): number {
  let i = start + 1;
  let inClass = false;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (quote === '/') {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) return i + 1;
      else if (c === '\n') return i; // not a regex after all
    } else if (c === quote) {
      return i + 1;
    } else if (c === '\n' && quote !== '`') {
      return i;
    }
    i += 1;
  }
  return src.length;
}

/** Reads a JS string literal at `start`; null when it is not a plain literal (e.g. `${}` inside). */
export function readStringLiteral(src: string, start: number): { value: string; end: number } | null {
  const quote = src[start];
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  let value = '';
  let i = start + 1;
  while (i < src.length) {
    const c = src[i] ?? '';
    if (c === quote) return { value, end: i + 1 };
    if (c === '\n' && quote !== '`') return null;
    if (quote === '`' && c === '$' && src[i + 1] === '{') return null;
    if (c !== '\\') {
      value += c;
      i += 1;
      continue;
    }
    const e = src[i + 1] ?? '';
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
    if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(src.slice(i + 2, i + 4))) {
      value += String.fromCharCode(Number.parseInt(src.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (e === 'u' && src[i + 2] === '{') {
      const close = src.indexOf('}', i + 3);
      const code = Number.parseInt(src.slice(i + 3, close), 16);
      if (close < 0 || !Number.isFinite(code) || code > 0x10ffff) return null;
      value += String.fromCodePoint(code);
      i = close + 1;
    } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
      value += String.fromCharCode(Number.parseInt(src.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (e === '\r' || e === '\n') {
      i += e === '\r' && src[i + 2] === '\n' ? 3 : 2; // line continuation
    } else {
      value += simple[e] ?? e;
      i += 2;
    }
  }
  return null;
}

function skipSpace(src: string, pos: number): number {
  let p = pos;
  while (p < src.length && /\s/.test(src[p] ?? '')) p += 1;
  return p;
}

/** True when `location` at `index` is the page's own location object (not `obj.location`). */
function isPageLocation(src: string, index: number): boolean {
  if (index > 0 && IDENT.test(src[index - 1] ?? '')) return false;
  let p = index - 1;
  while (p >= 0 && /\s/.test(src[p] ?? '')) p -= 1;
  if (src[p] !== '.') return true;
  // Walk back over a chain like `window.top.` — every link must be a global object.
  p -= 1;
  while (p >= 0 && /\s/.test(src[p] ?? '')) p -= 1;
  const end = p + 1;
  while (p >= 0 && IDENT.test(src[p] ?? '')) p -= 1;
  const owner = src.slice(p + 1, end);
  if (!GLOBAL_OBJECTS.has(owner)) return false;
  return isPageLocation(src, p + 1);
}

/** After a literal: the statement/argument must end here for the literal to be the whole value. */
function endsExpression(src: string, pos: number, inCall: boolean): boolean {
  const p = skipSpace(src, pos);
  const c = src[p];
  if (c === undefined) return true;
  if (inCall) return c === ')' || c === ',';
  return c === ';' || c === ',' || c === '}' || c === ')' || (p > pos && /[\n\r]/.test(src.slice(pos, p)) && !/[+.?[(&|]/.test(c));
}

type Sink = { kind: 'literal'; value: string } | { kind: 'computed' } | null;

function readSink(src: string, afterLocation: number): Sink {
  let p = skipSpace(src, afterLocation);
  let property = '';
  if (src[p] === '.') {
    const start = skipSpace(src, p + 1);
    let q = start;
    while (q < src.length && IDENT.test(src[q] ?? '')) q += 1;
    property = src.slice(start, q);
    p = skipSpace(src, q);
  } else if (src[p] === '[') {
    const key = readStringLiteral(src, skipSpace(src, p + 1));
    if (key === null) return null;
    property = key.value;
    p = skipSpace(src, key.end);
    if (src[p] !== ']') return null;
    p = skipSpace(src, p + 1);
  }
  if ((property === 'replace' || property === 'assign') && src[p] === '(') {
    const arg = skipSpace(src, p + 1);
    const literal = readStringLiteral(src, arg);
    return literal !== null && endsExpression(src, literal.end, true) ? { kind: 'literal', value: literal.value } : { kind: 'computed' };
  }
  const isAssignment = src[p] === '=' && src[p + 1] !== '=';
  if (!isAssignment) return null;
  if (property === '' || property === 'href') {
    const literal = readStringLiteral(src, skipSpace(src, p + 1));
    return literal !== null && endsExpression(src, literal.end, false) ? { kind: 'literal', value: literal.value } : { kind: 'computed' };
  }
  // location.search = …, location.pathname = … navigate too; location.hash only scrolls.
  return ['search', 'pathname', 'host', 'hostname', 'port', 'protocol'].includes(property) ? { kind: 'computed' } : null;
}

const FORM_OR_WINDOW_NAVIGATION = /\.submit\s*\(\s*\)|\bwindow\.open\s*\([^)]*['"]_(?:self|top)['"]|\bwindow\.navigate\s*\(/g;

/**
 * Finds the navigations in a page's inline scripts that run as the page loads (handlers for clicks
 * and the like are ignored: a shopper's click is not part of the chain).
 */
export function findScriptRedirects(scripts: string[]): ScriptRedirects {
  const result: ScriptRedirects = { literals: [], nonLiteral: false };
  const stripped = scripts.map(stripJsComments);
  const separator = '\n;\n';
  const allSource = stripped.join(separator);
  let offset = 0;
  for (const src of stripped) {
    const braces = pairBraces(src);
    const re = /location\b/g;
    for (let m = re.exec(src); m !== null; m = re.exec(src)) {
      if (!isPageLocation(src, m.index)) continue;
      const sink = readSink(src, m.index + 'location'.length);
      if (sink === null || !runsOnLoad(src, m.index, braces, allSource, offset)) continue;
      if (sink.kind === 'literal') result.literals.push(sink.value);
      else result.nonLiteral = true;
    }
    // Auto-submitting forms and window.open(…, '_self') navigate without touching location.
    FORM_OR_WINDOW_NAVIGATION.lastIndex = 0;
    for (let m = FORM_OR_WINDOW_NAVIGATION.exec(src); m !== null; m = FORM_OR_WINDOW_NAVIGATION.exec(src)) {
      if (runsOnLoad(src, m.index, braces, allSource, offset)) result.nonLiteral = true;
    }
    offset += src.length + separator.length;
  }
  return result;
}
