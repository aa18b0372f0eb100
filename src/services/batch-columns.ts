// The submitter's own columns of a batch (campaign, placement, notes…): sent as `columns` + `values` beside
// `urls`, stored with the batch and its checks, and appended to each link's row of results.csv. The web page and
// the CLI read them from the user's CSV; the limits below are checked by the service and, before anything is
// submitted, by the CLI. The limits are the contract's (src/contract/batch.ts).

import { MAX_CELL_LENGTH, MAX_COLUMN_NAME_LENGTH, MAX_INPUT_CHARS, MAX_INPUT_COLUMNS } from '../contract/batch.js';

export interface InputColumns {
  /** Column names, trimmed, unique. */
  columns: string[];
  /** One array per link, in the order of `urls`, one cell per column. */
  values: string[][];
}

const CONTROL = /[\u0000-\u001f\u007f]/;
const quoted = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 37)}...` : name);

/**
 * Why these columns cannot be stored with a batch of `linkCount` links, or null when they can. Messages name
 * `columns[i]` and `values[i]` as the service names `urls[i]`, so the pages and the CLI can turn them into lines.
 */
export function inputColumnsProblem(columns: readonly string[], values: readonly (readonly string[])[], linkCount: number): string | null {
  if (columns.length > MAX_INPUT_COLUMNS)
    return `columns: at most ${MAX_INPUT_COLUMNS} columns besides the link; this batch has ${columns.length}.`;
  const seen = new Set<string>();
  for (const [i, raw] of columns.entries()) {
    const name = raw.trim();
    if (name === '') return `columns[${i}] is blank: every column needs a name.`;
    if (name.length > MAX_COLUMN_NAME_LENGTH) return `columns[${i}] is longer than ${MAX_COLUMN_NAME_LENGTH} characters.`;
    if (CONTROL.test(name)) return `columns[${i}] holds a line break or another control character.`;
    if (seen.has(name)) return `columns[${i}]: ${quoted(name)} appears twice; column names must be unique.`;
    seen.add(name);
  }
  if (values.length !== linkCount) {
    return `values has ${values.length} rows for ${linkCount} urls: send one array of cells per link, in the order of urls.`;
  }
  let total = 0;
  for (const [i, row] of values.entries()) {
    if (row.length !== columns.length) return `values[${i}] has ${row.length} cells for ${columns.length} columns.`;
    for (const [j, cell] of row.entries()) {
      if (cell.length > MAX_CELL_LENGTH)
        return `values[${i}], column ${quoted(columns[j] ?? '')}: a cell may be at most ${MAX_CELL_LENGTH} characters.`;
      total += cell.length;
    }
  }
  if (total > MAX_INPUT_CHARS)
    return `values: at most ${MAX_INPUT_CHARS.toLocaleString('en')} characters of cells per batch; this one has ${total.toLocaleString('en')}.`;
  return null;
}

/**
 * The results.csv header of each input column: its own name, or `input_<name>` when that is taken by a standard
 * column (or an earlier input column), compared without case as a spreadsheet reader would.
 */
export function inputColumnHeaders(columns: readonly string[], taken: readonly string[]): string[] {
  const used = new Set(taken.map((name) => name.toLowerCase()));
  return columns.map((name) => {
    let header = used.has(name.toLowerCase()) ? `input_${name}` : name;
    for (let n = 2; used.has(header.toLowerCase()); n++) header = `input_${name}_${n}`;
    used.add(header.toLowerCase());
    return header;
  });
}

/** A stored JSON array of strings (column names or one link's cells); empty when absent or unreadable. */
export function readStoredStrings(json: string | null): string[] {
  if (json === null) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map((v) => (typeof v === 'string' ? v : '')) : [];
  } catch {
    return [];
  }
}
