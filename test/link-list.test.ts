// The one reader of link lists behind the batch page and `trackcheck batch`: which column holds the links, and
// which other columns are kept (and under which names) to be carried to the results.
import { describe, expect, it } from 'vitest';
import { LinkListError, parseLinkTable } from '../src/lib/link-list.js';
import { parseLinkList } from '../src/web/batch-input.js';
import { parseBatchInput } from '../src/cli/batch-input.js';
import { inputColumnHeaders, inputColumnsProblem } from '../src/services/batch-columns.js';
import { RESULT_COLUMNS } from '../src/services/batch-csv.js';

describe('parseLinkTable', () => {
  it('keeps the other columns of each row, trimmed, in header order; short rows get empty cells', () => {
    const table = parseLinkTable('\uFEFFcampaign, URL ,placement\r\n" Spring ",https://a.example/1,home\r\nSale,https://b.example/2\r\n');
    expect(table).toEqual({
      format: 'csv',
      columns: ['campaign', 'placement'],
      links: [
        { url: 'https://a.example/1', line: 2, values: ['Spring', 'home'] },
        { url: 'https://b.example/2', line: 3, values: ['Sale', ''] },
      ],
    });
  });

  it('names unnamed columns that hold something, drops empty ones, and makes repeated names unique', () => {
    const table = parseLinkTable('url,note,,note,\nhttps://a.example/,a,x,b,\nhttps://b.example/,c,,d,\n');
    expect(table.columns).toEqual(['note', 'column_3', 'note_2']);
    expect(table.links.map((l) => l.values)).toEqual([
      ['a', 'x', 'b'],
      ['c', '', 'd'],
    ]);
  });

  it('without a named link column: the column holding links, the row above it as the header', () => {
    expect(parseLinkTable('name,website\nShoes,https://a.example/\n', { csv: true })).toEqual({
      format: 'csv',
      columns: ['name'],
      links: [{ url: 'https://a.example/', line: 2, values: ['Shoes'] }],
    });
    // No header at all: nothing to name the other cells by.
    expect(parseLinkTable('Shoes,https://a.example/\n', { csv: true }).columns).toEqual([]);
    expect(() => parseLinkTable('a,b\n1,2\n', { csv: true })).toThrow(LinkListError);
  });

  it('a plain list has no columns; a first line naming a link column makes a CSV', () => {
    expect(parseLinkTable('https://a.example/?x=1,2\n').format).toBe('lines');
    expect(parseLinkTable('https://a.example/?x=1,2\n').columns).toEqual([]);
    expect(parseLinkTable('Tracking URL\thint\nhttps://a.example/\tx\n')).toMatchObject({ format: 'csv', columns: ['hint'] });
  });

  it('is the same reader on the batch page and in the CLI', () => {
    const text = 'campaign;link;status\nSpring;https://a.example/;live\n# paused\nSale;https://b.example/;off\n';
    const web = parseLinkList(text);
    const cli = parseBatchInput(text);
    expect(web).toEqual({
      urls: cli.links.map((l) => l.url),
      lines: cli.links.map((l) => l.line),
      columns: cli.columns,
      values: cli.links.map((l) => l.values),
    });
    expect(web.columns).toEqual(['campaign', 'status']);
    expect(web.lines).toEqual([2, 4]);
  });
});

describe('input columns', () => {
  it('appends input columns after the standard ones, input_<name> where a name is taken (any case)', () => {
    expect(inputColumnHeaders(['campaign', 'URL', 'status', 'input_status', 'Status'], RESULT_COLUMNS)).toEqual([
      'campaign',
      'input_URL',
      'input_status',
      'input_input_status',
      'input_Status_2',
    ]);
  });

  it('checks the limits the service applies', () => {
    expect(inputColumnsProblem(['a'], [['x'], ['y']], 2)).toBeNull();
    expect(inputColumnsProblem(['a', 'a'], [['x', 'y']], 1)).toContain('appears twice');
    expect(inputColumnsProblem(['a'], [['x']], 2)).toContain('values has 1 rows for 2 urls');
    expect(inputColumnsProblem(['a'], [['x'.repeat(1001)]], 1)).toContain('at most 1000 characters');
    expect(inputColumnsProblem(['a\nb'], [['x']], 1)).toContain('control character');
  });
});
