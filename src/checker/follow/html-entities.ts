// Character references in titles and attribute values. Only the entities that matter for URLs and
// page titles are named; anything unknown is left as written (what a human would read anyway).

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  euro: '\u20ac',
  pound: '\u00a3',
  middot: '\u00b7',
  bull: '\u2022',
  eacute: '\u00e9',
  egrave: '\u00e8',
  agrave: '\u00e0',
  ccedil: '\u00e7',
  uuml: '\u00fc',
  ouml: '\u00f6',
  auml: '\u00e4',
  szlig: '\u00df',
  sol: '/',
  colon: ':',
  equals: '=',
  quest: '?',
  num: '#',
  percnt: '%',
  period: '.',
  lowbar: '_',
  plus: '+',
  comma: ',',
  semi: ';',
};
// Entities browsers still decode without the semicolon (legacy); in attributes only when not
// followed by a letter, digit or "=", so "?a=1&copy=2" keeps its "&copy".
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg']);

function fromCodePoint(code: number): string {
  if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

export function decodeEntities(text: string, inAttribute: boolean): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,8}|[a-zA-Z][a-zA-Z0-9]{0,31})(;?)/g,
    (whole, body: string, semi: string, offset: number) => {
      if (body.startsWith('#')) {
        const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
        return fromCodePoint(code);
      }
      const named = NAMED[body];
      if (named === undefined) return whole;
      if (semi === ';') return named;
      if (!LEGACY.has(body)) return whole;
      const after = text[offset + whole.length] ?? '';
      if (inAttribute && /[a-zA-Z0-9=]/.test(after)) return whole;
      return named;
    },
  );
}
