// A ceiling on the memory of Chromium's whole process tree (TRACKCHECK_BROWSER_MEMORY_MB). V8's heap limit
// (--js-flags=--max-old-space-size, launch.ts) stops a page's JavaScript objects, but not what lives outside that
// heap (array buffers, images, the DOM). Once a second (five times a second once the tree is past half the
// ceiling, where a fast-growing page would otherwise overshoot by a second's growth) the guard sums the
// proportional set size of every process descending from the browser (shared pages counted once, not once per
// process) and, over the ceiling, kills the largest renderer: its page crashes, its check ends, every other check goes on. Linux /proc only;
// elsewhere the guard does nothing.
import { processTree } from './process-tree.js';

export interface MemoryGuard {
  /** Renderers killed for memory so far. */
  kills(): number;
  stop(): void;
}

const GUARD_INTERVAL_MS = 1_000;
const GUARD_CLOSE_INTERVAL_MS = 200;

export function startMemoryGuard(rootPid: number, ceilingMb: number): MemoryGuard {
  let kills = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const ceilingKb = ceilingMb * 1024;

  const sample = (): number => {
    const tree = processTree(rootPid);
    const totalKb = tree.reduce((sum, p) => sum + p.memoryKb, 0);
    if (totalKb <= ceilingKb) return totalKb;
    const largest = tree.filter((p) => p.renderer).sort((a, b) => b.memoryKb - a.memoryKb)[0];
    if (largest === undefined) return totalKb;
    try {
      process.kill(largest.pid, 'SIGKILL');
      kills += 1;
    } catch {
      // already gone
    }
    return totalKb;
  };
  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => schedule(sample() > ceilingKb / 2 ? GUARD_CLOSE_INTERVAL_MS : GUARD_INTERVAL_MS), delayMs);
    timer.unref();
  };
  schedule(GUARD_INTERVAL_MS);
  return {
    kills: () => kills,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
