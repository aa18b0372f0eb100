// Runs a scan's page-fetch job (called by the worker for jobs named `scan:<id>`): read the pages, then queue the
// links as checks and make the scan running in one transaction, or end it at once (no affiliate link, no page).
// A crash anywhere before that transaction leaves the scan queued with its job, which the queue retries.
import { CheckCancelled } from '../checker/check.js';
import { BrowserUnavailable } from '../checker/browser/pool.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { Store } from '../store/index.js';
import type { QueuedCheck } from '../store/check-queue.js';
import { SCAN_JOB_PREFIX, type ScanPagesRead, type ScanRow } from '../store/scans-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { userJobRequester } from '../auth/principal.js';
import { newSlug } from '../lib/ids.js';
import { BATCH_PRIORITY } from '../services/batches.js';
import { readScanPages, type ScanPageSource, type ScanRead } from '../services/scan-pages.js';
import type { StoredScanLink } from '../services/scan-view.js';
import { isoAt } from '../lib/iso-timestamp.js';

export const isScanJob = (job: Pick<JobRow, 'check_slug'>) => job.check_slug.startsWith(SCAN_JOB_PREFIX);

export interface ScanRunnerDeps {
  store: Store;
  clock: Clock;
  /** The guarded fetcher and the browser, bound to this process's settings; `signal` cancels them. */
  source(signal: AbortSignal): ScanPageSource;
  /** The links' checks are queued: the local worker may look for work now. */
  poke(): void;
}

function pagesRead(read: ScanRead, links: StoredScanLink[]): ScanPagesRead {
  return { pagesScanned: read.pagesScanned, linksFound: read.linksFound, links: JSON.stringify(links), total: links.length };
}

export function createScanRunner(deps: ScanRunnerDeps) {
  const { store, clock } = deps;

  async function read(scan: ScanRow, signal: AbortSignal): Promise<ScanRead> {
    try {
      return await readScanPages(scan.url, scan.render === 1, deps.source(signal));
    } catch (err) {
      if (signal.aborted) throw new CheckCancelled();
      if (!(err instanceof BrowserUnavailable)) throw err;
      return {
        pagesScanned: 0,
        linksFound: 0,
        links: [],
        error: { code: 'browser_unavailable', message: `The page could not be rendered: ${err.message}` },
      };
    }
  }

  return {
    async execute(job: JobRow, signal: AbortSignal): Promise<void> {
      const id = job.check_slug.slice(SCAN_JOB_PREFIX.length);
      const scan = await store.scans.get(id);
      // Already past this phase (a crash came after the transaction, before the job was removed): nothing to do.
      if (!scan || scan.status !== 'queued') return;
      const result = await read(scan, signal);
      if (signal.aborted) throw new CheckCancelled();
      const now = clock.now();
      if (result.error !== null) {
        await store.scans.endWithoutLinks(
          id,
          { status: 'failed', read: null, errorCode: result.error.code, errorMessage: result.error.message },
          isoAt(now),
        );
        return;
      }
      const links: StoredScanLink[] = result.links.map((link) => ({
        page: link.page,
        url: link.url,
        text: link.text,
        rel: link.rel,
        slug: newSlug(),
      }));
      if (links.length === 0) {
        await store.scans.endWithoutLinks(
          id,
          { status: 'completed', read: pagesRead(result, links), errorCode: null, errorMessage: null },
          isoAt(now),
        );
        return;
      }
      const items: QueuedCheck[] = links.map((link, i) => ({
        check: {
          slug: link.slug,
          user_id: scan.user_id,
          batch_id: scan.id,
          url: link.url,
          check_type: scan.check_type,
          status: 'queued',
          // A millisecond apart, in page order, as a batch's (services/batches.ts).
          created_at: isoAt(now - (links.length - 1 - i)),
          started_at: null,
          completed_at: null,
          result: null,
          error_code: null,
          error_message: null,
          input_values: null,
        },
        host: new URL(link.url).hostname,
        requester: userJobRequester(scan.user_id),
        priority: BATCH_PRIORITY,
      }));
      if (await store.scans.queueLinks(id, pagesRead(result, links), items, isoAt(now))) deps.poke();
    },

    /** The page-fetch crashed on every attempt: the scan fails, with the reason. */
    async giveUp(job: JobRow, reason: string): Promise<void> {
      const id = job.check_slug.slice(SCAN_JOB_PREFIX.length);
      await store.scans.endWithoutLinks(
        id,
        {
          status: 'failed',
          read: null,
          errorCode: 'scan_crashed',
          errorMessage: `Reading the page failed repeatedly (${reason.slice(0, 200)}).`,
        },
        isoAt(clock.now()),
      );
    },
  };
}

export type ScanRunner = ReturnType<typeof createScanRunner>;
