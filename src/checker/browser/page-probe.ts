// Knowing when a page is done navigating without waiting for wall-clock idle: an init script
// (page-scripts/idle-probe.ts) counts, in the top document, the short timers, fetch/XHR requests still in
// flight, and cross-document navigations the page has started. The capture asks it after `load`; a page
// with nothing pending is the landing page.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { pageScriptCall, runPageScript } from './page-script.js';
import type { PageIdleState } from './page-script-types.js';

export type { PageIdleState };

/** Per process, so a page cannot rely on the name. */
const PROBE_KEY = `__tc_${randomBytes(6).toString('hex')}`;

/** The key the probe is installed under (the consent engine borrows its uncounted timers). */
export function probeKey(): string {
  return PROBE_KEY;
}

/** The init script every check context installs (page-scripts/idle-probe.ts under this process's key). */
export function probeInitScript(): string {
  return pageScriptCall('idle-probe', PROBE_KEY);
}

/**
 * The page's pending work, or null while it navigates away (its document is being replaced). With
 * `waitForLoad` the page answers only after its load event — the question is already there when load
 * fires, so no round trip is spent after it — or 'timeout' after `timeoutMs`.
 */
export async function readPageIdle(page: Page, waitForLoad = false, timeoutMs = 30_000): Promise<PageIdleState | null | 'timeout'> {
  const outcome = await runPageScript(page, 'read-idle', { key: PROBE_KEY, waitForLoad }, timeoutMs);
  if (outcome.kind === 'done') return outcome.value;
  return outcome.kind === 'gone' ? null : 'timeout';
}
