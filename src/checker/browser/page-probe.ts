// Knowing when a page is done navigating without waiting for wall-clock idle: an init script counts, in
// the top document, the short timers (setTimeout up to 5 s, three callbacks deep, so polling loops stop
// counting), fetch/XHR requests still in flight, and cross-document navigations the page has started.
// The capture asks it after `load`; a page with nothing pending is the landing page.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/** Per process, so a page cannot rely on the name. */
const PROBE_KEY = `__tc_${randomBytes(6).toString('hex')}`;

export interface PageIdleState {
  timers: number;
  requests: number;
  /** The page asked to leave for another document (Navigation API `navigate`). */
  navigating: boolean;
  /** A `<meta http-equiv=refresh>` with a URL and at most 10 s delay: its delay in seconds. */
  refreshDelay: number | null;
  /** The document's load event has fired, `sinceLoadMs` ago. */
  loaded: boolean;
  sinceLoadMs: number;
}

// Plain ES2017 on purpose: it runs in the page, before any of the page's own scripts.
const INIT_SCRIPT = `(() => {
  const KEY = ${JSON.stringify(PROBE_KEY)};
  if (window.top !== window || Object.prototype.hasOwnProperty.call(window, KEY)) return;
  const MAX_DELAY = 5000, MAX_DEPTH = 3;
  const timers = new Set();
  let depth = 0, requests = 0, navigating = false;
  const st = window.setTimeout, ct = window.clearTimeout;
  window.setTimeout = function (handler, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (ms > MAX_DELAY || depth >= MAX_DEPTH) return st.call(window, handler, delay, ...rest);
    const mine = depth + 1;
    const id = st.call(window, function (...args) {
      timers.delete(id);
      const saved = depth;
      depth = mine;
      try { return typeof handler === 'function' ? handler.apply(this, args) : (0, eval)(String(handler)); }
      finally { depth = saved; }
    }, delay, ...rest);
    timers.add(id);
    return id;
  };
  window.clearTimeout = function (id) { timers.delete(id); return ct.call(window, id); };
  const done = () => { requests = Math.max(0, requests - 1); };
  if (typeof window.fetch === 'function') {
    const f = window.fetch;
    window.fetch = function (...args) {
      requests += 1;
      let p;
      try { p = f.apply(this, args); } catch (e) { done(); throw e; }
      Promise.resolve(p).then(done, done);
      return p;
    };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    requests += 1;
    this.addEventListener('loadend', done, { once: true });
    try { return send.apply(this, args); } catch (e) { done(); throw e; }
  };
  if (window.navigation && typeof window.navigation.addEventListener === 'function') {
    window.navigation.addEventListener('navigate', (e) => {
      if (!e.hashChange && e.destination && e.destination.sameDocument === false) navigating = true;
    });
  }
  const refreshDelay = () => {
    const meta = document.querySelector('meta[http-equiv="refresh" i]');
    const m = meta && /^\\s*(\\d+(?:\\.\\d+)?)\\s*[;,]\\s*(?:url\\s*=)?\\s*\\S/i.exec(meta.getAttribute('content') || '');
    return m && Number(m[1]) <= 10 ? Number(m[1]) : null;
  };
  const state = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    const loaded = document.readyState === 'complete';
    const sinceLoadMs = loaded && nav && nav.loadEventEnd > 0 ? performance.now() - nav.loadEventEnd : 0;
    return { timers: timers.size, requests, navigating, refreshDelay: refreshDelay(), loaded, sinceLoadMs };
  };
  // Two turns of the event loop first, so navigations started by load handlers and their microtasks show.
  const answer = (resolve) => st(() => st(() => resolve(state()), 0), 0);
  Object.defineProperty(window, KEY, {
    enumerable: false,
    value: (waitForLoad) => new Promise((resolve) => {
      if (!waitForLoad || document.readyState === 'complete') answer(resolve);
      else window.addEventListener('load', () => answer(resolve), { once: true });
    }),
  });
})();`;

export function probeInitScript(): string {
  return INIT_SCRIPT;
}

/**
 * The page's pending work, or null while it navigates away (its document is being replaced). With
 * `waitForLoad` the page answers only after its load event — the question is already there when load
 * fires, so no round trip is spent after it — or 'timeout' after `timeoutMs`.
 */
export async function readPageIdle(page: Page, waitForLoad = false, timeoutMs = 30_000): Promise<PageIdleState | null | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const read = page
    .evaluate(
      async ([key, wait]) => {
        const probe = (globalThis as unknown as Record<string, ((w: boolean) => Promise<PageIdleState>) | undefined>)[key];
        return probe === undefined ? { timers: 0, requests: 0, navigating: false, refreshDelay: null, loaded: true, sinceLoadMs: 0 } : probe(wait);
      },
      [PROBE_KEY, waitForLoad] as const,
    )
    .catch(() => null);
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, timeoutMs));
  });
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
