// The alert email: a subject that says what happened and to which link, a plain-text part and an HTML
// part with the same content. Every value in the HTML is escaped; links are only ever our report URLs
// and the monitored http(s) link.
import { escapeHtml } from '../../lib/html-escape.js';
import { summarizeAlert } from './summary.js';
import type { Alert } from './types.js';

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** An anchor only for http(s) URLs; anything else is shown as text, never made clickable. */
function anchor(url: string, label: string): string {
  const safe = /^https?:\/\//i.test(url);
  return safe ? `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>` : escapeHtml(label);
}

export function buildEmailMessage(alert: Alert): EmailMessage {
  const s = summarizeAlert(alert);
  const more = s.moreChanges > 0 ? [`…and ${s.moreChanges} more`] : [];

  const text = [
    s.headline,
    '',
    `Link: ${s.linkUrl}`,
    ...(s.changes.length > 0 ? ['', 'What changed:', ...s.changes.map((c) => `- ${c}`), ...more] : []),
    '',
    `New report: ${s.reportUrl}`,
    ...(s.previousReportUrl !== null ? [`Previous report: ${s.previousReportUrl}`] : []),
    '',
    '-- ',
    'Sent by trackcheck because this monitor has an email channel.',
    '',
  ].join('\n');

  const changeItems = [...s.changes, ...more].map((c) => `<li>${escapeHtml(c)}</li>`).join('');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.4">',
    `<h2 style="margin:0 0 .5em">${escapeHtml(s.subject)}</h2>`,
    `<p><strong>${escapeHtml(s.headline)}</strong></p>`,
    `<p>Link: ${anchor(s.linkUrl, s.linkUrl)}</p>`,
    s.changes.length > 0 ? `<p>What changed:</p><ul>${changeItems}</ul>` : '',
    `<p>${anchor(s.reportUrl, 'New report')}`,
    s.previousReportUrl !== null ? ` · ${anchor(s.previousReportUrl, 'Previous report')}` : '',
    '</p>',
    '<p style="color:#666;font-size:small">Sent by trackcheck because this monitor has an email channel.</p>',
    '</body></html>',
  ].join('');

  return { subject: s.subject, text, html };
}
