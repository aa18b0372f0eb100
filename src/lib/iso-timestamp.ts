// ISO-8601 timestamps read strictly. Date.parse rolls impossible dates over ("2030-02-30" is 2 March, "24:00" the
// next day) and accepts forms that are not ISO-8601 at all, so a client's typo became a different instant.

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Epoch milliseconds of `YYYY-MM-DDThh:mm[:ss[.fraction]]` with `Z` or a `±hh[:]mm` offset, or null when the text is
 * not in that form or names a time that does not exist (month 13, 30 February, hour 24, minute 60, offset +25:00).
 */
export function parseIsoTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // years 0–99 too, which Date.UTC would move to the 1900s
  date.setUTCHours(hour, minute, second, millis);
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() - offset;
}

/** A calendar date `YYYY-MM-DD` as the epoch milliseconds of its 00:00 UTC, or null when it does not exist. */
export function parseIsoDate(text: string): number | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseIsoTimestamp(`${text}T00:00:00Z`) : null;
}

/** Epoch milliseconds as the ISO-8601 UTC timestamp every stored and served time uses (`2026-11-24T22:16:33.000Z`). */
export const isoAt = (ms: number): string => new Date(ms).toISOString();
