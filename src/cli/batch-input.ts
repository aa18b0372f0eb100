// The links of `trackcheck batch`, read by the parser the batch page uses too (src/lib/link-list.ts): one per line,
// or a CSV with a link column (`url`, `link`… or --column <name>) whose other columns are kept per link. Every link
// is checked here first (an http(s) URL), and so are the other columns against the service's limits, so a typo
// on line 1,203 stops the run before the first 500 links are submitted; the service still validates each batch.
import { UsageError } from './remote.js';
import { inInputTerms, LinkListError, parseLinkTable } from '../lib/link-list.js';
import { inputColumnsProblem } from '../services/batch-columns.js';

export interface InputLink {
  url: string;
  /** Where it came from in the input, 1-based. */
  line: number;
  /** Its cells of the input's other columns (`ParsedInput.columns`). */
  values: string[];
}

export interface ParsedInput {
  format: 'lines' | 'csv';
  links: InputLink[];
  /** A CSV's columns besides the link column, carried to the results. */
  columns: string[];
}

const MAX_REPORTED = 10;

function linkProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a URL: "${url.length > 80 ? `${url.slice(0, 77)}...` : url}"`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `only http and https links can be checked, not ${parsed.protocol}`;
  if (parsed.username !== '' || parsed.password !== '') return 'a link with credentials in it is refused';
  return null;
}

function validate(links: InputLink[]): InputLink[] {
  const problems = links.flatMap((link) => {
    const problem = linkProblem(link.url);
    return problem === null ? [] : [`line ${link.line}: ${problem}`];
  });
  if (problems.length > 0) {
    const more = problems.length > MAX_REPORTED ? `\n… and ${problems.length - MAX_REPORTED} more` : '';
    throw new UsageError(
      `${problems.length} invalid ${problems.length === 1 ? 'link' : 'links'}, nothing submitted:\n${problems.slice(0, MAX_REPORTED).join('\n')}${more}`,
    );
  }
  if (links.length === 0) throw new UsageError('no links in the input (one URL per line, or a CSV with a url column)');
  return links;
}

/**
 * The service's limits on the other columns, per batch of `chunkSize` links, checked before anything is sent;
 * its `values[i]` / `columns[i]` become a line and a column name.
 */
export function checkInputColumns(input: ParsedInput, chunkSize: number): void {
  if (input.columns.length === 0) return;
  for (let start = 0; start < input.links.length; start += chunkSize) {
    const chunk = input.links.slice(start, start + chunkSize);
    const problem = inputColumnsProblem(
      input.columns,
      chunk.map((l) => l.values),
      chunk.length,
    );
    if (problem === null) continue;
    const readable = inInputTerms(problem, (i) => (chunk[i] ? `line ${chunk[i].line}` : undefined), input.columns);
    throw new UsageError(`${readable.replace(/^columns: /, '')} Nothing submitted.`);
  }
}

export function parseBatchInput(input: string, options: { column?: string; csv?: boolean } = {}): ParsedInput {
  try {
    const table = parseLinkTable(input, options);
    return { format: table.format, links: validate(table.links), columns: table.columns };
  } catch (err) {
    if (!(err instanceof LinkListError)) throw err;
    throw new UsageError(`${err.message}; name the link column with --column`);
  }
}
