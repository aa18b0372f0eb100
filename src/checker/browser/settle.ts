// Deciding, event by event, when a browser chain has ended: the last document loaded and neither Chrome
// nor the page itself has anything pending that could navigate on (see page-probe.ts). No fixed idle wait:
// a page with nothing pending ends the chain as soon as it has loaded.
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import type { NavRecorder } from './nav-recorder.js';
import { readPageIdle } from './page-probe.js';

export interface SettleLimits {
  maxHops: number;
  hopTimeoutMs: number;
  /** The whole capture must end by this performance.now() value. */
  deadline: number;
  /** After load, how long pending short timers / requests may keep the chain open. */
  settleCapMs: number;
  /** Quiet time after the page reports idle, for navigation events still on their way. */
  quietMs: number;
  /** Settles when the first navigation fails before any request was seen (e.g. a refused URL). */
  started: Promise<Error | null>;
}

export type SettleEnd =
  | { kind: 'settled' }
  | { kind: 'hop_limit' }
  | { kind: 'hop_timeout' }
  | { kind: 'check_timeout' }
  | { kind: 'not_started'; error: string };

// How long a failed navigation waits for the request that superseded it, and how often a busy page is polled.
const SUPERSEDE_GRACE_MS = 100;
const POLL_MS = 25;

function isBusy(idle: { timers: number; requests: number; navigating: boolean }): boolean {
  return idle.navigating || idle.timers > 0 || idle.requests > 0;
}

export async function settleChain(page: Page, recorder: NavRecorder, limits: SettleLimits): Promise<SettleEnd> {
  let startError: Error | null | undefined;
  void limits.started.then((err) => {
    startError = err;
  });
  for (;;) {
    // A dead page ends the capture at once; the pool tells a browser crash from a page crash.
    if (recorder.gone !== null) throw new Error(recorder.gone);
    const now = performance.now();
    const navs = recorder.navs;
    if (navs.length > limits.maxHops + 1) return { kind: 'hop_limit' };
    if (now >= limits.deadline) return { kind: 'check_timeout' };
    const remaining = limits.deadline - now;
    const last = navs[navs.length - 1];
    if (last === undefined) {
      if (startError instanceof Error) return { kind: 'not_started', error: startError.message.split('\n')[0] ?? 'navigation failed' };
      await Promise.race([recorder.waitForChange(remaining), limits.started]);
      continue;
    }
    if (last.response === null && last.failure === null) {
      const hopLeft = last.startedAt + limits.hopTimeoutMs - now;
      if (hopLeft <= 0) return { kind: 'hop_timeout' };
      await recorder.waitForChange(Math.min(hopLeft, remaining));
      continue;
    }
    const pending = recorder.pendingNavigation(now);
    if (pending !== null && pending.dueAt + SUPERSEDE_GRACE_MS > now) {
      await recorder.waitForChange(Math.min(pending.dueAt + SUPERSEDE_GRACE_MS - now, remaining));
      continue;
    }
    recorder.clearScheduled();
    const sinceEnd = now - (last.finishedAt ?? last.respondedAt ?? now);
    if (last.failure !== null) {
      // Failed (or answered without becoming a document: a download, a 204): the chain ends here unless a
      // newer navigation superseded it.
      if (sinceEnd < SUPERSEDE_GRACE_MS) {
        await recorder.waitForChange(SUPERSEDE_GRACE_MS - sinceEnd);
        continue;
      }
      return { kind: 'settled' };
    }
    const committed = recorder.committedIndex === navs.length - 1;
    const loadLeft = limits.hopTimeoutMs - (now - (last.respondedAt ?? now));
    if (!committed && loadLeft > 0) {
      await recorder.waitForChange(Math.min(loadLeft, remaining));
      continue;
    }
    const count = navs.length;
    // A loading page is asked now and answers right after its load event, so no round trip is spent after
    // load; a page whose load never fires (a hanging subresource) is read as it is once the hop's time is up.
    const idle = loadLeft > 0 ? await readPageIdle(page, true, Math.min(loadLeft, remaining)) : await readPageIdle(page);
    if (recorder.navs.length !== count || idle === null || idle === 'timeout') continue;
    const sinceLoad = idle.loaded ? idle.sinceLoadMs : performance.now() - (last.respondedAt ?? now);
    if (idle.refreshDelay !== null && sinceLoad < idle.refreshDelay * 1000 + SUPERSEDE_GRACE_MS * 5) {
      await recorder.waitForChange(Math.min(idle.refreshDelay * 1000 + SUPERSEDE_GRACE_MS * 5 - sinceLoad, remaining));
      continue;
    }
    if (isBusy(idle) && sinceLoad < limits.settleCapMs) {
      await recorder.waitForChange(Math.min(POLL_MS, remaining));
      continue;
    }
    if (limits.quietMs > 0) await recorder.waitForChange(Math.min(limits.quietMs, remaining));
    if (recorder.navs.length !== count || recorder.pendingNavigation(performance.now()) !== null) continue;
    return { kind: 'settled' };
  }
}
