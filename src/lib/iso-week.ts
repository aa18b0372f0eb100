// ISO-8601 weeks in UTC, for the anonymous weekly cap: weeks start on Monday 00:00 UTC.
const DAY_MS = 86_400_000;

export interface IsoWeek {
  /** e.g. 2026-W47 */
  key: string;
  /** Epoch ms of the next Monday 00:00 UTC, when the cap resets. */
  endsAt: number;
}

export function isoWeekOf(nowMs: number): IsoWeek {
  const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const weekday = (new Date(dayStart).getUTCDay() + 6) % 7; // Monday = 0
  const monday = dayStart - weekday * DAY_MS;
  // The ISO year is the year of the week's Thursday; week 1 holds that year's first Thursday.
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { key: `${year}-W${String(week).padStart(2, '0')}`, endsAt: monday + 7 * DAY_MS };
}
