// Page scans: the scan row with its page-fetch job, its links queued as checks, its completion. Every step that
// must not be half done is one transaction (src/jobs/README.md, "Scans").
import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from './dialect.js';
import { unfinishedCheckOf } from './checks-repo.js';
import type { Database, ScansTable } from './schema.js';
import { insertChecksAndJobs, type QueuedCheck } from './check-queue.js';

export type ScanRow = Selectable<ScansTable>;

/** The job that reads a scan's pages has this check_slug prefix (no check row has a colon in its slug). */
export const SCAN_JOB_PREFIX = 'scan:';

export const scanJobSlug = (scanId: string) => `${SCAN_JOB_PREFIX}${scanId}`;

/** The scan's owner already has the most unfinished scans allowed; nothing was created. */
export class ScanLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} unfinished scans per user`);
    this.name = 'ScanLimitReached';
  }
}

export interface ScanJob {
  host: string;
  requester: string;
  priority: number;
}

/** What reading the pages found, stored when the links are queued (or the scan ends without any). */
export interface ScanPagesRead {
  pagesScanned: number;
  linksFound: number;
  /** JSON of the checked links. */
  links: string;
  total: number;
}

const UNFINISHED = ['queued', 'running'];

export function createScansRepo(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** The scan and the job that will read its page, together; refused (ScanLimitReached) past `maxUnfinished`. */
    async create(row: ScanRow, job: ScanJob, maxUnfinished: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // As for batches (check-queue.ts): a per-user lock on PostgreSQL, SQLite's write lock taken by the insert.
        await dialect.lockKey(trx, `trackcheck:scans:${row.user_id}`);
        await trx.insertInto('scans').values(row).execute();
        const { n } = await trx
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', row.user_id)
          .where('status', 'in', UNFINISHED)
          .executeTakeFirstOrThrow();
        if (Number(n) > maxUnfinished) throw new ScanLimitReached(maxUnfinished);
        await trx
          .insertInto('jobs')
          .values({
            check_slug: scanJobSlug(row.id),
            host: job.host,
            requester: job.requester,
            priority: job.priority,
            status: 'queued',
            attempts: 0,
            run_after: row.created_at,
            lease_owner: null,
            lease_expires_at: null,
            last_error: null,
            created_at: row.created_at,
          })
          .execute();
      });
    },

    get(id: string): Promise<ScanRow | undefined> {
      return db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The user's scans, newest first, strictly after the cursor. */
    listByUser(userId: string, limit: number, after: { createdAt: string; id: string } | null): Promise<ScanRow[]> {
      let query = db.selectFrom('scans').selectAll().where('user_id', '=', userId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /**
     * The pages are read: the link checks and their jobs are created and the scan becomes running, in one
     * transaction. Only a queued scan moves on; false when another worker already did it (nothing inserted).
     */
    async queueLinks(id: string, read: ScanPagesRead, items: QueuedCheck[], now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('scans')
          .set({ status: 'running', pages_scanned: read.pagesScanned, links_found: read.linksFound, links: read.links, total: read.total })
          .where('id', '=', id)
          .where('status', '=', 'queued')
          .executeTakeFirst();
        if (Number(numUpdatedRows) === 0) return false;
        await insertChecksAndJobs(trx, items, now);
        return true;
      });
    },

    /** Ends a queued scan without link checks: completed (no affiliate link) or failed (no page could be read). */
    async endWithoutLinks(
      id: string,
      end: { status: 'completed' | 'failed'; read: ScanPagesRead | null; errorCode: string | null; errorMessage: string | null },
      now: string,
    ): Promise<void> {
      await db
        .updateTable('scans')
        .set({
          status: end.status,
          ...(end.read === null
            ? {}
            : { pages_scanned: end.read.pagesScanned, links_found: end.read.linksFound, links: end.read.links, total: end.read.total }),
          findings: end.status === 'completed' ? '[]' : null,
          error_code: end.errorCode,
          error_message: end.errorMessage,
          completed_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /** Whether this id names a scan (a check's batch_id names a batch or a scan). */
    async isScan(id: string): Promise<boolean> {
      return (await db.selectFrom('scans').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    /** Whether a running scan has no unfinished check left (then it may complete). */
    async isDone(id: string): Promise<boolean> {
      const unfinished = await unfinishedCheckOf(db, id).executeTakeFirst();
      return unfinished === undefined;
    },

    /** Marks a running scan completed with its findings once none of its checks is unfinished; idempotent. */
    async complete(id: string, findings: string, now: string): Promise<void> {
      await db
        .updateTable('scans')
        .set({ status: 'completed', completed_at: now, findings })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where((eb) => eb.not(eb.exists(unfinishedCheckOf(db, id))))
        .execute();
    },
  };
}

export type ScansRepo = ReturnType<typeof createScansRepo>;
