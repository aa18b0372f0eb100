// Batch use cases: submit up to 500 links at once (all or nothing), read one, list, rows for the results CSV.
// Running the checks is the queue's job (src/jobs/); a batch is only its checks grouped.
import { randomUUID } from 'node:crypto';
import { checkSubmittedUrl } from '../checker/net/net-guard.js';
import type { ResolveMap } from '../checker/net/address-policy.js';
import type { Store } from '../store/index.js';
import type { BatchRow } from '../store/batches-repo.js';
import type { CheckRow } from '../store/checks-repo.js';
import { BatchLimitReached, type QueuedCheck } from '../store/check-queue.js';
import type { Clock } from '../rate-limit/window.js';
import { DomainError } from './domain-error.js';
import { newSlug } from '../lib/ids.js';
import type { CheckType } from './check-view.js';
import { inputColumnsProblem, readStoredStrings, type InputColumns } from './batch-columns.js';
import { groupByBatch, toBatchView, type BatchView } from './batch-view.js';
import { userJobRequester } from '../auth/principal.js';
import { isoAt } from '../lib/iso-timestamp.js';
import { isUuid } from '../lib/uuid.js';
import { readCursor, splitPage } from './cursor.js';

export const MAX_BATCH_URLS = 500;
export const MAX_UNFINISHED_BATCHES = 3;
/** Batch checks queue behind interactive single checks (priority 0). */
export const BATCH_PRIORITY = 1;

export type { BatchStatus, BatchSummary, BatchView } from './batch-view.js';

export const MAX_BATCH_NAME_LENGTH = 100;

export interface CreateBatchInput {
  urls: string[];
  check_type?: CheckType;
  /** 1–100 characters once trimmed. */
  name?: string | null;
  /** The submitter's own columns, carried to results.csv (batch-columns.ts). */
  columns?: string[];
  values?: string[][];
}

export interface BatchesServiceDeps {
  store: Store;
  clock: Clock;
  resolve: ResolveMap;
  /** Asks the local worker, if any, to look for work now. */
  poke(): void;
}

/** Every URL parsed, or one error naming the first bad index (and the others, so one fix round is enough). */
function parseUrls(urls: string[], resolve: ResolveMap): URL[] {
  if (urls.length === 0) throw new DomainError('invalid_parameter', `urls is empty: send between 1 and ${MAX_BATCH_URLS} links.`);
  if (urls.length > MAX_BATCH_URLS) {
    throw new DomainError(
      'too_many_urls',
      `A batch takes at most ${MAX_BATCH_URLS} links; this one has ${urls.length}. Split it into several batches.`,
    );
  }
  const parsed: URL[] = [];
  const bad: { index: number; code: 'invalid_url' | 'url_not_allowed'; message: string }[] = [];
  urls.forEach((raw, index) => {
    const verdict = checkSubmittedUrl(raw, resolve);
    if (verdict.ok) parsed.push(verdict.url);
    else bad.push({ index, code: verdict.code, message: verdict.message });
  });
  const first = bad[0];
  if (first) {
    const others = bad.slice(1, 11).map((b) => `urls[${b.index}]`);
    const more = bad.length > 11 ? ` and ${bad.length - 11} more` : '';
    const also = others.length > 0 ? ` Also invalid: ${others.join(', ')}${more}.` : '';
    throw new DomainError(first.code, `urls[${first.index}]: ${first.message}${also} Nothing was created.`);
  }
  return parsed;
}

/** A batch name trimmed, or null when it is blank, too long or spans lines (the API and the CLI refuse it). */
export function cleanBatchName(raw: string): string | null {
  const name = raw.trim();
  return name === '' || name.length > MAX_BATCH_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name) ? null : name;
}

/** The trimmed name, null for none; blank or too long is refused. */
function parseName(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const name = cleanBatchName(raw);
  if (name === null) {
    throw new DomainError(
      'invalid_parameter',
      `name must be 1 to ${MAX_BATCH_NAME_LENGTH} characters on one line (after trimming spaces).`,
    );
  }
  return name;
}

/** Both or neither; checked against the links before anything is stored. */
function parseInputColumns(input: CreateBatchInput): InputColumns | null {
  const { columns, values } = input;
  if (columns === undefined && values === undefined) return null;
  if (columns === undefined) throw new DomainError('invalid_parameter', 'values needs columns: the names of its cells, in order.');
  if (values === undefined)
    throw new DomainError('invalid_parameter', 'columns needs values: one array of cells per link, in the order of urls.');
  // No columns and no cells (a client that always sends both) is the same as neither.
  if (columns.length === 0 && values.every((row) => row.length === 0)) return null;
  const problem = inputColumnsProblem(columns, values, input.urls.length);
  if (problem !== null) throw new DomainError('invalid_parameter', `${problem} Nothing was created.`);
  return { columns: columns.map((c) => c.trim()), values };
}

export function createBatchesService(deps: BatchesServiceDeps) {
  const { store, clock } = deps;

  /** The batch if it exists and belongs to the user; another user's batch is indistinguishable from none. */
  async function ownedBatch(userId: string, id: string): Promise<BatchRow> {
    const row = isUuid(id) ? await store.batches.get(id) : undefined;
    if (!row || row.user_id !== userId) throw new DomainError('not_found', 'No batch with this id.');
    return row;
  }

  return {
    async create(userId: string, input: CreateBatchInput): Promise<BatchView> {
      const checkType = input.check_type ?? 'link';
      const parsed = parseUrls(input.urls, deps.resolve);
      const name = parseName(input.name);
      const extra = parseInputColumns(input);
      const now = clock.now();
      const batch: BatchRow = {
        id: randomUUID(),
        user_id: userId,
        check_type: checkType,
        status: 'queued',
        total: parsed.length,
        created_at: isoAt(now),
        completed_at: null,
        name,
        input_columns: extra === null ? null : JSON.stringify(extra.columns),
      };
      const items: QueuedCheck[] = parsed.map((url, i) => ({
        check: {
          slug: newSlug(),
          user_id: userId,
          batch_id: batch.id,
          url: input.urls[i] ?? '',
          check_type: checkType,
          status: 'queued',
          // One millisecond apart, the last one at the batch's own time: creation order is submission order,
          // for the queue (jobs are due from their check's creation) and for every listing.
          created_at: isoAt(now - (parsed.length - 1 - i)),
          started_at: null,
          completed_at: null,
          result: null,
          error_code: null,
          error_message: null,
          input_values: extra === null ? null : JSON.stringify(extra.values[i] ?? []),
        },
        host: url.hostname,
        requester: userJobRequester(userId),
        priority: BATCH_PRIORITY,
      }));
      try {
        await store.queue.add(items, batch.created_at, batch, { maxUnfinishedBatches: MAX_UNFINISHED_BATCHES });
      } catch (err) {
        if (!(err instanceof BatchLimitReached)) throw err;
        throw new DomainError(
          'too_many_batches',
          `You already have ${MAX_UNFINISHED_BATCHES} unfinished batches; submit this one when one of them has completed.`,
        );
      }
      deps.poke();
      const checks = items.map((item) => ({
        batch_id: batch.id,
        slug: item.check.slug,
        url: item.check.url,
        status: 'queued',
        verdict: null,
      }));
      return toBatchView(batch, checks);
    },

    async get(userId: string, id: string): Promise<BatchView> {
      const row = await ownedBatch(userId, id);
      return toBatchView(row, await store.batches.checksOf([row.id]));
    },

    async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: BatchView[]; nextCursor: string | null }> {
      const after = readCursor(cursor);
      const rows = await store.batches.listByUser(userId, limit + 1, after);
      const { page, nextCursor } = splitPage(rows, limit, (r) => r.id);
      const byBatch = groupByBatch(await store.batches.checksOf(page.map((r) => r.id)));
      return { data: page.map((r) => toBatchView(r, byBatch.get(r.id) ?? [])), nextCursor };
    },

    /** The batch's checks with their results, in submission order, and its input columns, for the CSV export. */
    async results(userId: string, id: string): Promise<{ batch: BatchView; checks: CheckRow[]; inputColumns: string[] }> {
      const row = await ownedBatch(userId, id);
      const checks = await store.checks.listByBatch(row.id);
      const view = toBatchView(
        row,
        checks.map((c) => ({ batch_id: row.id, slug: c.slug, url: c.url, status: c.status, verdict: c.verdict })),
      );
      return { batch: view, checks, inputColumns: readStoredStrings(row.input_columns) };
    },
  };
}

export type BatchesService = ReturnType<typeof createBatchesService>;
