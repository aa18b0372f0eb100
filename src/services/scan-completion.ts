// A running scan completes once none of its link checks is unfinished, with its page findings computed then
// (from every checked link of each page side by side) and stored in the same conditional update: idempotent,
// and repaired like a batch's completion when a crash cut in (jobs/check-runner.ts).
import { findPageLinkFindings, type CheckedPageLink, type LinkOutcome } from '../checker/scan/page-findings.js';
import type { Store } from '../store/index.js';
import type { ScanRow } from '../store/scans-repo.js';
import { readJsonArray, type ScanFinding, type StoredScanLink } from './scan-view.js';

function outcomeOf(result: string | null): LinkOutcome | null {
  if (result === null) return null;
  try {
    const parsed = JSON.parse(result) as Partial<LinkOutcome>;
    return {
      networkId: parsed.networkId ?? null,
      networks: Array.isArray(parsed.networks) ? parsed.networks : [],
      finalUrl: parsed.finalUrl ?? null,
    };
  } catch {
    return null;
  }
}

/** The findings of each scanned page, pages in scan order. */
async function scanFindings(store: Store, scan: ScanRow): Promise<ScanFinding[]> {
  const checks = await store.checks.listByBatch(scan.id);
  const outcomes = new Map(checks.map((c) => [c.slug, c.status === 'completed' ? outcomeOf(c.result) : null]));
  const byPage = new Map<string, CheckedPageLink[]>();
  for (const link of readJsonArray<StoredScanLink>(scan.links)) {
    const links = byPage.get(link.page) ?? [];
    links.push({ url: link.url, rel: link.rel, outcome: outcomes.get(link.slug) ?? null });
    byPage.set(link.page, links);
  }
  return [...byPage].flatMap(([page, links]) => findPageLinkFindings(links).map((finding) => ({ page, ...finding })));
}

/**
 * Completes the scan `id` if it is running and done; a no-op for anything else (a batch's id included).
 * `completedAt` is taken once the findings are made, so it includes their cost.
 */
export async function completeScanIfDone(store: Store, id: string, now: () => string): Promise<void> {
  const scan = await store.scans.get(id);
  if (scan === undefined || scan.status !== 'running' || !(await store.scans.isDone(id))) return;
  const findings = JSON.stringify(await scanFindings(store, scan));
  await store.scans.complete(id, findings, now());
}
