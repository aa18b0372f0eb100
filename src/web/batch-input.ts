// The links of a batch as pasted or uploaded on the batch page, read by the parser `trackcheck batch` uses too
// (src/lib/link-list.ts): one link per line, or a CSV whose other columns are carried to the results. Each link keeps
// its line number, so the service's "urls[7] is invalid" can be shown as "line 9".
import { inInputTerms, LinkListError, parseLinkTable, type LinkTable } from '../lib/link-list.js';

export { LinkListError };

export interface LinkList {
  urls: string[];
  /** 1-based line of each link in the text it came from. */
  lines: number[];
  /** The CSV's other columns and each link's cells of them (none for a plain list). */
  columns: string[];
  values: string[][];
}

function toLinkList(table: LinkTable): LinkList {
  return {
    urls: table.links.map((l) => l.url),
    lines: table.links.map((l) => l.line),
    columns: table.columns,
    values: table.links.map((l) => l.values),
  };
}

/** A link list from pasted text or a file's text; `csv` forces CSV (a .csv upload). */
export function parseLinkList(input: string, opts: { csv?: boolean } = {}): LinkList {
  let table: LinkTable;
  try {
    table = parseLinkTable(input, opts);
  } catch (err) {
    if (!(err instanceof LinkListError)) throw err;
    throw new LinkListError(`${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`);
  }
  if (table.links.length === 0)
    throw new LinkListError('Paste at least one link (one per line), or upload a .csv or .txt file with links.');
  return toLinkList(table);
}

/** The service names links by index (`urls[7]`, `values[7]`) and columns by position; people know lines and names. */
export function withLineNumbers(message: string, list: LinkList, source: string): string {
  return inInputTerms(message, (i) => `${source} line ${list.lines[i] ?? i + 1}`, list.columns).replace(
    /\burls is empty/,
    'The list is empty',
  );
}
