// A scan as the API and the pages show it (CONTRACT.md section 9): progress, each checked link with its status
// and verdict (read from its check row, never from results), the verdicts counted and the page findings.
import type { Static } from '@sinclair/typebox';
import type { Scan } from '../contract/scan.js';
import { parseVerdict } from '../contract/verdict.js';
import type { PageFinding } from '../checker/scan/page-findings.js';
import type { BatchCheckRow } from '../store/batches-repo.js';
import type { ScanRow } from '../store/scans-repo.js';
import { summarizeVerdicts } from './batch-view.js';
import type { CheckStatus, CheckType } from './check-view.js';

/** The scan as the API shows it: the contract's schema is its one declaration. */
export type ScanView = Static<typeof Scan>;
export type ScanStatus = ScanView['status'];
export type ScanLinkView = ScanView['links'][number];

/** A checked link as stored on the scan row. */
export interface StoredScanLink {
  page: string;
  url: string;
  text: string;
  rel: string[];
  slug: string;
}

/** A page finding and the page it was made on. */
export type ScanFinding = PageFinding & { page: string };

export function readJsonArray<T>(raw: string | null): T[] {
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

export function toScanView(row: ScanRow, checks: readonly BatchCheckRow[]): ScanView {
  const bySlug = new Map(checks.map((c) => [c.slug, c]));
  let completed = 0;
  let failed = 0;
  const links = readJsonArray<StoredScanLink>(row.links).map((link): ScanLinkView => {
    const check = bySlug.get(link.slug);
    const status = (check?.status ?? 'queued') as CheckStatus;
    if (status === 'completed') completed++;
    else if (status === 'failed') failed++;
    const finished = status === 'completed' || status === 'failed';
    return {
      page: link.page,
      url: link.url,
      text: link.text,
      slug: link.slug,
      status,
      rel: link.rel,
      verdict: finished ? parseVerdict(check?.verdict ?? null) : null,
    };
  });
  return {
    id: row.id,
    url: row.url,
    status: row.status as ScanStatus,
    render: row.render === 1,
    checkType: row.check_type as CheckType,
    pagesScanned: row.pages_scanned,
    linksFound: row.links_found,
    total: row.total,
    completed,
    failed,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    summary: summarizeVerdicts(links.map((l) => l.verdict)),
    links,
    findings: readJsonArray<ScanFinding>(row.findings),
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
  };
}
