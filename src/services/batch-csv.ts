// The results of a batch as CSV (RFC 4180): one row per link, safe to open in a spreadsheet; the submitter's own
// input columns (batch-columns.ts) follow the standard ones.
import type { CheckRow } from '../store/checks-repo.js';
import { inputColumnHeaders, readStoredStrings } from './batch-columns.js';
import { toCheckView, type CheckView } from './check-view.js';

export const RESULT_COLUMNS = [
  'url',
  'slug',
  'status',
  'verdict',
  'willTrack',
  'healthScore',
  'network',
  'finalUrl',
  'finalStatus',
  'redirectCount',
  'criticalIssues',
] as const;

export type CsvValue = string | number | boolean | null;

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection); tab and CR too in some.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: formula triggers defused with a leading apostrophe, quoted when it holds , " CR or LF. */
export function formatCsvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatCsvRow(values: readonly CsvValue[]): string {
  return `${values.map(formatCsvField).join(',')}\r\n`;
}

/** What one standard row needs of a check: a stored one, a local `trackcheck check`, or the API's. */
export type ResultSource = Pick<
  CheckView,
  'url' | 'slug' | 'status' | 'verdict' | 'willTrack' | 'healthScore' | 'network' | 'finalUrl' | 'finalStatus' | 'redirectCount'
> & { issues: readonly { code: string; severity: string }[] };

/** The cells of RESULT_COLUMNS for one check. */
export function resultCells(check: ResultSource): CsvValue[] {
  const critical = check.issues.filter((issue) => issue.severity === 'critical').map((issue) => issue.code);
  return [
    check.url,
    check.slug,
    check.status,
    check.verdict,
    check.willTrack,
    check.healthScore,
    check.network,
    check.finalUrl,
    check.finalStatus,
    check.redirectCount,
    // Several codes share the cell, separated by spaces (codes are snake_case: no separator can be ambiguous).
    critical.join(' '),
  ];
}

/** The header: RESULT_COLUMNS, then the input columns (renamed `input_<name>` where they clash). */
export function resultHeader(inputColumns: readonly string[] = []): string[] {
  return [...RESULT_COLUMNS, ...inputColumnHeaders(inputColumns, RESULT_COLUMNS)];
}

/** Header and one row per check, CRLF line ends as RFC 4180 writes them; `inputColumns` as the batch stored them. */
export function buildResultsCsv(checks: CheckRow[], inputColumns: readonly string[] = []): string {
  const rows = checks.map((row) => {
    const cells = readStoredStrings(row.input_values);
    return formatCsvRow([...resultCells(toCheckView(row)), ...inputColumns.map((_, i) => cells[i] ?? '')]);
  });
  return formatCsvRow(resultHeader(inputColumns)) + rows.join('');
}
