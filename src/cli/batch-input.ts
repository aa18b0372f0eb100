// The links of `trackcheck batch`: one per line, or a CSV with a `url` column (or --column <name>). Blank lines
// and lines starting with # are skipped. Every link is checked here first (an http(s) URL), so a typo on line
// 1,203 stops the run before the first 500 links are submitted; the service still validates each batch in full.
import { UsageError } from './remote.js';
import { detectDelimiter, parseCsv, stripBom, type CsvRecord } from '../csv.js';

export interface InputLink {
  url: string;
  /** Where it came from in the input, 1-based. */
  line: number;
}

export interface ParsedInput {
  format: 'lines' | 'csv';
  links: InputLink[];
}

const MAX_REPORTED = 10;

const isSkipped = (record: CsvRecord) => {
  const first = (record.fields[0] ?? '').trim();
  return record.fields.every((f) => f.trim() === '') || first.startsWith('#');
};

function linkProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a URL: "${url.length > 80 ? `${url.slice(0, 77)}...` : url}"`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `only http and https links can be checked, not ${parsed.protocol}`;
  if (parsed.username !== '' || parsed.password !== '') return 'a link with credentials in it is refused';
  return null;
}

function validate(links: InputLink[]): InputLink[] {
  const problems = links.flatMap((link) => {
    const problem = linkProblem(link.url);
    return problem === null ? [] : [`line ${link.line}: ${problem}`];
  });
  if (problems.length > 0) {
    const more = problems.length > MAX_REPORTED ? `\n… and ${problems.length - MAX_REPORTED} more` : '';
    throw new UsageError(`${problems.length} invalid ${problems.length === 1 ? 'link' : 'links'}, nothing submitted:\n${problems.slice(0, MAX_REPORTED).join('\n')}${more}`);
  }
  if (links.length === 0) throw new UsageError('no links in the input (one URL per line, or a CSV with a url column)');
  return links;
}

function fromCsv(text: string, column: string): InputLink[] {
  const records = parseCsv(text, detectDelimiter(text)).filter((r) => !isSkipped(r));
  const [header, ...rows] = records;
  const names = (header?.fields ?? []).map((f) => f.trim());
  const index = names.findIndex((name) => name.toLowerCase() === column.toLowerCase());
  if (header === undefined || index < 0) {
    throw new UsageError(`no column "${column}" in the CSV header (columns: ${names.map((n) => `"${n}"`).join(', ') || 'none'}); name it with --column`);
  }
  return rows.flatMap((row) => {
    const url = (row.fields[index] ?? '').trim();
    // Spreadsheets leave rows with an empty cell; they are not links.
    return url === '' ? [] : [{ url, line: row.line }];
  });
}

function fromLines(text: string): InputLink[] {
  return text.split(/\r\n|\n|\r/).flatMap((raw, i) => {
    const url = raw.trim();
    return url === '' || url.startsWith('#') ? [] : [{ url, line: i + 1 }];
  });
}

/** A CSV when asked (--column, a .csv file) or when the first record names a `url` column. */
function looksLikeCsv(text: string): boolean {
  const first = parseCsv(text, detectDelimiter(text)).find((r) => !isSkipped(r));
  return first !== undefined && first.fields.some((f) => f.trim().toLowerCase() === 'url');
}

export function parseBatchInput(input: string, options: { column?: string; csv?: boolean } = {}): ParsedInput {
  const text = stripBom(input);
  if (options.column !== undefined || options.csv === true || looksLikeCsv(text)) {
    return { format: 'csv', links: validate(fromCsv(text, options.column ?? 'url')) };
  }
  return { format: 'lines', links: validate(fromLines(text)) };
}
