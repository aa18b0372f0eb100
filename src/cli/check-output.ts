// One check in the formats of `trackcheck check` and `report` besides their text report: JSON (as the engine or
// the API gives it), CSV (the columns of a batch's results.csv, one row) and Markdown.
import type { CheckResult } from '../checker/types.js';
import { RESULT_COLUMNS, formatCsvRow, resultCells, type ResultSource } from '../services/batch-csv.js';
import type { OutputFormat } from './output.js';
import { formatMarkdownReport, type ReportLinks } from './report-markdown.js';

export interface CheckForOutput {
  url: string;
  /** Null while the check has no verdict (queued, running, failed). */
  result: CheckResult | null;
  /** What --format json prints. */
  json: unknown;
  /** The CSV row's source. */
  row: ResultSource;
  links?: ReportLinks;
}

/** The output for every format but `text` (each command writes its own); null when the format needs a verdict. */
export function formatCheck(format: Exclude<OutputFormat, 'text'>, check: CheckForOutput): string | null {
  switch (format) {
    case 'json':
      return `${JSON.stringify(check.json, null, 2)}\n`;
    case 'csv':
      return formatCsvRow(RESULT_COLUMNS) + formatCsvRow(resultCells(check.row));
    case 'markdown':
      return check.result === null ? null : formatMarkdownReport(check.url, check.result, check.links);
  }
}
