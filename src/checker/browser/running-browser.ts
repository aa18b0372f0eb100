// A launched Chromium and the knowledge of its death. Playwright notices a killed browser only when its pipe
// closes, which Chromium's surviving helper processes can delay for a long time; meanwhile every call to it
// would hang. So the pool also watches the process itself (Linux /proc) and treats a vanished or zombie
// main process as dead at once.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { openEgressSession, type EgressOptions, type EgressSession } from './egress-proxy.js';
import { findBrowserPid, launchChromium, type LaunchSettings } from './launch.js';
import { startMemoryGuard, type MemoryGuard } from './memory-guard.js';
import { lowerTreePriority } from './process-tree.js';

const WATCH_INTERVAL_MS = 250;

export interface RunningBrowser {
  browser: Browser;
  marker: string;
  pid: number | null;
  /** Set once the browser is known to be gone (process exit or Playwright's disconnect). */
  readonly dead: boolean;
  /** Resolves when the browser dies. */
  readonly died: Promise<void>;
  /** Checks the process now (not at the next watchdog tick); false once dead. */
  alive(): boolean;
  /** Renderers killed for exceeding the memory ceiling (0 without a ceiling). */
  memoryKills(): number;
  /** Closes it on purpose (resolves `died` too). */
  close(): Promise<void>;
}

/** Whether a process is alive: present in /proc and not a zombie. Without /proc: assumed alive. */
function processAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  // "pid (comm) S …": the state follows the last ')', as comm may itself contain parentheses.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Launches Chromium behind a launch-wide egress session and starts watching it. */
export async function startBrowser(settings: Omit<LaunchSettings, 'proxyUrl'>, egressOptions: EgressOptions): Promise<RunningBrowser> {
  const defaultEgress: EgressSession = await openEgressSession(egressOptions);
  let launched: Awaited<ReturnType<typeof launchChromium>>;
  try {
    launched = await launchChromium({ ...settings, proxyUrl: defaultEgress.proxyUrl });
  } catch (err) {
    await defaultEgress.close();
    throw err;
  }
  const { browser, marker } = launched;
  const pid = findBrowserPid(marker);
  if (pid !== null) lowerTreePriority(pid);
  let dead = false;
  let resolveDied: () => void = () => undefined;
  const died = new Promise<void>((resolve) => {
    resolveDied = resolve;
  });
  const watchdog = setInterval(() => {
    if (pid !== null && !processAlive(pid)) markDead();
  }, WATCH_INTERVAL_MS);
  watchdog.unref();
  const guard: MemoryGuard | null =
    pid !== null && settings.memoryCeilingMb !== undefined ? startMemoryGuard(pid, settings.memoryCeilingMb) : null;
  function markDead(): void {
    if (dead) return;
    dead = true;
    clearInterval(watchdog);
    guard?.stop();
    resolveDied();
    void defaultEgress.close();
    // Lets Playwright release what it holds; a dead browser may never answer, so nobody waits for this.
    void browser.close().catch(() => undefined);
  }
  browser.on('disconnected', markDead);
  return {
    browser,
    marker,
    pid,
    get dead() {
      return dead;
    },
    died,
    alive() {
      if (!dead && pid !== null && !processAlive(pid)) markDead();
      return !dead;
    },
    memoryKills: () => guard?.kills() ?? 0,
    async close() {
      if (!dead) await browser.close().catch(() => undefined);
      markDead();
    },
  };
}
