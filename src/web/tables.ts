// Data tables that work at any width. On a wide screen a table sits in a scroll box that the keyboard can reach
// (a focusable, named region: a box that scrolls only for mice hides its columns from everyone else); on a narrow
// screen (styles.ts, `table.stack`) each row becomes a card and each cell shows its column's name, so nothing
// scrolls sideways at all. The names come from the table's own header row, so a column added later is labelled too.
import { escapeHtml } from './html.js';

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '').trim();

/**
 * Each body cell gets `data-label` = its column's header text (a visually hidden header gives an empty label). A row
 * header (`<th scope="row">`) takes its column's place and shows as the card's title, so it needs no label.
 */
export function labelCells(table: string): string {
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? '';
  // Header texts are the page's own constants, already HTML; only a quote could end the attribute early.
  const labels = [...head.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => {
    const cell = m[1] ?? '';
    return cell.includes('visually-hidden') ? '' : stripTags(cell).replace(/"/g, '&quot;');
  });
  // Cell contents are escaped, so a literal `<td` is always a cell of this table.
  return table.replace(/<tr>([\s\S]*?)<\/tr>/g, (row, cells: string) => {
    if (!cells.includes('<td')) return row;
    let column = 0;
    return `<tr>${cells.replace(/<t([hd])\b/g, (tag: string, kind: string) => (kind === 'h' ? (column++, tag) : `<td data-label="${labels[column++] ?? ''}"`))}</tr>`;
  });
}

/** A `<table>…</table>` in its keyboard-reachable scroll box, stacking on narrow screens; `label` names the region. */
export function tableRegion(label: string, table: string): string {
  const stacked = labelCells(table.replace(/^\s*<table>/, '<table class="stack">'));
  return `<div class="table-wrap" role="region" tabindex="0" aria-label="${escapeHtml(label)}">${stacked}</div>`;
}
