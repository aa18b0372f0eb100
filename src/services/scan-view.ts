// A scan as the API and the pages show it (CONTRACT.md section 9): progress, each checked link with its status
// and verdict (read from its check row, never from results), the verdicts counted and the page findings.
import { parseVerdict, type Verdict } from '../contract/verdict.js';
import type { PageFinding } from '../checker/scan/page-findings.js';
import type { BatchCheckRow } from '../store/batches-repo.js';
import type { ScanRow } from '../store/scans-repo.js';
import { summarizeVerdicts, type BatchSummary } from './batch-view.js';
import type { CheckStatus, CheckType } from './check-view.js';

export type ScanStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A checked link as stored on the scan row. */
export interface StoredScanLink {
  page: string;
  url: string;
  text: string;
  rel: string[];
  slug: string;
}

export interface ScanLinkView {
  page: string;
  url: string;
  text: string;
  slug: string;
  status: CheckStatus;
  rel: string[];
  verdict: Verdict | null;
}

/** A page finding and the page it was made on. */
export type ScanFinding = PageFinding & { page: string };

export interface ScanView {
  id: string;
  url: string;
  status: ScanStatus;
  render: boolean;
  checkType: CheckType;
  pagesScanned: number;
  linksFound: number;
  total: number;
  completed: number;
  failed: number;
  createdAt: string;
  completedAt: string | null;
  summary: BatchSummary;
  links: ScanLinkView[];
  findings: ScanFinding[];
  error: { code: string; message: string } | null;
}

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
