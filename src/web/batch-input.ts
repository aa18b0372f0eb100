// The links of a batch as pasted or uploaded on the batch page: one link per line, or a CSV (a .csv file, or text
// whose first row names a url/link column). Blank lines and lines starting with # are skipped. Each link keeps its
// line number, so the service's "urls[7] is invalid" can be shown as "line 9".
export interface LinkList {
  urls: string[];
  /** 1-based line of each link in the text it came from. */
  lines: number[];
}

export class LinkListError extends Error {}

const URL_HEADER = /^(url|urls|link|links|tracking[ _-]?(url|link)|affiliate[ _-]?(url|link)|deep[ _-]?link)$/i;
const LOOKS_LIKE_URL = /^https?:\/\//i;

interface CsvRecord {
  fields: string[];
  line: number;
}

function detectDelimiter(firstLine: string): string {
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]?.[1] ? counts[0][0] : ',';
}

/** RFC 4180 records (quoted fields may hold delimiters, quotes and line breaks), with their starting line. */
function parseCsv(text: string, delimiter: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      records.push({ fields: [...fields, field], line: start });
      fields = [];
      field = '';
      line++;
      start = line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) records.push({ fields: [...fields, field], line: start });
  return records;
}

const isSkipped = (r: CsvRecord) => r.fields.every((f) => f.trim() === '') || (r.fields[0] ?? '').trim().startsWith('#');

function fromCsv(text: string): LinkList {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  const records = parseCsv(text, detectDelimiter(firstLine)).filter((r) => !isSkipped(r));
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
  const text = input.replace(/^\uFEFF/, '');
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
