// Waits for a check to finish. Checks run by this process's worker announce themselves at once; checks run by
// another process (several instances, a separate worker) are noticed by polling the store.
import { EventEmitter } from 'node:events';
import type { ChecksRepo, CheckRow } from '../store/checks-repo.js';
import { isFinished } from '../services/check-view.js';

export interface CheckWaiter {
  /** Called by the runner after it stored an outcome. */
  announce(slug: string): void;
  /** The check's row once finished, or its current row when timeoutMs passes first. */
  waitFor(slug: string, timeoutMs: number): Promise<CheckRow | undefined>;
}

export function createCheckWaiter(checks: ChecksRepo, pollMs = 250): CheckWaiter {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    announce: (slug) => void events.emit(slug),
    async waitFor(slug, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let row = await checks.get(slug);
      while (row && !isFinished(row.status) && Date.now() < deadline) {
        const wait = Math.min(pollMs, deadline - Date.now());
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            events.off(slug, done);
            resolve();
          };
          const timer = setTimeout(done, wait);
          events.once(slug, done);
        });
        row = await checks.get(slug);
      }
      return row;
    },
  };
}
