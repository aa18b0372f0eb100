// A ceiling on the memory of Chromium's whole process tree (TRACKCHECK_BROWSER_MEMORY_MB). V8's heap limit
// (--js-flags=--max-old-space-size, launch.ts) stops a page's JavaScript objects, but not what lives outside that
// heap (array buffers, images, the DOM). Once a second the guard sums the proportional set size of every
// process descending from the browser (shared pages counted once, not once per process) and, over the ceiling,
// kills the largest renderer: its page crashes, its check ends, every other check goes on. Linux /proc only;
// elsewhere the guard does nothing.
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeProcess {
  pid: number;
  /** Proportional set size (kB); the resident set size where the kernel gives no PSS. */
  memoryKb: number;
  renderer: boolean;
}

const GUARD_INTERVAL_MS = 1_000;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function parentOf(pid: string): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // "pid (comm) S ppid …": fields after the last ')', as comm may hold parentheses.
  const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  return ppid === undefined ? null : Number(ppid);
}

function memoryOf(pid: number): number {
  const rollup = read(`/proc/${pid}/smaps_rollup`);
  const pss = rollup === null ? null : /^Pss:\s+(\d+)/m.exec(rollup);
  if (pss?.[1] !== undefined) return Number(pss[1]);
  const status = read(`/proc/${pid}/status`) ?? '';
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}

/** The browser process and every process descending from it. */
export function processTree(rootPid: number): TreeProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const parent = parentOf(entry);
    if (parent === null) continue;
    const list = children.get(parent) ?? [];
    list.push(Number(entry));
    children.set(parent, list);
  }
  const tree: TreeProcess[] = [];
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const cmdline = read(`/proc/${pid}/cmdline`);
    if (cmdline === null) continue;
    tree.push({ pid, memoryKb: memoryOf(pid), renderer: cmdline.includes('--type=renderer') });
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface MemoryGuard {
  /** Renderers killed for memory so far. */
  kills(): number;
  /** The highest total the guard has seen (MB). */
  peakMb(): number;
  stop(): void;
}

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
