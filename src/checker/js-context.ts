// Does a statement in an inline script run when the page loads? A merchant page is full of
// `location.href = '/cart'` inside click handlers; following those would invent a redirect. Only code
// at top level, in blocks, or in functions that run on load (IIFEs, setTimeout, load/ready handlers,
// declared functions that are called) counts. A heuristic over comment-free source, not a parser.
import { skipQuoted, startsRegex } from './js-literals.js';

const IDENT = /[A-Za-z0-9_$]/;
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);

interface Brace {
  open: number;
  close: number;
}

type BraceKind = { kind: 'block' } | { kind: 'function'; start: number; name: string | null; nameAt: number; method: boolean };

/** Pairs every `{` with its `}`, skipping strings, template literals and regex literals. */
export function pairBraces(src: string): Brace[] {
  const pairs: Brace[] = [];
  const stack: number[] = [];
  let lastSignificant = '';
  for (let i = 0; i < src.length; i += 1) {
    const c = src[i] ?? '';
    if (c === '"' || c === "'" || c === '`' || (c === '/' && startsRegex(lastSignificant))) {
      i = skipQuoted(src, i, c) - 1;
      lastSignificant = 'a';
      continue;
    }
    if (c === '{') stack.push(i);
    else if (c === '}') {
      const open = stack.pop();
      if (open !== undefined) pairs.push({ open, close: i });
    }
    if (!/\s/.test(c)) lastSignificant = c;
  }
  for (const open of stack) pairs.push({ open, close: src.length });
  return pairs;
}

function prevSignificant(src: string, pos: number): number {
  let p = pos - 1;
  while (p >= 0 && /\s/.test(src[p] ?? '')) p -= 1;
  return p;
}

function wordBefore(src: string, pos: number): { word: string; start: number } {
  const end = prevSignificant(src, pos) + 1;
  let start = end;
  while (start > 0 && IDENT.test(src[start - 1] ?? '')) start -= 1;
  return { word: src.slice(start, end), start };
}

function matchOpenParen(src: string, close: number): number {
  let depth = 0;
  for (let p = close; p >= 0; p -= 1) {
    if (src[p] === ')') depth += 1;
    else if (src[p] === '(') {
      depth -= 1;
      if (depth === 0) return p;
    }
  }
  return 0;
}

/** The arrow function whose `=>` ends at `gt`, starting at its parameters (or `async`). */
function arrowFunction(src: string, gt: number): Extract<BraceKind, { kind: 'function' }> {
  const q = prevSignificant(src, gt - 1);
  const start = src[q] === ')' ? matchOpenParen(src, q) : wordBefore(src, q + 1).start;
  const asyncWord = wordBefore(src, start);
  return { kind: 'function', start: asyncWord.word === 'async' ? asyncWord.start : start, name: null, nameAt: -1, method: false };
}

/**
 * An expression-bodied arrow (`() => location.href = …`) has no braces: walk back through the
 * statement (in literal-blanked `code`) for a `=>` that is not inside a closed group.
 */
function enclosingArrow(src: string, code: string, index: number): Extract<BraceKind, { kind: 'function' }> | null {
  let depth = 0;
  for (let p = index - 1; p > 0; p -= 1) {
    const c = code[p];
    if (c === ';' || c === '{' || c === '}') return null;
    if (c === ')' || c === ']') depth += 1;
    else if (c === '(' || c === '[') depth -= 1;
    else if (c === '>' && code[p - 1] === '=' && depth <= 0) return arrowFunction(src, p);
  }
  return null;
}

function classifyBrace(src: string, open: number): BraceKind {
  const p = prevSignificant(src, open);
  if (p < 0) return { kind: 'block' };
  if (src[p] === '>' && src[p - 1] === '=') return arrowFunction(src, p);
  if (src[p] === ')') {
    const paren = matchOpenParen(src, p);
    const w = wordBefore(src, paren);
    if (CONTROL.has(w.word)) return { kind: 'block' };
    if (w.word === 'function') return { kind: 'function', start: w.start, name: null, nameAt: -1, method: false };
    const kw = wordBefore(src, w.start);
    if (kw.word === 'function') return { kind: 'function', start: kw.start, name: w.word, nameAt: w.start, method: false };
    return { kind: 'function', start: w.start, name: w.word, nameAt: w.start, method: true };
  }
  return { kind: 'block' };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const RUN_ON_LOAD_CALLEE = /(?:\bsetTimeout|\bsetInterval|\brequestAnimationFrame|\bqueueMicrotask|\$|\bjQuery|\.ready|\.then)\s*\(\s*$/;
const LOAD_LISTENER = /addEventListener\s*\(\s*['"](?:load|DOMContentLoaded|pageshow|readystatechange)['"]\s*,\s*$/;
const ONLOAD_ASSIGN = /\bon(?:load|readystatechange|pageshow)\s*=\s*$/;
// A function in grouping parentheses or after a unary operator is an IIFE: `(function(){…})()`, `!function(){…}()`.
const IIFE = /(?:^|[^A-Za-z0-9_$\s)\]])\s*\(\s*$|(?:^|[^A-Za-z0-9_$])[!~+-]\s*$|\bvoid\s*$/;
const NAMED_BY_ASSIGNMENT = /(?:\b(?:var|let|const)\s+)?([A-Za-z_$][\w$]*)\s*=\s*$/;

function isCalled(name: string, allSource: string, declaredAt: number): boolean {
  const n = escapeRegExp(name);
  const call = new RegExp(`(?<![.\\w$])${n}\\s*\\(`, 'g');
  for (let m = call.exec(allSource); m !== null; m = call.exec(allSource)) {
    if (m.index !== declaredAt) return true;
  }
  const passed = `(?:setTimeout|setInterval|requestAnimationFrame|on(?:load|pageshow)\\s*=|addEventListener\\s*\\(\\s*['"](?:load|DOMContentLoaded|pageshow)['"]\\s*,)\\s*\\(?\\s*${n}\\b`;
  return new RegExp(passed).test(allSource);
}

function functionRunsOnLoad(src: string, fn: Extract<BraceKind, { kind: 'function' }>, allSource: string, offset: number): boolean {
  if (fn.method) return false;
  const before = src.slice(Math.max(0, fn.start - 200), fn.start);
  if (RUN_ON_LOAD_CALLEE.test(before) || LOAD_LISTENER.test(before) || ONLOAD_ASSIGN.test(before) || IIFE.test(before)) return true;
  const name = fn.name ?? NAMED_BY_ASSIGNMENT.exec(before)?.[1] ?? null;
  return name !== null && isCalled(name, allSource, fn.nameAt < 0 ? -1 : offset + fn.nameAt);
}

/** Where a script's code is: the comment-free source, the same with literals blanked, its braces. */
export interface ScriptSource {
  src: string;
  code: string;
  braces: Brace[];
  /** Every inline script of the page joined (a function may be called from another script). */
  allSource: string;
  /** Where `src` starts in `allSource`. */
  offset: number;
}

/** True when the code at `index` runs as the page loads. */
export function runsOnLoad(script: ScriptSource, index: number): boolean {
  const { src, code, braces, allSource, offset } = script;
  const arrow = enclosingArrow(src, code, index);
  if (arrow !== null && !functionRunsOnLoad(src, arrow, allSource, offset)) return false;
  for (const brace of braces) {
    if (!(brace.open < index && index < brace.close)) continue;
    const kind = classifyBrace(src, brace.open);
    if (kind.kind === 'function' && !functionRunsOnLoad(src, kind, allSource, offset)) return false;
  }
  return true;
}
