// The words every human-facing channel (Slack, email) uses for an event, so they never disagree.
import type { Alert, AlertEventType, JsonValue, MonitorState } from './types.js';

export const MAX_LISTED_CHANGES = 10;
const MAX_VALUE_LENGTH = 120;
const MAX_NAME_LENGTH = 100;
const MAX_FIELD_LENGTH = 80;

export interface AlertSummary {
  /** "Link broken: <name or host>" — the email subject and the Slack header. */
  subject: string;
  /** The verdict in words. */
  headline: string;
  /** The monitored link. */
  linkUrl: string;
  /** "field: from → to", at most MAX_LISTED_CHANGES of them. */
  changes: string[];
  /** How many changes were left out of `changes`. */
  moreChanges: number;
  reportUrl: string;
  previousReportUrl: string | null;
}

const SUBJECT_PREFIX: Record<AlertEventType, string> = {
  'monitor.broken': 'Link broken',
  'monitor.recovered': 'Link recovered',
  'monitor.changed': 'Link changed',
};

const CHANGED_STILL: Record<MonitorState, string> = {
  healthy: 'clicks are still attributed',
  broken: 'the link is still broken',
  unknown: 'whether clicks are attributed could not be verified',
  pending: 'whether clicks are attributed is not known yet',
};

function headlineFor(type: AlertEventType, state: MonitorState): string {
  switch (type) {
    case 'monitor.broken':
      return 'This link is broken: clicks on it will not be attributed (confirmed by a second check).';
    case 'monitor.recovered':
      return 'This link works again: clicks on it will be attributed.';
    case 'monitor.changed':
      return `The redirect chain of this link changed; ${CHANGED_STILL[state]}.`;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Control characters would break a subject line or a list item. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

export function formatValue(value: JsonValue): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(formatValue).join(', ');
  return JSON.stringify(value);
}

/** The monitor's name, or the link's host when it has none. */
export function displayName(monitor: Alert['monitor']): string {
  const name = monitor.name === null ? '' : oneLine(monitor.name);
  if (name !== '') return clip(name, MAX_NAME_LENGTH);
  try {
    return new URL(monitor.url).hostname;
  } catch {
    return clip(oneLine(monitor.url), MAX_NAME_LENGTH);
  }
}

export function summarizeAlert(alert: Alert): AlertSummary {
  const { event } = alert;
  const listed = event.changes.slice(0, MAX_LISTED_CHANGES);
  const changes = listed.map((c) => {
    const from = clip(oneLine(formatValue(c.from)), MAX_VALUE_LENGTH);
    const to = clip(oneLine(formatValue(c.to)), MAX_VALUE_LENGTH);
    return `${clip(oneLine(c.field), MAX_FIELD_LENGTH)}: ${from} → ${to}`;
  });
  return {
    subject: `${SUBJECT_PREFIX[event.type]}: ${displayName(alert.monitor)}`,
    headline: headlineFor(event.type, alert.monitor.state),
    linkUrl: alert.monitor.url,
    changes,
    moreChanges: event.changes.length - listed.length,
    reportUrl: alert.reportUrl,
    previousReportUrl: alert.previousReportUrl,
  };
}
