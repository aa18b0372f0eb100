// After a click: wait until the page has done what the click started (timers, requests, scripts it
// inserted — a consent callback loading the shop's tags —, a reload or a navigation) or `capMs` has passed,
// whichever comes first.
import type { Page } from 'playwright-core';
import { readPageIdle, type PageIdleState } from './page-probe.js';

const POLL_MS = 25;
const QUIET_MS = 50;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function isIdle(idle: PageIdleState | null | 'timeout'): boolean {
  return idle !== null && idle !== 'timeout' && !idle.navigating && idle.timers === 0 && idle.requests === 0 && idle.scripts === 0;
}

export async function waitForPageQuiet(page: Page, capMs: number): Promise<void> {
  const until = Date.now() + capMs;
  await sleep(QUIET_MS);
  while (Date.now() < until) {
    if (isIdle(await readPageIdle(page, true, until - Date.now()))) {
      await sleep(QUIET_MS);
      if (isIdle(await readPageIdle(page, true, until - Date.now()))) return;
    }
    await sleep(POLL_MS);
  }
}
