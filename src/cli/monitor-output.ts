// How `trackcheck monitor` prints monitors and their events: text for people (aligned columns, one block per
// monitor), or the API's JSON objects unchanged for programs.
import type { Monitor, MonitorChannel, MonitorEvent } from '../client/index.js';

export type MonitorFormat = 'text' | 'json';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function intervalText(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}

function channelText(c: MonitorChannel): string {
  if (c.type === 'email') return `email ${c.to}`;
  // A Slack webhook's path is a credential: the terminal (and its scrollback) gets the host only.
  if (c.type === 'slack') return `slack ${URL.canParse(c.url) ? new URL(c.url).host : ''}`.trim();
  return `webhook ${c.url}${c.hasSecret ? ' (signed)' : ''}`;
}

function value(v: unknown): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map(value).join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const table = (rows: string[][]) => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

export function formatMonitorList(monitors: Monitor[], format: MonitorFormat): string {
  if (format === 'json') return json(monitors);
  if (monitors.length === 0) return 'no monitors\n';
  const rows = monitors.map((m) => [
    m.id,
    m.state,
    m.paused ? 'paused' : intervalText(m.intervalMinutes),
    m.lastRunAt ?? '-',
    m.name === null ? m.url : `${m.name}  ${m.url}`,
  ]);
  return `${table([['ID', 'STATE', 'EVERY', 'LAST RUN', 'NAME / URL'], ...rows])}\n`;
}

function eventText(e: MonitorEvent): string {
  const lines = [
    `${e.createdAt}  ${e.type}  report ${e.checkSlug}${e.previousCheckSlug === null ? '' : ` (before: ${e.previousCheckSlug})`}`,
  ];
  for (const c of e.changes) lines.push(`    ${c.field}: ${value(c.from)} → ${value(c.to)}`);
  for (const d of e.deliveries) {
    const attempts = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
    lines.push(`    → ${channelText(d.channel)}: ${d.status} after ${attempts}${d.lastError === null ? '' : ` (${d.lastError})`}`);
  }
  return lines.join('\n');
}

export function formatMonitor(m: Monitor, events: MonitorEvent[] | null, format: MonitorFormat): string {
  if (format === 'json') return json(events === null ? m : { ...m, events });
  const last = m.lastCheck;
  const rows: [string, string][] = [
    ['id', m.id],
    ['name', m.name ?? '-'],
    ['url', m.url],
    ['state', m.state],
    ['check', `${m.checkType} every ${intervalText(m.intervalMinutes)}${m.paused ? ' (paused)' : ''}`],
    ['last run', m.lastRunAt ?? 'not yet'],
    ['next run', m.paused ? 'paused' : (m.nextRunAt ?? '-')],
    [
      'last check',
      last === null
        ? '-'
        : `${last.slug}${last.healthScore === null ? '' : `, health ${last.healthScore}/100`}${last.finalUrl === null ? '' : `, lands on ${last.finalUrl}`}`,
    ],
    ['alerts', m.channels.length === 0 ? 'none' : m.channels.map(channelText).join('; ')],
    ['created', m.createdAt],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  let text = rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
  if (events !== null) text += `\n\n${events.length === 0 ? 'no events yet' : `recent events:\n${events.map(eventText).join('\n')}`}`;
  return `${text}\n`;
}
