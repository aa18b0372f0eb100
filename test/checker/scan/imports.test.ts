// The fence of src/checker/scan (see its README): pure code over the catalogue, no I/O.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCAN_DIR = fileURLToPath(new URL('../../../src/checker/scan/', import.meta.url));
const ALLOWED = new Set(['../networks/detect.js', '../analysis/url-facts.js', '../types.js', 'htmlparser2', 'node:zlib']);

function importsOf(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b(?:[^'"]*?from)?\s*'([^']+)'/gm)].map((match) => match[1] ?? '');
}

describe('src/checker/scan imports', () => {
  const files = readdirSync(SCAN_DIR).filter((name) => name.endsWith('.ts'));

  it.each(files)('%s imports only the catalogue, small helpers, htmlparser2 and zlib', (file) => {
    const source = readFileSync(`${SCAN_DIR}${file}`, 'utf8');
    expect(source).not.toMatch(/\bimport\s*\(/);
    expect(importsOf(source).length).toBeGreaterThan(0);
    const outside = importsOf(source).filter((spec) => !ALLOWED.has(spec) && !/^\.\/[a-z-]+\.js$/.test(spec));
    expect(outside).toEqual([]);
  });

  it('covers every file', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });
});
