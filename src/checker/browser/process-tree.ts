// Chromium's process tree, read from Linux /proc: the browser process and every process descending from it
// (zygotes, renderers, the network service…), with their memory. Elsewhere the tree is empty.
import os from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeProcess {
  pid: number;
  /** Proportional set size (kB); the resident set size where the kernel gives no PSS. */
  memoryKb: number;
  renderer: boolean;
}

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

/**
 * Gives the whole tree a lower CPU priority than the service itself (nice 10 by default), so a page spinning
 * its renderer never starves the API of CPU. Renderers started later are forked from the zygote, which
 * passes its priority on.
 */
export function lowerTreePriority(rootPid: number, niceness = 10): void {
  for (const { pid } of processTree(rootPid)) {
    try {
      os.setPriority(pid, niceness);
    } catch {
      // gone, or not ours to change: nothing to do
    }
  }
}
