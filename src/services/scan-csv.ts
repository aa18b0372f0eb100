// The results of a scan as CSV (CONTRACT.md section 9): one row per checked link, in page order, with the same
// field rules as a batch's results.csv (batch-csv.ts).
import type { CheckRow } from '../store/checks-repo.js';
import { formatCsvRow, type CsvValue } from './batch-csv.js';
import { toCheckView } from './check-view.js';
import type { ScanView } from './scan-view.js';

export const SCAN_RESULT_COLUMNS = [
  'page',
  'url',
  'text',
  'slug',
  'status',
  'willTrack',
  'healthScore',
  'network',
  'finalUrl',
  'criticalIssues',
] as const;

export function buildScanResultsCsv(scan: ScanView, checks: readonly CheckRow[]): string {
  const bySlug = new Map(checks.map((row) => [row.slug, row]));
  const rows = scan.links.map((link) => {
    const row = bySlug.get(link.slug);
    const check = row === undefined ? null : toCheckView(row);
    const critical = (check?.issues ?? []).filter((issue) => issue.severity === 'critical').map((issue) => issue.code);
    const cells: CsvValue[] = [
      link.page,
      link.url,
      link.text,
      link.slug,
      check?.status ?? link.status,
      check?.willTrack ?? null,
      check?.healthScore ?? null,
      check?.network ?? null,
      check?.finalUrl ?? null,
      critical.join(' '),
    ];
    return formatCsvRow(cells);
  });
  return formatCsvRow([...SCAN_RESULT_COLUMNS]) + rows.join('');
}
