// The results of a batch as CSV (RFC 4180): one row per link, safe to open in a spreadsheet.
import type { CheckRow } from '../store/checks-repo.js';
import { toCheckView } from './check-view.js';

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

function resultRow(row: CheckRow): CsvValue[] {
  const check = toCheckView(row);
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

/** Header and one row per check, CRLF line ends as RFC 4180 writes them. */
export function buildResultsCsv(checks: CheckRow[]): string {
  return formatCsvRow(RESULT_COLUMNS) + checks.map((row) => formatCsvRow(resultRow(row))).join('');
}
