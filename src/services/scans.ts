// Page-scan use cases (CONTRACT.md section 9): submit a page or sitemap, read one, list, rows for the CSV.
// Reading the pages and checking the links is the queue's job (jobs/scan-runner.ts, src/jobs/).
import { randomUUID } from 'node:crypto';
import { checkSubmittedUrl } from '../checker/net/net-guard.js';
import type { ResolveMap } from '../checker/net/address-policy.js';
import type { Store } from '../store/index.js';
import type { CheckRow } from '../store/checks-repo.js';
import { ScanLimitReached, type ScanRow } from '../store/scans-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { userJobRequester } from '../auth/principal.js';
import { DomainError } from './domain-error.js';
import { BATCH_PRIORITY } from './batches.js';
import type { CheckType } from './check-view.js';
import { toScanView, type ScanView } from './scan-view.js';
import { groupByBatch } from './batch-view.js';
import { isoAt } from '../lib/iso-timestamp.js';
import { isUuid } from '../lib/uuid.js';
import { readCursor, splitPage } from './cursor.js';

export const MAX_UNFINISHED_SCANS = 3;

export interface CreateScanInput {
  url: string;
  render?: boolean;
  check_type?: CheckType;
}

export interface ScansServiceDeps {
  store: Store;
  clock: Clock;
  resolve: ResolveMap;
  poke(): void;
}

export function createScansService(deps: ScansServiceDeps) {
  const { store, clock } = deps;

  /** The scan if it exists and belongs to the user; another user's scan is indistinguishable from none. */
  async function ownedScan(userId: string, id: string): Promise<ScanRow> {
    const row = isUuid(id) ? await store.scans.get(id) : undefined;
    if (!row || row.user_id !== userId) throw new DomainError('not_found', 'No scan with this id.');
    return row;
  }

  const withChecks = async (row: ScanRow) => toScanView(row, await store.batches.checksOf([row.id]));

  return {
    async create(userId: string, input: CreateScanInput): Promise<ScanView> {
      const verdict = checkSubmittedUrl(input.url, deps.resolve);
      if (!verdict.ok) throw new DomainError(verdict.code, `url: ${verdict.message}`);
      const row: ScanRow = {
        id: randomUUID(),
        user_id: userId,
        url: input.url,
        render: input.render === true ? 1 : 0,
        check_type: input.check_type ?? 'link',
        status: 'queued',
        pages_scanned: 0,
        links_found: 0,
        total: 0,
        links: null,
        findings: null,
        error_code: null,
        error_message: null,
        created_at: isoAt(clock.now()),
        completed_at: null,
      };
      try {
        await store.scans.create(
          row,
          { host: verdict.url.hostname, requester: userJobRequester(userId), priority: BATCH_PRIORITY },
          MAX_UNFINISHED_SCANS,
        );
      } catch (err) {
        if (!(err instanceof ScanLimitReached)) throw err;
        throw new DomainError(
          'too_many_scans',
          `You already have ${MAX_UNFINISHED_SCANS} unfinished scans; submit this one when one of them has completed.`,
        );
      }
      deps.poke();
      return toScanView(row, []);
    },

    async get(userId: string, id: string): Promise<ScanView> {
      return withChecks(await ownedScan(userId, id));
    },

    async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: ScanView[]; nextCursor: string | null }> {
      const after = readCursor(cursor);
      const rows = await store.scans.listByUser(userId, limit + 1, after);
      const { page, nextCursor } = splitPage(rows, limit, (r) => r.id);
      const byScan = groupByBatch(await store.batches.checksOf(page.map((r) => r.id)));
      return { data: page.map((r) => toScanView(r, byScan.get(r.id) ?? [])), nextCursor };
    },

    /** The scan and its checks with their results, for the CSV export. */
    async results(userId: string, id: string): Promise<{ scan: ScanView; checks: CheckRow[] }> {
      const row = await ownedScan(userId, id);
      const checks = await store.checks.listByBatch(row.id);
      const view = toScanView(
        row,
        checks.map((c) => ({ batch_id: row.id, slug: c.slug, url: c.url, status: c.status, verdict: c.verdict })),
      );
      return { scan: view, checks };
    },
  };
}

export type ScansService = ReturnType<typeof createScansService>;
