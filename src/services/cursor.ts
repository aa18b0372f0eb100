// A list's `cursor` parameter read for a service (the position it names, or a 400 when it is not a cursor this
// service handed out), and one page cut from a list read one row long (lib/cursor.ts is the encoding).
import { decodeCursor, encodeCursor } from '../lib/cursor.js';
import { DomainError } from './domain-error.js';

/** The (created_at, id) the next page starts after; `undefined` (first page) is null. */
export function readCursor(raw: string | undefined): { createdAt: string; id: string } | null {
  if (raw === undefined) return null;
  const cursor = decodeCursor(raw);
  if (cursor === null)
    throw new DomainError('invalid_parameter', 'cursor is not one this service handed out; use the nextCursor of a previous page.');
  return { createdAt: cursor.createdAt, id: cursor.key };
}

/**
 * One page of a list read with `limit + 1` rows (the extra row only says that a next page exists): the rows to show,
 * and the cursor of the next page (after the last row shown), or null on the last page.
 */
export function splitPage<R extends { created_at: string }>(
  rows: readonly R[],
  limit: number,
  keyOf: (row: R) => string,
): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, keyOf(last)) : null };
}
