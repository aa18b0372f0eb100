import { describe, expect, it } from 'vitest';
import { containsMacro, findMacros } from '../../src/checker/analysis/macros.js';

const tokens = (url: string): string[] => findMacros(url).map((hit) => hit.token);

describe('findMacros: placeholders that travel unfilled', () => {
  it.each([
    ['https://shop.example/?sub={clickid}', '{clickid}'],
    ['https://shop.example/?sub={{sub}}', '{{sub}}'],
    ['https://shop.example/?sub={{ aff_sub }}', '{{ aff_sub }}'],
    ['https://shop.example/?sub=%7Bsubid%7D', '{subid}'],
    ['https://shop.example/?sub=%257Bsubid%257D', '{subid}'],
    ['https://shop.example/?irclickid=[CLICK_ID]', '[CLICK_ID]'],
    ['https://shop.example/?irclickid=%5BCLICK_ID%5D', '[CLICK_ID]'],
    ['https://shop.example/?cf=[ClickId]', '[ClickId]'],
    ['https://shop.example/?id=#clickid#', '#clickid#'],
    ['https://shop.example/?id=%23clickid%23', '#clickid#'],
    ['https://shop.example/?siteid=^^^siteid^^^', '^^^siteid^^^'],
    ['https://shop.example/?siteid=%5E%5E%5Esiteid%5E%5E%5E', '^^^siteid^^^'],
    ['https://shop.example/?c=$CLICKID$', '$CLICKID$'],
    ['https://shop.example/?clickid=%DCI%', '%DCI%'],
    ['https://shop.example/?clickid=%CLICK_ID%', '%CLICK_ID%'],
    ['https://shop.example/?t=${transaction_id}', '{transaction_id}'],
    ['https://shop.example/p/{product_id}/view', '{product_id}'],
    ['https://shop.example/p/[id]', '[id]'],
    [`https://www.awin1.com/cread.php?ued=${encodeURIComponent('https://shop.example/?s={clickid}')}`, '{clickid}'],
  ])('%s → %s', (url, token) => {
    expect(tokens(url)).toEqual([token]);
  });

  it('names the parameter that carries the placeholder', () => {
    expect(findMacros('https://shop.example/?a=1&clickref={subid}')).toEqual([{ token: '{subid}', param: 'clickref' }]);
    expect(findMacros('https://shop.example/x/{id}')).toEqual([{ token: '{id}', param: null }]);
  });

  it('reports each token once and several different tokens', () => {
    expect(tokens('https://shop.example/?a={sub}&b={sub}&c=[CLICK_ID]')).toEqual(['{sub}', '[CLICK_ID]']);
  });
});

describe('findMacros: ordinary URLs are not placeholders', () => {
  it.each([
    ['a plain product URL', 'https://shop.example.com/product/42?colour=red&size=9'],
    ['a section fragment', 'https://shop.example.com/help#section'],
    ['a hash route', 'https://shop.example.com/#/products/42?ref=home'],
    ['a hashbang', 'https://shop.example.com/#!/cart'],
    ['a text fragment', 'https://shop.example.com/blog#:~:text=free%20shipping'],
    ['JSON in a value', `https://shop.example.com/?state=${encodeURIComponent('{"page":2,"sort":"price"}')}`],
    ['a JSON array in a value', `https://shop.example.com/?ids=${encodeURIComponent('["a","b"]')}`],
    ['numbers in brackets', `https://shop.example.com/?range=${encodeURIComponent('[10,20]')}`],
    ['base64', 'https://shop.example.com/?d=eyJhIjoiYiJ9&e=aGVsbG8gd29ybGQ%3D'],
    ['brackets in parameter names', 'https://shop.example.com/?filter[color]=red&ids[]=1&FILTER[COLOR]=blue'],
    ['a lower-case word in brackets in a value', `https://shop.example.com/?q=${encodeURIComponent('shoes [sale]')}`],
    ['an upper-case word in brackets', `https://shop.example.com/?q=${encodeURIComponent('[NEW] trainers')}`],
    ['prices and dollar signs', `https://shop.example.com/?q=${encodeURIComponent('under $50 $ deals')}`],
    ['accented text', 'https://shop.example.com/caf%C3%A9-cr%C3%A8me?q=%C3%A9t%C3%A9%20SALE%20'],
    ['an encoded percent sign', 'https://shop.example.com/?discount=20%25OFF%25'],
    ['a hex-heavy id', 'https://shop.example.com/?awc=1234_1700000000_ABCDEF0123%25'],
    ['an empty pair of braces', `https://shop.example.com/?x=${encodeURIComponent('{}')}`],
    ['a malformed escape', 'https://shop.example.com/?q=100%'],
  ])('%s', (_name, url) => {
    expect(tokens(url)).toEqual([]);
  });

  it('a URL that does not parse yields nothing', () => {
    expect(findMacros('not a url')).toEqual([]);
  });
});

describe('containsMacro', () => {
  it('tells a placeholder value from a real one', () => {
    expect(containsMacro('{clickid}')).toBe(true);
    expect(containsMacro('%7Bclickid%7D')).toBe(true);
    expect(containsMacro('1_abc123')).toBe(false);
    expect(containsMacro('')).toBe(false);
  });
});
