import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISSUE_CATALOGUE, ISSUE_CODES, isIssueCode, makeIssue, severityOf } from '../../src/checker/issues/catalogue.js';
import { CONTRACT_CODES } from '../fixtures/contract-codes.js';

const docs = readFileSync(fileURLToPath(new URL('../../docs/issues.md', import.meta.url)), 'utf8');

describe('ISSUE_CATALOGUE', () => {
  it('holds every contract code with the contract severity', () => {
    for (const [code, severity] of Object.entries(CONTRACT_CODES)) {
      expect(isIssueCode(code), code).toBe(true);
      if (isIssueCode(code)) expect(severityOf(code), code).toBe(severity);
    }
  });

  it('codes are stable snake_case identifiers', () => {
    for (const code of ISSUE_CODES) expect(code).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
  });

  it('every entry reads well with and without details', () => {
    for (const code of ISSUE_CODES) {
      for (const details of [{}, { hop: 2, url: 'https://x.example/', params: ['awc'], network: 'Awin', status: 404 }]) {
        const issue = makeIssue(code, details);
        expect(issue.title.length, code).toBeGreaterThan(5);
        expect(issue.description, code).toMatch(/^[A-Z`%{[#^$0-9]/);
        expect(issue.description, code).not.toMatch(/undefined|null|\[object/);
        expect(issue.fix.length, code).toBeGreaterThan(30);
        expect(issue.fix, code).not.toMatch(/undefined|null|\[object/);
      }
    }
  });

  it('makeIssue copies the hop and the catalogue severity', () => {
    expect(makeIssue('insecure_hop', { hop: 3 })).toMatchObject({ code: 'insecure_hop', severity: 'warning', hop: 3 });
    expect(makeIssue('no_network_detected').hop).toBeNull();
    expect(Object.keys(ISSUE_CATALOGUE)).toEqual(ISSUE_CODES);
  });
});

describe('docs/issues.md', () => {
  it('documents every catalogue code in a table row with its severity', () => {
    for (const code of ISSUE_CODES) {
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
      expect(row, `docs/issues.md has no row for ${code}`).toBeDefined();
      expect(row, code).toContain(`| ${severityOf(code)} |`);
    }
  });

  it('documents no code the catalogue does not have', () => {
    const documented = [...docs.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1] ?? '');
    expect(documented.filter((code) => !isIssueCode(code))).toEqual([]);
  });
});
