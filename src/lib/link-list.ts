// The links of a batch as people keep them, read the same way by the batch page (paste or upload) and by
// `trackcheck batch`: one link per line, or a CSV with a link column. A CSV's other columns (campaign,
// placement…) are kept per link, to be appended to the results (services/batch-columns.ts). Blank rows, rows
// whose first cell starts with # and rows with an empty link cell are skipped; every link keeps its line, so an
// error about `urls[7]` can name line 9 of the user's file.
import { detectDelimiter, parseCsv, stripBom, type CsvRecord } from './csv.js';

export interface ListedLink {
  url: string;
  /** 1-based line of the input where the link's row starts. */
  line: number;
  /** The row's cells of `columns`, in their order (trimmed; '' where the row is short). */
  values: string[];
}

export interface LinkTable {
  format: 'lines' | 'csv';
  links: ListedLink[];
  /** The CSV's other columns, by header name (unique, non-blank); empty for a plain list. */
  columns: string[];
}

export interface LinkTableOptions {
  /** Read as CSV even without a recognised header (a .csv file). */
  csv?: boolean;
  /** The link column's header, any case (`trackcheck batch --column`); implies CSV. */
  column?: string;
}

/** The input has no links where it should (a message for people; the caller adds how to fix it). */
export class LinkListError extends Error {
  override name = 'LinkListError';
}

/** Headers recognised as the link column, any case. */
const LINK_HEADER = /^(url|urls|link|links|tracking[ _-]?(url|link)|affiliate[ _-]?(url|link)|deep[ _-]?link)$/i;
const LOOKS_LIKE_URL = /^https?:\/\//i;

const isSkipped = (r: CsvRecord) => r.fields.every((f) => f.trim() === '') || (r.fields[0] ?? '').trim().startsWith('#');
const headerName = (field: string) => field.replace(/\s+/g, ' ').trim();
const listed = (names: string[]) => names.map((n) => `"${n}"`).join(', ') || 'none';

/** The link column and the header row (if any) of a CSV's records. */
function findLinkColumn(
  records: CsvRecord[],
  column: string | undefined,
): { index: number; header: CsvRecord | undefined; rows: CsvRecord[] } {
  const header = records[0];
  const names = (header?.fields ?? []).map(headerName);
  if (column !== undefined) {
    const index = names.findIndex((name) => name.toLowerCase() === column.trim().toLowerCase());
    if (index < 0) throw new LinkListError(`no column "${column}" in the CSV header (columns: ${listed(names)})`);
    return { index, header, rows: records.slice(1) };
  }
  // `url` first (the CLI's only name before it shared this reader), then the other names.
  const exact = names.findIndex((name) => name.toLowerCase() === 'url');
  const named = exact >= 0 ? exact : names.findIndex((name) => LINK_HEADER.test(name));
  if (named >= 0) return { index: named, header, rows: records.slice(1) };
  // No named column: the first cell holding a link in the first row that has one; a row above it is the header.
  const first = records.findIndex((r) => r.fields.some((f) => LOOKS_LIKE_URL.test(f.trim())));
  const row = records[first];
  if (!row) {
    throw new LinkListError(
      `no links found: the CSV has no column named "url" (or "link") (columns: ${listed(names)}), and no cell starts with http:// or https://`,
    );
  }
  return {
    index: row.fields.findIndex((f) => LOOKS_LIKE_URL.test(f.trim())),
    header: first > 0 ? records[first - 1] : undefined,
    rows: records.slice(first),
  };
}

/** The other columns worth keeping: named ones, and unnamed ones that hold something (as `column_<n>`). */
function extraColumns(header: CsvRecord | undefined, linkIndex: number, rows: CsvRecord[]): { index: number; name: string }[] {
  if (header === undefined) return [];
  const used = new Set<string>();
  const out: { index: number; name: string }[] = [];
  header.fields.forEach((field, index) => {
    if (index === linkIndex) return;
    let name = headerName(field);
    if (name === '') {
      if (rows.every((r) => (r.fields[index] ?? '').trim() === '')) return;
      name = `column_${index + 1}`;
    }
    const base = name;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    out.push({ index, name });
  });
  return out;
}

function fromCsv(records: CsvRecord[], column: string | undefined): LinkTable {
  const { index, header, rows } = findLinkColumn(records, column);
  const extras = extraColumns(header, index, rows);
  const links: ListedLink[] = [];
  for (const r of rows) {
    const url = (r.fields[index] ?? '').trim();
    if (url === '') continue; // spreadsheets leave rows with an empty link cell
    links.push({ url, line: r.line, values: extras.map((e) => (r.fields[e.index] ?? '').trim()) });
  }
  return { format: 'csv', links, columns: extras.map((e) => e.name) };
}

function fromLines(text: string): LinkTable {
  const links: ListedLink[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const url = raw.trim();
    if (url !== '' && !url.startsWith('#')) links.push({ url, line: i + 1, values: [] });
  });
  return { format: 'lines', links, columns: [] };
}

/**
 * The links of a pasted text or a file. CSV when asked (`csv`, `column`) or when the first row that is not
 * skipped names a link column (`url`, `link`, `tracking link`…); otherwise one link per line. May be empty.
 */
export function parseLinkTable(input: string, options: LinkTableOptions = {}): LinkTable {
  const text = stripBom(input);
  const records = parseCsv(text, detectDelimiter(text)).filter((r) => !isSkipped(r));
  const first = records[0];
  const csv =
    options.csv === true ||
    options.column !== undefined ||
    (first !== undefined && first.fields.some((f) => LINK_HEADER.test(headerName(f))));
  return csv ? fromCsv(records, options.column) : fromLines(text);
}

/**
 * The service names a batch's links by index (`urls[3]`, `values[3]`) and its columns by position (`columns[1]`);
 * people know the lines of their file and the names of their columns. `lineOf(i)` words link i (undefined keeps
 * the index as it is).
 */
export function inInputTerms(message: string, lineOf: (index: number) => string | undefined, columns: readonly string[]): string {
  return message
    .replace(/(?:urls|values)\[(\d+)\]/g, (m, i: string) => lineOf(Number(i)) ?? m)
    .replace(/columns\[(\d+)\]/g, (m, i: string) => {
      const name = columns[Number(i)];
      return name === undefined ? m : `column "${name}"`;
    });
}
