// Times and durations in words people read. Pages are rendered on the server, which cannot know the reader's time
// zone, so instants are shown in UTC ("24 Nov 2026, 14:05 UTC") with the exact instant in `datetime` and `title`.
import { escapeHtml } from './html.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `24 Nov 2026, 14:05 UTC`. */
export function humanUtc(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** An instant as a <time> element: human text, the exact instant on hover and for machines. */
export function timeElement(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return escapeHtml(iso);
  const exact = date.toISOString();
  return `<time datetime="${exact}" title="${exact.replace('T', ' ').replace('Z', ' UTC')}">${humanUtc(date)}</time>`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A wait in words, to the two largest units: `5 days 10 hours`, `3 hours 12 minutes`, `42 seconds`. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  if (hours > 0) return minutes > 0 ? `${plural(hours, 'hour')} ${plural(minutes, 'minute')}` : plural(hours, 'hour');
  if (minutes > 0)
    return seconds > 0 && minutes < 5 ? `${plural(minutes, 'minute')} ${plural(seconds, 'second')}` : plural(minutes, 'minute');
  return plural(seconds, 'second');
}

/** A hop's time, short enough for the hop picture: `420 ms`, `10.2 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 100_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}
