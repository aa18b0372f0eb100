// Data tables that work at any width. On a wide screen a table sits in a scroll box that the keyboard can reach
// (a focusable, named region: a box that scrolls only for mice hides its columns from everyone else); on a narrow
// screen (styles.ts, `table.stack`) each row becomes a card and each cell shows its column's name from data-label,
// so nothing scrolls sideways at all.
import { escapeHtml } from './html.js';

/** A table in its keyboard-reachable scroll box; `label` names the region for screen readers. */
export function tableRegion(label: string, table: string): string {
  return `<div class="table-wrap" role="region" tabindex="0" aria-label="${escapeHtml(label)}">${table}</div>`;
}

/** A cell that names its column when rows stack: `label` is plain text, `html` is already escaped. */
export function cell(label: string, html: string, className?: string): string {
  return `<td${className ? ` class="${className}"` : ''} data-label="${escapeHtml(label)}">${html}</td>`;
}
