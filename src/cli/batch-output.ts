// The outputs of `trackcheck batch`: a text table for people, JSON and CSV for programs, a Markdown table for
// reports. The rows come from the service's results.csv, in input order; the CSV output keeps exactly its
// columns, the input's own columns (campaign, placement…) after them.
import { formatCsvRow, resultHeader, type CsvValue } from '../services/batch-csv.js';
import type { CsvRecord } from '../lib/csv.js';
import { VERDICT_LABELS } from '../checker/analysis/verdict.js';
import { parseVerdict, type Verdict } from '../contract/verdict.js';
import { mdCode, mdTable, mdText } from './markdown.js';
import type { OutputFormat } from './output.js';

export interface LinkResult {
  /** Line of the input the link came from. */
  line: number;
  url: string;
  slug: string;
  status: string;
  verdict: Verdict | null;
  willTrack: boolean | null;
  healthScore: number | null;
  network: string | null;
  finalUrl: string | null;
  finalStatus: number | null;
  redirectCount: number | null;
  criticalIssues: string[];
  /** The input's other columns for this link, by column name ({} for a plain list). */
  fields: Record<string, string>;
}

// results.csv prefixes text a spreadsheet would run as a formula with '; a program reading JSON wants it back.
const undefuse = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);
const textOrNull = (text: string | undefined) => (text === undefined || text === '' ? null : undefuse(text));
const numberOrNull = (text: string | undefined) => (text === undefined || text === '' ? null : Number(text));
const boolOrNull = (text: string | undefined) => (text === 'true' ? true : text === 'false' ? false : null);

/** One results.csv row (header `RESULT_COLUMNS`) as a typed result; `url`, `line` and the fields come from the input. */
export function toLinkResult(
  record: CsvRecord,
  header: string[],
  input: { url: string; line: number; fields?: Record<string, string> },
): LinkResult {
  const cell = (name: string) => record.fields[header.indexOf(name)];
  return {
    line: input.line,
    url: input.url,
    slug: cell('slug') ?? '',
    status: cell('status') ?? '',
    verdict: parseVerdict(cell('verdict')),
    willTrack: boolOrNull(cell('willTrack')),
    healthScore: numberOrNull(cell('healthScore')),
    network: textOrNull(cell('network')),
    finalUrl: textOrNull(cell('finalUrl')),
    finalStatus: numberOrNull(cell('finalStatus')),
    redirectCount: numberOrNull(cell('redirectCount')),
    criticalIssues: (cell('criticalIssues') ?? '').split(' ').filter((c) => c !== ''),
    fields: input.fields ?? {},
  };
}

export function verdictOf(result: LinkResult): string {
  if (result.status === 'failed') return 'FAILED';
  if (result.verdict !== null) return result.verdict.replace(/_/g, ' ').toUpperCase();
  return result.status.toUpperCase();
}

/** "20 links: 12 will track, 5 will not track, 2 could not verify, 1 failed" (the last two kinds only when present). */
export function summarize(results: LinkResult[]): string {
  const count = (test: (r: LinkResult) => boolean) => results.filter(test).length;
  const failed = count((r) => r.status === 'failed');
  const finished = (verdict: Verdict) => count((r) => r.status !== 'failed' && r.verdict === verdict);
  const optional = [
    [finished('could_not_verify'), 'could not verify'],
    [finished('no_tracking_found'), 'no tracking found'],
  ] as const;
  const parts = [
    `${finished('will_track')} will track`,
    `${finished('will_not_track')} will not track`,
    ...optional.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`),
    `${failed} failed`,
  ];
  return `${results.length} ${results.length === 1 ? 'link' : 'links'}: ${parts.join(', ')}`;
}

function formatTable(results: LinkResult[]): string {
  const rows = results.map((r) => [
    verdictOf(r),
    r.healthScore === null ? '-' : String(r.healthScore),
    r.network ?? '-',
    r.slug,
    r.criticalIssues.length > 0 ? r.criticalIssues.join(',') : '-',
    r.url,
  ]);
  const header = ['VERDICT', 'SCORE', 'NETWORK', 'SLUG', 'CRITICAL ISSUES', 'URL'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : i === 1 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  return `${[header, ...rows].map(line).join('\n')}\n\n${summarize(results)}\n`;
}

function formatCsv(results: LinkResult[], columns: readonly string[]): string {
  const row = (r: LinkResult): CsvValue[] => [
    r.url,
    r.slug,
    r.status,
    r.verdict,
    r.willTrack,
    r.healthScore,
    r.network,
    r.finalUrl,
    r.finalStatus,
    r.redirectCount,
    r.criticalIssues.join(' '),
    ...columns.map((c) => r.fields[c] ?? ''),
  ];
  return formatCsvRow(resultHeader(columns)) + results.map((r) => formatCsvRow(row(r))).join('');
}

function formatMarkdown(results: LinkResult[], columns: readonly string[]): string {
  const header = ['Line', 'Verdict', 'Score', 'Network', 'Critical issues', 'URL', 'Slug', ...columns.map(mdText)];
  const rows = results.map((r) => [
    String(r.line),
    r.status === 'failed' ? '**Check failed**' : r.verdict === null ? mdText(r.status) : `**${VERDICT_LABELS[r.verdict]}**`,
    r.healthScore === null ? '' : String(r.healthScore),
    r.network === null ? '' : mdText(r.network),
    r.criticalIssues.map(mdCode).join(' '),
    mdCode(r.url),
    mdCode(r.slug),
    ...columns.map((c) => mdText(r.fields[c] ?? '')),
  ]);
  const tracking = results.filter((r) => r.status !== 'failed' && r.verdict === 'will_track').length;
  const title = `**${tracking} of ${results.length} ${results.length === 1 ? 'link' : 'links'} will track**`;
  return `${title}\n\n${mdTable(header, rows, ['r', 'l', 'r'])}\n\n${summarize(results)}\n`;
}

/** The results in `format` (`text` is the table); `columns` are the input's own, in their order. */
export function formatResults(results: LinkResult[], format: OutputFormat, columns: readonly string[] = []): string {
  if (format === 'json') return `${JSON.stringify(results, null, 2)}\n`;
  if (format === 'csv') return formatCsv(results, columns);
  if (format === 'markdown') return formatMarkdown(results, columns);
  return formatTable(results);
}
