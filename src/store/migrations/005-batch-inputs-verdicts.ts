import type { Kysely } from 'kysely';
import { checkVerdict, type VerdictFacts } from '../../checker/analysis/verdict.js';

/** The part of the schema this migration reads and writes, as it is at this migration (not as it may become). */
interface ChecksAt005 {
  checks: { slug: string; status: string; result: string | null; verdict: string | null };
}

/** Rows read and written per round: a table of millions of checks is never loaded at once. */
const BACKFILL_BATCH = 500;

/** The verdict of a finished check from its stored result, as check-view.ts derives it; null if unreadable. */
function verdictOf(status: string, result: string | null): string | null {
  if (status === 'failed') return checkVerdict({ status, willTrack: null, issues: [], networks: [] });
  if (result === null) return null;
  try {
    const parsed = JSON.parse(result) as Partial<VerdictFacts>;
    return checkVerdict({
      status,
      willTrack: typeof parsed.willTrack === 'boolean' ? parsed.willTrack : null,
      issues: Array.isArray(parsed.issues) ? parsed.issues : [],
      networks: Array.isArray(parsed.networks) ? parsed.networks : [],
    });
  } catch {
    // A result this code cannot read has no verdict here either; the check view would fail on it the same way.
    return null;
  }
}

/** Fills `checks.verdict` for every check that finished before the column existed, 500 rows per round. */
async function backfillVerdicts(db: Kysely<ChecksAt005>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('checks')
      .select(['slug', 'status', 'result'])
      .where('status', 'in', ['completed', 'failed'])
      .where('slug', '>', after)
      .orderBy('slug')
      .limit(BACKFILL_BATCH)
      .execute();
    const last = rows.at(-1);
    if (last === undefined) return;
    after = last.slug;
    // One UPDATE per verdict rather than per row: at most four statements a round.
    const byVerdict = new Map<string, string[]>();
    for (const row of rows) {
      const verdict = verdictOf(row.status, row.result);
      if (verdict === null) continue;
      byVerdict.set(verdict, [...(byVerdict.get(verdict) ?? []), row.slug]);
    }
    for (const [verdict, slugs] of byVerdict) {
      await db.updateTable('checks').set({ verdict }).where('slug', 'in', slugs).execute();
    }
  }
}

/**
 * Batches get a name and carry the submitter's own CSV columns to results.csv; every check stores its verdict
 * when it finishes (backfilled here for the checks that already have), so a batch's status reads it, not results.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('batches').addColumn('name', 'text').execute();
  await db.schema.alterTable('batches').addColumn('input_columns', 'text').execute();
  await db.schema.alterTable('checks').addColumn('verdict', 'text').execute();
  await db.schema.alterTable('checks').addColumn('input_values', 'text').execute();
  await backfillVerdicts(db as unknown as Kysely<ChecksAt005>);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('checks').dropColumn('input_values').execute();
  await db.schema.alterTable('checks').dropColumn('verdict').execute();
  await db.schema.alterTable('batches').dropColumn('input_columns').execute();
  await db.schema.alterTable('batches').dropColumn('name').execute();
}
