// Tables label their cells from their own header row, for the stacked (one card per row) layout on phones.
import { describe, expect, it } from 'vitest';
import { labelCells, tableRegion } from '../../src/web/tables.js';

describe('tables at any width', () => {
  it('labels every body cell with its column header; a visually hidden header gives an empty label', () => {
    const table = `<table>
<thead><tr><th scope="col">Name</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody><tr>
<td>ci</td>
<td class="n"><time>3 Jan 2026</time></td>
<td><a href="/x">Revoke…</a></td>
</tr><tr><td>b</td><td>c</td><td>d</td></tr></tbody></table>`;
    const labelled = labelCells(table);
    expect(labelled.match(/data-label="[^"]*"/g)).toEqual([
      'data-label="Name"',
      'data-label="Last used"',
      'data-label=""',
      'data-label="Name"',
      'data-label="Last used"',
      'data-label=""',
    ]);
    expect(labelled).toContain('<td data-label="Last used" class="n"><time>');
    expect(labelled).toContain('<th scope="col">Name</th>');
  });

  it('skips a row header, which stands for its column', () => {
    const table =
      '<table><thead><tr><th>Browser</th><th>Click id</th></tr></thead><tbody><tr><th scope="row">Safari</th><td>yes</td></tr></tbody></table>';
    expect(labelCells(table)).toContain('<tr><th scope="row">Safari</th><td data-label="Click id">yes</td></tr>');
  });

  it('puts the table in a named, focusable scroll region and marks it to stack on narrow screens', () => {
    const html = tableRegion('Your "keys"', '<table><thead><tr><th>#</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>');
    expect(html).toBe(
      '<div class="table-wrap" role="region" tabindex="0" aria-label="Your &quot;keys&quot;"><table class="stack"><thead><tr><th>#</th></tr></thead><tbody><tr><td data-label="#">1</td></tr></tbody></table></div>',
    );
  });
});
