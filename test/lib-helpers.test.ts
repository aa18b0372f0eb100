// The shared helpers of src/lib that every list and lookup uses: page cursors, UUID ids, ISO timestamps.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../src/lib/cursor.js';
import { isUuid } from '../src/lib/uuid.js';
import { isoAt } from '../src/lib/iso-timestamp.js';
import { readCursor } from '../src/services/cursor.js';

describe('lib helpers', () => {
  it('a cursor reads back as the position it was made from, and anything else is not a cursor', () => {
    const raw = encodeCursor('2026-11-24T22:00:00.000Z', 'abc123');
    expect(decodeCursor(raw)).toEqual({ createdAt: '2026-11-24T22:00:00.000Z', key: 'abc123' });
    for (const bad of ['', 'x', encodeCursor('not a time', 'a'), Buffer.from('2026-11-24T22:00:00Z|a|b').toString('base64url')]) {
      expect(decodeCursor(bad)).toBeNull();
    }
    expect(readCursor(undefined)).toBeNull();
    expect(readCursor(raw)).toEqual({ createdAt: '2026-11-24T22:00:00.000Z', id: 'abc123' });
    expect(() => readCursor('x')).toThrow(/nextCursor of a previous page/);
  });

  it('a UUID is the lowercase form randomUUID gives', () => {
    expect(isUuid(crypto.randomUUID())).toBe(true);
    expect(isUuid('6F9619FF-8B86-D011-B42D-00C04FC964FF')).toBe(false);
    expect(isUuid('6f9619ff-8b86-d011-b42d-00c04fc964f')).toBe(false);
  });

  it('isoAt writes the fixed-width UTC form', () => {
    expect(isoAt(Date.UTC(2026, 10, 24, 22, 16, 33))).toBe('2026-11-24T22:16:33.000Z');
  });
});
