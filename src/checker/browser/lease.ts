// A browser context ready for one check: its own egress session as proxy, the idle probe installed, and a
// blank page. The pool keeps one such context prepared while idle (the "spare"), so a check does not wait
// for context and page creation; each context still serves exactly one check.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openEgressSession, type EgressOptions, type EgressSession } from './egress-proxy.js';
import { LOOPBACK_THROUGH_PROXY } from './launch.js';
import { probeInitScript } from './page-probe.js';
import { pageScriptCall } from './page-script.js';
import { browserUserAgent } from '../engine-record.js';
import type { RunningBrowser } from './running-browser.js';

// A desktop-sized page in English with a desktop Chrome's user agent; downloads refused; service workers off
// (they would serve from a cache the egress session never sees).
const CONTEXT_OPTIONS = {
  acceptDownloads: false,
  serviceWorkers: 'block',
  locale: 'en-US',
  viewport: { width: 1366, height: 900 },
} as const;

export interface PreparedContext {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  egress: EgressSession;
}

/** What every document of a check's context runs first: WebRTC removed, then the idle probe. */
function initScript(): string {
  return `${pageScriptCall('webrtc-off', null)};\n${probeInitScript()}`;
}

function contextOptions(browser: Browser, egress: EgressSession) {
  return {
    ...CONTEXT_OPTIONS,
    userAgent: browserUserAgent(browser.version()),
    proxy: { server: egress.proxyUrl, bypass: LOOPBACK_THROUGH_PROXY },
  };
}

/** A fresh context whose every request goes through `egress`, with WebRTC off and the idle probe in every document. */
export async function createGuardedContext(browser: Browser, egress: EgressSession): Promise<BrowserContext> {
  const context = await browser.newContext(contextOptions(browser, egress));
  await context.addInitScript({ content: initScript() });
  return context;
}

export async function prepareContext(browser: Browser, egressOptions: EgressOptions): Promise<PreparedContext> {
  const egress = await openEgressSession(egressOptions);
  try {
    const context = await browser.newContext(contextOptions(browser, egress));
    // Playwright installs context init scripts on existing pages too, so both can go at once.
    const [page] = await Promise.all([context.newPage(), context.addInitScript({ content: initScript() })]);
    return { browser, context, page, egress };
  } catch (err) {
    await egress.close();
    throw err;
  }
}

const CLOSE_TIMEOUT_MS = 2_000;

/** Closes a context, waiting at most a moment: a browser that died unnoticed never answers `close`. */
export async function closeContext(context: BrowserContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    context.close().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** Closes the context and its egress session (the session regardless of the browser's state). */
export async function disposePrepared(prepared: PreparedContext): Promise<void> {
  if (prepared.browser.isConnected()) await closeContext(prepared.context);
  await prepared.egress.close();
}

export interface SpareContext {
  /** Starts preparing a spare for `current` unless one exists. */
  fill(current: RunningBrowser): void;
  /** The spare, if it belongs to `current` (and it is alive); null otherwise. Never shared: taking empties it. */
  take(current: RunningBrowser): Promise<PreparedContext | null>;
  /** Resolves when no spare is being prepared. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  owner: RunningBrowser;
  prepared: Promise<PreparedContext | null>;
}

export function createSpareContext(egressOptions: EgressOptions): SpareContext {
  let pending: Pending | null = null;
  return {
    fill(current) {
      if (pending !== null || current.dead) return;
      // A browser that dies mid-preparation never answers: its death ends the wait.
      const prepared = Promise.race([prepareContext(current.browser, egressOptions), current.died.then(() => null)]).catch(() => null);
      pending = { owner: current, prepared };
    },
    async take(current) {
      const spare = pending;
      pending = null;
      if (spare === null) return null;
      if (spare.owner !== current) {
        // From an earlier (dead) browser: let it go without waiting on it.
        void spare.prepared.then((got) => (got === null ? undefined : disposePrepared(got)));
        return null;
      }
      const got = await spare.prepared;
      if (got === null) return null;
      if (!current.dead && !got.page.isClosed()) return got;
      void disposePrepared(got);
      return null;
    },
    async ready() {
      await pending?.prepared;
    },
    async close() {
      const spare = pending;
      pending = null;
      const got = spare === null ? null : await spare.prepared;
      if (got !== null) await disposePrepared(got);
    },
  };
}
