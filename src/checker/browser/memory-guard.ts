// A ceiling on the memory of Chromium's whole process tree (TRACKCHECK_BROWSER_MEMORY_MB). V8's heap limit
// (--js-flags=--max-old-space-size, launch.ts) stops a page's JavaScript objects, but not what lives outside that
// heap (array buffers, images, the DOM). Once a second the guard sums the proportional set size of every
// process descending from the browser (shared pages counted once, not once per process) and, over the ceiling,
// kills the largest renderer: its page crashes, its check ends, every other check goes on. Linux /proc only;
// elsewhere the guard does nothing.
import { processTree } from './process-tree.js';

export interface MemoryGuard {
  /** Renderers killed for memory so far. */
  kills(): number;
  /** The highest total the guard has seen (MB). */
  peakMb(): number;
  stop(): void;
}

const GUARD_INTERVAL_MS = 1_000;

export function startMemoryGuard(rootPid: number, ceilingMb: number): MemoryGuard {
  let kills = 0;
  let peakKb = 0;
  const timer = setInterval(() => {
    const tree = processTree(rootPid);
    const totalKb = tree.reduce((sum, p) => sum + p.memoryKb, 0);
    peakKb = Math.max(peakKb, totalKb);
    if (totalKb <= ceilingMb * 1024) return;
    const largest = tree.filter((p) => p.renderer).sort((a, b) => b.memoryKb - a.memoryKb)[0];
    if (largest === undefined) return;
    try {
      process.kill(largest.pid, 'SIGKILL');
      kills += 1;
    } catch {
      // already gone
    }
  }, GUARD_INTERVAL_MS);
  timer.unref();
  return { kills: () => kills, peakMb: () => Math.round(peakKb / 1024), stop: () => clearInterval(timer) };
}
