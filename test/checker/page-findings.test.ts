import { describe, expect, it } from 'vitest';
import { isSoft404Title } from '../../src/checker/analysis/page-findings.js';
import { isRootPath, readParams, registrableDomain } from '../../src/checker/analysis/url-facts.js';

describe('isSoft404Title', () => {
  it.each([
    'Page not found | Shop',
    'Product Not Found',
    '404',
    '404 | Shop',
    '404 - Page not found',
    'Error 404 – Shop',
    'Fehler 404',
    '404 Seite nicht gefunden',
    'Seite nicht gefunden – Shop',
    'Page introuvable',
    'Página no encontrada',
    'Pagina niet gevonden',
    'Oops! 404 error',
  ])('%s → soft 404', (title) => {
    expect(isSoft404Title(title)).toBe(true);
  });

  it.each([
    null,
    '',
    'Peugeot 404 diecast model 1:43 | Shop',
    'Levi’s 404 Slim Jeans',
    'Trail shoe 42 | Shop',
    'Found: the perfect gift',
    'Room 1404 hotel booking',
  ])('%s → a normal page', (title) => {
    expect(isSoft404Title(title)).toBe(false);
  });
});

describe('url facts', () => {
  it.each(['/', '', '/en', '/en/', '/en-gb/', '/en_GB', '/zh-hans/', '/index.html', '/de/index.php'])('%s is a front page', (path) => {
    expect(isRootPath(path)).toBe(true);
  });

  it.each(['/product/42', '/sale/', '/shoes', '/en/shoes', '/index.html/x', '/search'])('%s is not a front page', (path) => {
    expect(isRootPath(path)).toBe(false);
  });

  it('reads query and #key=value fragment parameters', () => {
    const params = readParams('https://shop.example/p?a=1#tap_a=2&tap_s=3');
    expect([...params.keys()]).toEqual(['a', 'tap_a', 'tap_s']);
    expect(readParams('https://shop.example/#/cart?ref=9').get('ref')).toBe('9');
    expect([...readParams('https://shop.example/#section').keys()]).toEqual([]);
    expect([...readParams('::').keys()]).toEqual([]);
  });

  it('registrable domains follow the public suffix list', () => {
    expect(registrableDomain('https://www.shop.example.co.uk/x')).toBe('example.co.uk');
    expect(registrableDomain('http://127.0.0.1:8080/')).toBe('127.0.0.1');
    expect(registrableDomain('nope')).toBeNull();
  });
});
