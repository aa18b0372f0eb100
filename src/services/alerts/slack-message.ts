// The Slack incoming-webhook payload: `text` is the notification fallback, `blocks` the readable message.
// Everything user-controlled is escaped, so a monitor name cannot turn into a mention or a fake link.
import { summarizeAlert } from './summary.js';
import type { Alert } from './types.js';

type PlainText = { type: 'plain_text'; text: string; emoji: boolean };
type Mrkdwn = { type: 'mrkdwn'; text: string };

export type SlackBlock = { type: 'header'; text: PlainText } | { type: 'section'; text: Mrkdwn } | { type: 'context'; elements: Mrkdwn[] };

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

// Slack's limits: a header holds 150 characters, a section 3000.
const MAX_HEADER = 150;
const MAX_SECTION = 3000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack's three control characters; `<!channel>` and `<@U123>` only work unescaped. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<url|label>`; a `|` inside the URL would end it early, and is the same URL percent-encoded. */
function link(url: string, label: string): string {
  return `<${escapeMrkdwn(url.replace(/\|/g, '%7C'))}|${escapeMrkdwn(label)}>`;
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, MAX_SECTION) } };
}

export function buildSlackMessage(alert: Alert): SlackMessage {
  const s = summarizeAlert(alert);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(s.subject, MAX_HEADER), emoji: false } },
    section(`*${escapeMrkdwn(s.headline)}*\n${link(s.linkUrl, s.linkUrl)}`),
  ];
  if (s.changes.length > 0) {
    const lines = s.changes.map((line) => `• ${escapeMrkdwn(line)}`);
    if (s.moreChanges > 0) lines.push(`…and ${s.moreChanges} more`);
    blocks.push(section(`*What changed*\n${lines.join('\n')}`));
  }
  const reports = [link(s.reportUrl, 'New report')];
  if (s.previousReportUrl !== null) reports.push(link(s.previousReportUrl, 'Previous report'));
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: reports.join('  ·  ') }] });
  // The top-level text is mrkdwn too: escaped like the blocks.
  return { text: escapeMrkdwn(`${s.subject}: ${s.headline}`), blocks };
}
