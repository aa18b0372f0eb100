// The opaque cursor of a newest-first listing keyed by (created_at, id): batches and scans.
import { DomainError } from './domain-error.js';

export interface ListCursor {
  createdAt: string;
  id: string;
}

export function encodeListCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');
}

/** The cursor's position; one this service did not hand out is `400 invalid_parameter`. */
export function decodeListCursor(raw: string): ListCursor {
  const [createdAt, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || extra !== undefined || Number.isNaN(Date.parse(createdAt))) {
    throw new DomainError('invalid_parameter', 'cursor is not one this service handed out; use the nextCursor of a previous page.');
  }
  return { createdAt, id };
}
