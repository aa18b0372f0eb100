// The input of `trackcheck batch`: plain lines, CSV (quoted fields, BOM, ; delimiter, --column), and the
// refusals that stop a run before anything is submitted.
import { describe, expect, it } from 'vitest';
import { parseBatchInput } from '../../src/cli/batch-input.js';
import { parseCsv } from '../../src/lib/csv.js';
import { UsageError } from '../../src/cli/remote.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and LF, and a BOM', () => {
    const text =
      '\uFEFFname,url\r\n"Shoes, red","https://a.example/p?x=1,2"\r\n"He said ""hi""\nthere",https://b.example/\nlast,https://c.example/';
    expect(parseCsv(text)).toEqual([
      { fields: ['name', 'url'], line: 1 },
      { fields: ['Shoes, red', 'https://a.example/p?x=1,2'], line: 2 },
      { fields: ['He said "hi"\nthere', 'https://b.example/'], line: 3 },
      { fields: ['last', 'https://c.example/'], line: 5 },
    ]);
  });

  it('keeps empty fields and ignores a final line break', () => {
    expect(parseCsv('a,,c\n,,\n')).toEqual([
      { fields: ['a', '', 'c'], line: 1 },
      { fields: ['', '', ''], line: 2 },
    ]);
  });
});

describe('parseBatchInput', () => {
  it('takes one link per line, skipping blank lines and # comments, CRLF or LF', () => {
    const text =
      '# spring campaign\r\nhttps://a.example/1\r\n\r\n   https://b.example/2?x=1,2  \n#https://skipped.example/\nhttps://c.example/3#frag\n';
    expect(parseBatchInput(text)).toEqual({
      format: 'lines',
      links: [
        { url: 'https://a.example/1', line: 2, values: [] },
        { url: 'https://b.example/2?x=1,2', line: 4, values: [] },
        { url: 'https://c.example/3#frag', line: 6, values: [] },
      ],
      columns: [],
    });
  });

  it('recognises a CSV by its url column (any case), with a BOM, quotes and empty cells', () => {
    const text =
      '\uFEFFCampaign,URL,notes\r\n"Spring, 2025","https://a.example/p?sizes=4,5",""\r\nSummer,,no link yet\r\n,,\r\nAutumn,https://b.example/,"multi\nline"\r\n';
    expect(parseBatchInput(text)).toEqual({
      format: 'csv',
      links: [
        { url: 'https://a.example/p?sizes=4,5', line: 2, values: ['Spring, 2025', ''] },
        { url: 'https://b.example/', line: 5, values: ['Autumn', 'multi\nline'] },
      ],
      columns: ['Campaign', 'notes'],
    });
  });

  it('uses --column, semicolon CSVs, link columns by other names, and refuses a .csv without links naming its columns', () => {
    const text = 'name;tracking link;website\nA;https://a.example/;https://a-shop.example/\nB;https://b.example/;\n';
    expect(parseBatchInput(text, { column: 'Website' }).links.map((l) => l.url)).toEqual(['https://a-shop.example/']);
    // The batch page's names for the link column, now the CLI's too.
    const named = parseBatchInput(text, { csv: true });
    expect(named.links.map((l) => [l.url, ...l.values])).toEqual([
      ['https://a.example/', 'A', 'https://a-shop.example/'],
      ['https://b.example/', 'B', ''],
    ]);
    expect(named.columns).toEqual(['name', 'website']);
    expect(refusal(() => parseBatchInput('name;site\nA;shop\n', { csv: true }))).toBe(
      'no links found: the CSV has no column named "url" (or "link") (columns: "name", "site"), and no cell starts with http:// or https://; name the link column with --column',
    );
    expect(refusal(() => parseBatchInput('a,b\n1,2\n', { column: 'link' }))).toContain('no column "link"');
  });

  it('a lone header line "url" is a CSV, not a link', () => {
    expect(parseBatchInput('url\nhttps://a.example/\n')).toEqual({
      format: 'csv',
      links: [{ url: 'https://a.example/', line: 2, values: [] }],
      columns: [],
    });
  });

  it('refuses invalid links by line, all at once, before anything is submitted', () => {
    const message = refusal(() => parseBatchInput('https://ok.example/\nnot a link\nftp://files.example/x\nhttps://user:pw@x.example/\n'));
    expect(message).toBe(
      '3 invalid links, nothing submitted:\nline 2: not a URL: "not a link"\nline 3: only http and https links can be checked, not ftp:\nline 4: a link with credentials in it is refused',
    );
    const many = refusal(() => parseBatchInput(Array.from({ length: 15 }, (_, i) => `bad${i}`).join('\n')));
    expect(many).toContain('line 10: not a URL');
    expect(many).not.toContain('line 11:');
    expect(many).toContain('… and 5 more');
  });

  it('refuses an input without links', () => {
    expect(refusal(() => parseBatchInput('\n# nothing here\n\n'))).toContain('no links in the input');
    expect(refusal(() => parseBatchInput('\uFEFF'))).toContain('no links');
    expect(refusal(() => parseBatchInput('url,name\n'))).toContain('no links');
  });
});

describe('delimiter detection', () => {
  it('reads the header line, not a leading comment or blank line', () => {
    const text = '# exported 2025-03-01, commas, everywhere\n\nname;url\nA;https://a.example/?x=1,2\n';
    expect(parseBatchInput(text).links).toEqual([{ url: 'https://a.example/?x=1,2', line: 4, values: ['A'] }]);
  });
});
