// The opaque page cursor of every list endpoint: the last row's creation time and its key (id or slug), so the
// next page starts strictly after it in (created_at, key) order.

export interface PageCursor {
  createdAt: string;
  key: string;
}

export function encodeCursor(createdAt: string, key: string): string {
  return Buffer.from(`${createdAt}|${key}`).toString('base64url');
}

/** The cursor's position, or null when the text is not a cursor this service hands out. */
export function decodeCursor(raw: string): PageCursor | null {
  const [createdAt, key, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!createdAt || !key || extra !== undefined || Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt, key };
}
