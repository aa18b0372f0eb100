// After a click: wait until the page has done what the click started (timers, requests, a reload or a
// navigation) or `capMs` has passed, whichever comes first.
import type { Page } from 'playwright-core';
import { readPageIdle } from './page-probe.js';

const POLL_MS = 25;
const QUIET_MS = 50;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForPageQuiet(page: Page, capMs: number): Promise<void> {
  const until = Date.now() + capMs;
  await sleep(QUIET_MS);
  while (Date.now() < until) {
    await page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => undefined);
    const idle = await readPageIdle(page);
    if (idle !== null && !idle.navigating && idle.timers === 0 && idle.requests === 0) {
      await sleep(QUIET_MS);
      const again = await readPageIdle(page);
      if (again !== null && !again.navigating && again.timers === 0 && again.requests === 0) return;
    }
    await sleep(POLL_MS);
  }
}
