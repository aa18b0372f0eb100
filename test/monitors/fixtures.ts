// A switchable engine for monitor tests: each URL answers healthy or broken as the test says, with no network.
import type { Engine } from '../../src/jobs/check-runner.js';
import type { CheckResult } from '../../src/checker/types.js';
import type { AppContext } from '../../src/context.js';
import { fakeResult } from '../jobs/engine-app.js';
import { CheckerUnavailable } from '../../src/checker/check.js';

/** `moved`: still tracks, but lands on another page; `unavailable`: the checker cannot run (a failed check). */
export type LinkState = 'healthy' | 'broken' | 'moved' | 'unavailable';

export function brokenResult(url: string): CheckResult {
  return {
    ...fakeResult(url),
    willTrack: false,
    healthScore: 20,
    finalStatus: 404,
    issues: [{ code: 'landing_error_status', severity: 'critical', title: 'Not found', description: 'd', fix: 'f', hop: 0 }],
  } as CheckResult;
}

export function switchableEngine(): { engine: Engine; set(url: string, state: LinkState): void; runs(url: string): number } {
  const states = new Map<string, LinkState>();
  const counts = new Map<string, number>();
  return {
    engine: async (url) => {
      counts.set(url, (counts.get(url) ?? 0) + 1);
      switch (states.get(url)) {
        case 'broken':
          return brokenResult(url);
        case 'moved':
          return { ...fakeResult(url), finalUrl: 'https://shop.jobs.example/elsewhere' };
        case 'unavailable':
          throw new CheckerUnavailable('browser_unavailable', 'no browser here');
        default:
          return fakeResult(url);
      }
    },
    set: (url, state) => states.set(url, state),
    runs: (url) => counts.get(url) ?? 0,
  };
}

/** Waits until the monitor has no run queued or running that is not evaluated yet. */
export async function settled(ctx: AppContext, monitorId: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await ctx.store.monitors.pendingRuns(monitorId)).length > 0) {
    if (Date.now() > until) throw new Error(`monitor ${monitorId} still has unevaluated runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
