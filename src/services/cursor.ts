// A list's `cursor` parameter read for a service: the position it names, or a 400 when it is not a cursor this
// service handed out (lib/cursor.ts is the encoding).
import { decodeCursor } from '../lib/cursor.js';
import { DomainError } from './domain-error.js';

export { encodeCursor } from '../lib/cursor.js';

/** The (created_at, id) the next page starts after; `undefined` (first page) is null. */
export function readCursor(raw: string | undefined): { createdAt: string; id: string } | null {
  if (raw === undefined) return null;
  const cursor = decodeCursor(raw);
  if (cursor === null)
    throw new DomainError('invalid_parameter', 'cursor is not one this service handed out; use the nextCursor of a previous page.');
  return { createdAt: cursor.createdAt, id: cursor.key };
}
