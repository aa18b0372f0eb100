// Finds tracking-template placeholders that were never filled in (`{clickid}`, `[CLICK_ID]`, `#clickid#`,
// `^^^siteid^^^`, `$CLICKID$`, `%DCI%`). Only parameter values, path segments and the fragment are scanned —
// never parameter names, where brackets are ordinary (`filter[color]=red`, `ids[]=1`). Delimiter styles that
// also occur in ordinary URLs (square brackets, percent signs) need a placeholder-like name to count.
import { parseUrl, safeDecode } from './url-facts.js';

export interface MacroHit {
  /** The placeholder as it travels, decoded (`{clickid}`), or raw for percent-delimited ones (`%DCI%`). */
  token: string;
  /** The query parameter that carries it, null for the path or fragment. */
  param: string | null;
}

const NAME = '[A-Za-z_][A-Za-z0-9_]{0,40}';
const CURLY = new RegExp(`\\{\\{?\\s*[A-Za-z_][A-Za-z0-9_.-]{0,63}\\s*\\}\\}?`, 'g');
const CARET = new RegExp(`\\^{2,3}${NAME}\\^{2,3}`, 'g');
const DOLLAR = new RegExp(`\\$[A-Za-z_][A-Za-z0-9_]{1,40}\\$`, 'g');
const HASHED = new RegExp(`#[A-Za-z_][A-Za-z0-9_]{1,40}#`, 'g');
const SQUARE = new RegExp(`\\[(${NAME})\\]`, 'g');
// A rejected candidate such as `%C3%` must not hide a following `%A9CLICK_ID%`, so lastIndex is reset by hand.
const PERCENT = new RegExp(`%%?(${NAME})%`, 'g');

// Names that tracking templates use for their placeholders (compared lowercased, `_`/`-` removed).
const PLACEHOLDER_NAME = new RegExp(
  '^(?:click(?:id|ref)?|clid|dci|sub(?:id)?\\d*|aff(?:iliate)?(?:id|sub\\d*)|transaction(?:id)?|t?id|' +
    'source(?:id)?|site(?:id)?|pub(?:lisher)?id|partner(?:id)?|campaign(?:id)?|offer(?:id)?|ad(?:group)?id|' +
    'creative(?:id)?|gclid|fbclid|msclkid|ttclid|irclickid|timestamp|random|cachebuster|u(?:ser)?id|' +
    'device(?:id)?|ip|keyword|placement|network|zone(?:id)?|lpurl|url|referr?er|[pasc]id)$',
);

function isPlaceholderName(name: string): boolean {
  if (PLACEHOLDER_NAME.test(name.toLowerCase().replace(/[_-]/g, ''))) return true;
  // Upper-case names shaped like identifiers (`[AFF_SUB]`, `%PUBLISHERREF_ID%`), not words like `[COLOR]`.
  return name === name.toUpperCase() && /[A-Z]/.test(name) && (name.includes('_') || /ID$/.test(name));
}

function collect(pattern: RegExp, text: string, accept: (match: RegExpExecArray) => boolean): string[] {
  const found: string[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const accepted = accept(match);
    if (accepted) found.push(match[0]);
    // After a hit, go past it (no `{sub}}` inside `{{sub}}`); after a miss, retry from the next character.
    pattern.lastIndex = accepted ? match.index + match[0].length : match.index + 1;
  }
  return found;
}

/** Placeholders in already-decoded text. */
function scanDecoded(text: string): string[] {
  return [
    ...collect(CURLY, text, () => true),
    ...collect(CARET, text, () => true),
    ...collect(DOLLAR, text, () => true),
    ...collect(HASHED, text, () => true),
    ...collect(SQUARE, text, (m) => isPlaceholderName(m[1] ?? '')),
  ];
}

/** Placeholders in raw (still percent-encoded) text: `%NAME%` is destroyed by decoding. */
function scanRaw(text: string): string[] {
  return collect(PERCENT, text, (m) => isPlaceholderName(m[1] ?? ''));
}

function scanPart(raw: string): string[] {
  const once = safeDecode(raw);
  const twice = safeDecode(once);
  return [...scanRaw(raw), ...scanDecoded(once), ...(twice === once ? [] : scanDecoded(twice))];
}

/** Whether a (decoded or raw) parameter value is, or contains, an unfilled placeholder. */
export function containsMacro(value: string): boolean {
  return scanPart(value).length > 0;
}

/** Unfilled placeholders travelling in a URL, each token once. */
export function findMacros(rawUrl: string): MacroHit[] {
  const url = parseUrl(rawUrl);
  if (url === null) return [];
  const hits = new Map<string, MacroHit>();
  const add = (tokens: string[], param: string | null): void => {
    for (const token of tokens) if (!hits.has(token)) hits.set(token, { token, param });
  };
  for (const segment of url.pathname.split('/')) add(scanPart(segment), null);
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = safeDecode(pair.slice(0, eq).replace(/\+/g, ' '));
    add(scanPart(pair.slice(eq + 1).replace(/\+/g, ' ')), name);
  }
  // A raw `?sub=#clickid#` puts the placeholder at the start of the fragment.
  if (url.hash.length > 1) add(scanPart(url.hash), null);
  return [...hits.values()];
}
