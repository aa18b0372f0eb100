// Markdown for the CLI's `--format markdown` (GitHub-flavoured: tables), safe for any text the checked pages or
// the user's spreadsheet put in a cell: nothing in a value can start a link, close a code span or split a table.

/** Plain text with Markdown's punctuation escaped and line breaks folded, for a sentence or a table cell. */
export function mdText(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\\`*_{}[\]<>|#!~]/g, (c) => `\\${c}`);
}

/** A code span (URLs, codes, slugs): a fence longer than any run of backticks inside. */
export function mdCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A table. Cells are Markdown already (mdText / mdCode); a `|` inside a code span is escaped here, which GFM
 * tables undo before reading the span. `align` per column: 'r' for numbers.
 */
export function mdTable(header: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const cell = (value: string) => value.replace(/(?<!\\)\|/g, '\\|');
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${header.map((_, i) => (align[i] === 'r' ? '---:' : '---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
