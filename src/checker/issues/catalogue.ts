// The issue catalogue as data: every code the analysis can raise, its severity, a title, a description built
// from the finding's details, and a fix someone can act on. Codes are a public contract (CONTRACT.md §3,
// docs/issues.md): add codes freely, never rename one.
import type { Issue, Severity } from '../types.js';
import type { IssueDetails, IssueSpec } from './text.js';
import { ATTRIBUTION_ISSUES } from './attribution.js';
import { CHAIN_ISSUES } from './chain.js';
import { CONSENT_ISSUES } from './consent.js';
import { ENGINE_ISSUES } from './engine.js';
import { LANDING_ISSUES } from './landing.js';
import { PRIVACY_ISSUES } from './privacy.js';

export type { IssueDetails, IssueSpec } from './text.js';

export const ISSUE_CATALOGUE = {
  ...LANDING_ISSUES,
  ...ATTRIBUTION_ISSUES,
  ...CHAIN_ISSUES,
  ...CONSENT_ISSUES,
  ...ENGINE_ISSUES,
  ...PRIVACY_ISSUES,
};
export type IssueCode = keyof typeof ISSUE_CATALOGUE;

export const ISSUE_CODES = Object.keys(ISSUE_CATALOGUE) as IssueCode[];

export function isIssueCode(code: string): code is IssueCode {
  return Object.hasOwn(ISSUE_CATALOGUE, code);
}

export function severityOf(code: IssueCode): Severity {
  return (ISSUE_CATALOGUE[code] as IssueSpec).severity;
}

// Wording helpers start sentences with "hop 3 …"; the reader sees a sentence.
function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One issue, ready for the result: wording from the catalogue, filled with what the finding knows. */
export function makeIssue(code: IssueCode, details: IssueDetails = {}): Issue {
  const spec: IssueSpec = ISSUE_CATALOGUE[code];
  return {
    code,
    severity: spec.severity,
    title: spec.title,
    description: capitalise(spec.describe(details)),
    fix: capitalise(spec.fix(details)),
    hop: details.hop ?? null,
  };
}
