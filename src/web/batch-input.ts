// The links of a batch as pasted or uploaded on the batch page: one link per line, or a CSV (a .csv file, or text
// whose first row names a url/link column). Blank lines and lines starting with # are skipped. Each link keeps its
// line number, so the service's "urls[7] is invalid" can be shown as "line 9".
import { detectDelimiter, parseCsv, stripBom, type CsvRecord } from '../csv.js';

export interface LinkList {
  urls: string[];
  /** 1-based line of each link in the text it came from. */
  lines: number[];
}

export class LinkListError extends Error {}

const URL_HEADER = /^(url|urls|link|links|tracking[ _-]?(url|link)|affiliate[ _-]?(url|link)|deep[ _-]?link)$/i;
const LOOKS_LIKE_URL = /^https?:\/\//i;

const isSkipped = (r: CsvRecord) => r.fields.every((f) => f.trim() === '') || (r.fields[0] ?? '').trim().startsWith('#');

function fromCsv(text: string): LinkList {
  const records = parseCsv(text, detectDelimiter(text)).filter((r) => !isSkipped(r));
  const header = records[0];
  let column = header ? header.fields.findIndex((f) => URL_HEADER.test(f.trim())) : -1;
  let rows = records.slice(1);
  if (column < 0) {
    // No named column: the first column holding a link in the first row that has one.
    const firstWithLink = records.findIndex((r) => r.fields.some((f) => LOOKS_LIKE_URL.test(f.trim())));
    const row = records[firstWithLink];
    if (!row) throw new LinkListError('No links found: the CSV needs a column named "url" (or "link"), or cells starting with http:// or https://.');
    column = row.fields.findIndex((f) => LOOKS_LIKE_URL.test(f.trim()));
    rows = records.slice(firstWithLink);
  }
  const out: LinkList = { urls: [], lines: [] };
  for (const r of rows) {
    const url = (r.fields[column] ?? '').trim();
    if (url === '') continue; // spreadsheets leave rows with an empty cell
    out.urls.push(url);
    out.lines.push(r.line);
  }
  return out;
}

function fromLines(text: string): LinkList {
  const out: LinkList = { urls: [], lines: [] };
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const url = raw.trim();
    if (url === '' || url.startsWith('#')) return;
    out.urls.push(url);
    out.lines.push(i + 1);
  });
  return out;
}

function looksLikeCsvWithHeader(text: string): boolean {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  const [first] = parseCsv(firstLine, detectDelimiter(firstLine));
  return first !== undefined && first.fields.length > 1 && first.fields.some((f) => URL_HEADER.test(f.trim()));
}

/** A link list from pasted text or a file's text; `csv` forces CSV (a .csv upload). */
export function parseLinkList(input: string, opts: { csv?: boolean } = {}): LinkList {
  const text = stripBom(input);
  const list = opts.csv || looksLikeCsvWithHeader(text) ? fromCsv(text) : fromLines(text);
  if (list.urls.length === 0) throw new LinkListError('Paste at least one link (one per line), or upload a .csv or .txt file with links.');
  return list;
}

/** The service names links by index (`urls[7]`); people know them by line. */
export function withLineNumbers(message: string, list: LinkList, source: string): string {
  return message
    .replace(/urls\[(\d+)\]/g, (_m, i: string) => `${source} line ${list.lines[Number(i)] ?? Number(i) + 1}`)
    .replace(/\burls is empty/, 'The list is empty');
}
