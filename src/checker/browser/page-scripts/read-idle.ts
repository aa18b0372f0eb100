// Asks the idle probe (idle-probe.ts) for the page's pending work. A document without the probe (one the
// init script could not reach) reads as idle and loaded.
import type { PageIdleState } from '../page-script-types.js';

export default function readIdle(args: { key: string; waitForLoad: boolean }): Promise<PageIdleState> | PageIdleState {
  const probe = (window as unknown as Record<string, ((w: boolean) => Promise<PageIdleState>) | undefined>)[args.key];
  if (probe === undefined)
    return { timers: 0, requests: 0, scripts: 0, navigating: false, refreshDelay: null, loaded: true, sinceLoadMs: 0 };
  return probe(args.waitForLoad);
}
