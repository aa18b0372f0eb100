// Public reports: the check as anyone with the slug sees it (never its owner), its view count, and the
// dispute evidence file with a digest that verifies against the report.
import { canonicalJson, sha256Hex } from '../lib/canonical-json.js';
import { formatEvidence } from '../checker/evidence.js';
// The digest must cover exactly the fields the API serves, so the response schema decides them.
import { Value } from '@sinclair/typebox/value';
import { Check, type ReportView } from '../contract/check.js';
import type { Store } from '../store/index.js';
import type { CheckRow } from '../store/checks-repo.js';
import { VERSION } from '../lib/version.js';
import { DomainError } from './domain-error.js';
import { isFinished, readStoredCheck, toCheckView, type CheckView } from './check-view.js';

export type { ReportView };

export interface ReportsServiceDeps {
  store: Store;
  /** Read per request: the public URL is only final once the server knows its port. */
  publicUrl(): string;
}

/**
 * The object the evidence digest covers: the check exactly as GET /v1/checks/:slug serves it, i.e. what the
 * contract's Check schema declares (TypeBox drops every other property, as the response serializer does).
 */
export function publicCheck(view: CheckView): unknown {
  return Value.Clean(Check, Value.Clone(view));
}

export function digestCheck(view: CheckView): string {
  return sha256Hex(canonicalJson(publicCheck(view)));
}

const notFound = () => new DomainError('not_found', 'No report with this slug.');

export function createReportsService(deps: ReportsServiceDeps) {
  const { store } = deps;

  function toReport(row: CheckRow, viewCount: number, view: CheckView = toCheckView(row)): ReportView {
    const base = deps.publicUrl();
    return {
      ...view,
      viewCount,
      reportUrl: `${base}/r/${row.slug}`,
      evidenceUrl: `${base}/v1/reports/${row.slug}/evidence`,
    };
  }

  async function getRow(slug: string): Promise<CheckRow> {
    const row = await store.checks.get(slug);
    if (!row) throw notFound();
    return row;
  }

  return {
    /** A report read: adds one view atomically and returns the report with the new count. */
    async read(slug: string): Promise<ReportView> {
      const row = await store.checks.incrementViews(slug);
      if (row === undefined) throw notFound();
      return toReport(row, row.view_count);
    },

    /** Counts one view and returns only the new count (the caller already has the finished report); undefined when unknown. */
    countView: (slug: string): Promise<number | undefined> => store.checks.addView(slug),

    /** The report without counting a view (HEAD requests, progress refreshes). */
    async peek(slug: string): Promise<ReportView> {
      const row = await getRow(slug);
      return toReport(row, row.view_count);
    },

    /**
     * The web page's read: a finished report counts one view; the progress page of a running check
     * (which refreshes itself every few seconds) does not, so one visitor waiting is not ten views.
     */
    async show(slug: string, count: boolean): Promise<ReportView | null> {
      const row = await store.checks.get(slug);
      if (!row) return null;
      if (!count || !isFinished(row.status)) return toReport(row, row.view_count);
      const counted = await store.checks.incrementViews(slug);
      return toReport(counted ?? row, (counted ?? row).view_count);
    },

    /** The plain-text dispute evidence; reading it is not a view. */
    async evidence(slug: string): Promise<{ filename: string; text: string }> {
      const row = await getRow(slug);
      const { view, engine } = readStoredCheck(row);
      const report = toReport(row, row.view_count, view);
      const text = formatEvidence({
        service: { name: 'trackcheck', version: VERSION },
        check: report,
        startedAt: row.started_at,
        engine,
        reportUrl: report.reportUrl,
        publicUrl: deps.publicUrl(),
        digest: digestCheck(report),
      });
      return { filename: `evidence-${row.slug}.txt`, text };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
