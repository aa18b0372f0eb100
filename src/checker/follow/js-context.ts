// Does a statement in an inline script run when the page loads? A merchant page is full of
// `location.href = '/cart'` inside click handlers; following those would invent a redirect. Only code
// at top level, in blocks, or in functions that run on load (IIFEs, setTimeout, load/ready handlers,
// declared functions that are called) counts. A heuristic over comment-free source, not a parser.
//
// Pages are attacker-controlled: everything here is linear in the page's size. Brackets, parentheses and
// call sites are indexed once per page, the statements are visited in source order with a stack of the
// braces around them (each brace judged once), and the few backward walks have a budget. A page that
// exhausts a budget is not guessed at: the caller hands it to a real browser.
import { skipQuoted, startsRegex } from './js-literals.js';

const IDENT = /[A-Za-z0-9_$]/;
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
/** How far back an expression-bodied arrow is looked for (characters of one statement). */
const ARROW_WALK_LIMIT = 4096;

interface Pair {
  open: number;
  close: number;
}

type BraceKind = { kind: 'block' } | { kind: 'function'; start: number; name: string | null; nameAt: number; method: boolean };

/** Pairs every `open` with its `close` (braces or parentheses), skipping strings, template literals and regexes. */
function pairBrackets(src: string, openChar: string, closeChar: string): Pair[] {
  const pairs: Pair[] = [];
  const stack: number[] = [];
  let lastSignificant = '';
  for (let i = 0; i < src.length; i += 1) {
    const c = src[i] ?? '';
    if (c === '"' || c === "'" || c === '`' || (c === '/' && startsRegex(lastSignificant))) {
      i = skipQuoted(src, i, c) - 1;
      lastSignificant = 'a';
      continue;
    }
    if (c === openChar) stack.push(i);
    else if (c === closeChar) {
      const open = stack.pop();
      if (open !== undefined) pairs.push({ open, close: i });
    }
    if (!/\s/.test(c)) lastSignificant = c;
  }
  for (const open of stack) pairs.push({ open, close: src.length });
  return pairs.sort((a, b) => a.open - b.open);
}

/** Pairs every `{` with its `}`, skipping strings, template literals and regex literals; sorted by `open`. */
export function pairBraces(src: string): Pair[] {
  return pairBrackets(src, '{', '}');
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

/**
 * Where every call to a name is written in a page (`name(`, not `obj.name(`), and which names are handed to
 * a timer or a load handler. Built in one pass per page; a function is "called" when a call other than its
 * own declaration exists.
 */
export interface CallIndex {
  calledAt: Map<string, number[]>;
  passed: Set<string>;
}

const CALL = /(?<![.\w$])([A-Za-z_$][\w$]*)\s*\(/g;
const PASSED =
  /(?:setTimeout|setInterval|requestAnimationFrame|on(?:load|pageshow)\s*=|addEventListener\s*\(\s*['"](?:load|DOMContentLoaded|pageshow)['"]\s*,)\s*\(?\s*([A-Za-z_$][\w$]*)/g;

export function indexCalls(allSource: string): CallIndex {
  const calledAt = new Map<string, number[]>();
  for (const m of allSource.matchAll(CALL)) {
    const name = m[1] ?? '';
    const at = calledAt.get(name);
    // Two positions are enough: at most one of them is the declaration itself.
    if (at === undefined) calledAt.set(name, [m.index]);
    else if (at.length < 2) at.push(m.index);
  }
  const passed = new Set<string>();
  for (const m of allSource.matchAll(PASSED)) passed.add(m[1] ?? '');
  return { calledAt, passed };
}

/** Where a script's code is: the comment-free source, the same with literals blanked, its brackets. */
export interface ScriptSource {
  src: string;
  code: string;
  braces: Pair[];
  /** Close → open index of every parenthesis pair. */
  parens: Map<number, number>;
  calls: CallIndex;
  /** Where `src` starts in the page's joined scripts (call positions are page-wide). */
  offset: number;
}

export function describeScript(src: string, code: string, calls: CallIndex, offset: number): ScriptSource {
  const parens = new Map(pairBrackets(src, '(', ')').map((pair) => [pair.close, pair.open]));
  return { src, code, braces: pairBraces(src), parens, calls, offset };
}

/** The arrow function whose `=>` ends at `gt`, starting at its parameters (or `async`). */
function arrowFunction(script: ScriptSource, gt: number): Extract<BraceKind, { kind: 'function' }> {
  const { src } = script;
  const q = prevSignificant(src, gt - 1);
  const start = src[q] === ')' ? (script.parens.get(q) ?? 0) : wordBefore(src, q + 1).start;
  const asyncWord = wordBefore(src, start);
  return { kind: 'function', start: asyncWord.word === 'async' ? asyncWord.start : start, name: null, nameAt: -1, method: false };
}

/**
 * An expression-bodied arrow (`() => location.href = …`) has no braces: walk back through the statement (in
 * literal-blanked `code`) for a `=>` that is not inside a closed group. 'unknown' past the walk's budget.
 */
function enclosingArrow(script: ScriptSource, index: number): Extract<BraceKind, { kind: 'function' }> | null | 'unknown' {
  const { code } = script;
  let depth = 0;
  const stop = Math.max(0, index - ARROW_WALK_LIMIT);
  for (let p = index - 1; p > 0; p -= 1) {
    if (p < stop) return 'unknown';
    const c = code[p];
    if (c === ';' || c === '{' || c === '}') return null;
    if (c === ')' || c === ']') depth += 1;
    else if (c === '(' || c === '[') depth -= 1;
    else if (c === '>' && code[p - 1] === '=' && depth <= 0) return arrowFunction(script, p);
  }
  return null;
}

function classifyBrace(script: ScriptSource, open: number): BraceKind {
  const { src } = script;
  const p = prevSignificant(src, open);
  if (p < 0) return { kind: 'block' };
  if (src[p] === '>' && src[p - 1] === '=') return arrowFunction(script, p);
  if (src[p] === ')') {
    const w = wordBefore(src, script.parens.get(p) ?? 0);
    if (CONTROL.has(w.word)) return { kind: 'block' };
    if (w.word === 'function') return { kind: 'function', start: w.start, name: null, nameAt: -1, method: false };
    const kw = wordBefore(src, w.start);
    if (kw.word === 'function') return { kind: 'function', start: kw.start, name: w.word, nameAt: w.start, method: false };
    return { kind: 'function', start: w.start, name: w.word, nameAt: w.start, method: true };
  }
  return { kind: 'block' };
}

const RUN_ON_LOAD_CALLEE = /(?:\bsetTimeout|\bsetInterval|\brequestAnimationFrame|\bqueueMicrotask|\$|\bjQuery|\.ready|\.then)\s*\(\s*$/;
const LOAD_LISTENER = /addEventListener\s*\(\s*['"](?:load|DOMContentLoaded|pageshow|readystatechange)['"]\s*,\s*$/;
const ONLOAD_ASSIGN = /\bon(?:load|readystatechange|pageshow)\s*=\s*$/;
// A function in grouping parentheses or after a unary operator is an IIFE: `(function(){…})()`, `!function(){…}()`.
const IIFE = /(?:^|[^A-Za-z0-9_$\s)\]])\s*\(\s*$|(?:^|[^A-Za-z0-9_$])[!~+-]\s*$|\bvoid\s*$/;
const NAMED_BY_ASSIGNMENT = /(?:\b(?:var|let|const)\s+)?([A-Za-z_$][\w$]*)\s*=\s*$/;

function isCalled(calls: CallIndex, name: string, declaredAt: number): boolean {
  if ((calls.calledAt.get(name) ?? []).some((at) => at !== declaredAt)) return true;
  return calls.passed.has(name);
}

function functionRunsOnLoad(script: ScriptSource, fn: Extract<BraceKind, { kind: 'function' }>): boolean {
  if (fn.method) return false;
  const before = script.src.slice(Math.max(0, fn.start - 200), fn.start);
  if (RUN_ON_LOAD_CALLEE.test(before) || LOAD_LISTENER.test(before) || ONLOAD_ASSIGN.test(before) || IIFE.test(before)) return true;
  const name = fn.name ?? NAMED_BY_ASSIGNMENT.exec(before)?.[1] ?? null;
  return name !== null && isCalled(script.calls, name, fn.nameAt < 0 ? -1 : script.offset + fn.nameAt);
}

function braceRunsOnLoad(script: ScriptSource, open: number): boolean {
  const kind = classifyBrace(script, open);
  return kind.kind !== 'function' || functionRunsOnLoad(script, kind);
}

/**
 * Answers "does the code at `index` run as the page loads?" for indices visited in increasing order. The braces
 * around the current index are kept on a stack, each with whether it and every brace outside it run on load,
 * so a question costs no more than the braces opened since the previous one.
 */
export class OnLoadSweep {
  private next = 0;
  private readonly stack: Array<{ close: number; runs: boolean }> = [];
  private last = -1;

  constructor(private readonly script: ScriptSource) {}

  /** true / false, or 'unknown' when the statement is too long to judge within the budget. */
  runsOnLoad(index: number): boolean | 'unknown' {
    if (index < this.last) throw new Error('OnLoadSweep: indices must not decrease');
    this.last = index;
    const { braces } = this.script;
    for (; this.next < braces.length && (braces[this.next]?.open ?? Infinity) < index; this.next += 1) {
      const brace = braces[this.next] as Pair; // next < braces.length
      this.popEndedBefore(brace.open);
      const outer = this.stack[this.stack.length - 1]?.runs ?? true;
      this.stack.push({ close: brace.close, runs: outer && braceRunsOnLoad(this.script, brace.open) });
    }
    this.popEndedBefore(index);
    if (this.stack.length > 0 && !(this.stack[this.stack.length - 1]?.runs ?? true)) return false;
    const arrow = enclosingArrow(this.script, index);
    if (arrow === 'unknown') return 'unknown';
    return arrow === null || functionRunsOnLoad(this.script, arrow);
  }

  private popEndedBefore(position: number): void {
    while (this.stack.length > 0 && (this.stack[this.stack.length - 1]?.close ?? Infinity) <= position) this.stack.pop();
  }
}
