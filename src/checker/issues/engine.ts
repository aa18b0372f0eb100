// Catalogue part: what the engine itself reports about a check it could not finish (not a finding of the
// analysis of a chain): raised by runCheck, in browser mode only, proven by the browser suites.
import { at, type IssueSpec } from './text.js';

export const ENGINE_ISSUES = {
  check_deadline_exceeded: {
    severity: 'warning',
    title: 'Could not verify: the page did not finish in time',
    describe: (d) =>
      `The page${at(d.url)} kept the browser busy past the check's limit of ${Math.round((d.totalMs ?? 0) / 1000)} s ` +
      `(a script that never ends, or endless navigation), so the real landing page and what it receives are unknown.`,
    fix: () =>
      'Open the link yourself to see where it ends. If it is your page: a page that runs heavy scripts before ' +
      'navigating costs shoppers too; navigate with an HTTP redirect (302) before any script runs.',
  },
} satisfies Record<string, IssueSpec>;
