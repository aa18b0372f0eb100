// Just enough JavaScript lexing for reading inline scripts: comments, string/template/regex literals.
// A `/` starts a regex literal when the previous significant character cannot end an expression
// (the classic heuristic); good enough for redirect snippets, not a parser.

const REGEX_PRECEDERS = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '']);

/** Whether a `/` after `lastSignificant` starts a regex literal. */
export function startsRegex(lastSignificant: string): boolean {
  return REGEX_PRECEDERS.has(lastSignificant);
}

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
export function skipQuoted(src: string, start: number, quote: string): number {
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

/** Blanks the inside of string, template and regex literals (same length, quotes kept). */
export function maskLiterals(src: string): string {
  let out = '';
  let i = 0;
  let lastSignificant = '';
  while (i < src.length) {
    const c = src[i] ?? '';
    if (c === '"' || c === "'" || c === '`' || (c === '/' && REGEX_PRECEDERS.has(lastSignificant))) {
      const end = skipQuoted(src, i, c);
      out += c + ' '.repeat(Math.max(0, end - i - 2)) + (end - i >= 2 ? (src[end - 1] ?? '') : '');
      i = end;
      lastSignificant = 'a';
      continue;
    }
    out += c;
    if (!/\s/.test(c)) lastSignificant = c;
    i += 1;
  }
  return out;
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
