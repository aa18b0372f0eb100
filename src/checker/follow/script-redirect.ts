// Literal JavaScript redirects (`location.href = "…"`, `location.replace('…')`, …) read from inline
// scripts without running them. A navigation we cannot resolve literally is reported so the chain can
// be handed to a real browser — so is a page too large or too convoluted to read within the budgets below.
import { describeScript, indexCalls, OnLoadSweep } from './js-context.js';
import { maskLiterals, readStringLiteral, stripJsComments } from './js-literals.js';

export { readStringLiteral, stripJsComments } from './js-literals.js';

export interface ScriptRedirects {
  /** Literal targets in source order, as written (unresolved). */
  literals: string[];
  /** The scripts navigate in a way that needs execution (computed URL, form submit, location.search…). */
  nonLiteral: boolean;
}

const GLOBAL_OBJECTS = new Set(['window', 'self', 'top', 'parent', 'document', 'globalThis', 'frames']);
const IDENT = /[A-Za-z0-9_$]/;
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

// Bounded repetitions: an unbounded `[^)]*` would rescan the rest of a page from every `window.open(`.
const FORM_OR_WINDOW_NAVIGATION = /\.submit\s*\(\s*\)|\bwindow\.open\s*\([^)]{0,500}['"]_(?:self|top)['"]|\bwindow\.navigate\s*\(/g;

/** Navigation candidates (`location` or form/window navigations) read per page; more means "use a browser". */
export const MAX_NAVIGATION_CANDIDATES = 5_000;

/**
 * Finds the navigations in a page's inline scripts that run as the page loads (handlers for clicks
 * and the like are ignored: a shopper's click is not part of the chain).
 */
export function findScriptRedirects(scripts: string[]): ScriptRedirects {
  const result: ScriptRedirects = { literals: [], nonLiteral: false };
  const stripped = scripts.map(stripJsComments);
  const separator = '\n;\n';
  const calls = indexCalls(stripped.join(separator));
  let candidates = 0;
  /** Counts a candidate; past the budget the page is left to the browser. */
  const overBudget = (): boolean => {
    candidates += 1;
    if (candidates <= MAX_NAVIGATION_CANDIDATES) return false;
    result.nonLiteral = true;
    return true;
  };
  let offset = 0;
  for (const src of stripped) {
    // Search the code with literals blanked (a "location.href=" inside a string is not code), read
    // the values from the original: both have the same length.
    const code = maskLiterals(src);
    const script = describeScript(src, code, calls, offset);
    const locations = new OnLoadSweep(script);
    const re = /location\b/g;
    for (let m = re.exec(code); m !== null; m = re.exec(code)) {
      if (!isPageLocation(src, m.index)) continue;
      const sink = readSink(src, m.index + 'location'.length);
      if (sink === null) continue;
      if (overBudget()) return result;
      const runs = locations.runsOnLoad(m.index);
      if (runs === 'unknown') result.nonLiteral = true;
      else if (!runs) continue;
      else if (sink.kind === 'literal') result.literals.push(sink.value);
      else result.nonLiteral = true;
    }
    // Auto-submitting forms and window.open(…, '_self') navigate without touching location.
    const others = new OnLoadSweep(script);
    FORM_OR_WINDOW_NAVIGATION.lastIndex = 0;
    for (let m = FORM_OR_WINDOW_NAVIGATION.exec(src); m !== null; m = FORM_OR_WINDOW_NAVIGATION.exec(src)) {
      const inLiteral = code[m.index] !== src[m.index];
      if (inLiteral) continue;
      if (overBudget()) return result;
      if (others.runsOnLoad(m.index) !== false) result.nonLiteral = true;
    }
    offset += src.length + separator.length;
  }
  return result;
}
