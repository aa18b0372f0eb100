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
  Object.defineProperty(window, KEY, {
    enumerable: false,
    value: () => new Promise((resolve) => st(() => st(() => resolve({ timers: timers.size, requests, navigating, refreshDelay: refreshDelay() }), 0), 0)),
  });
})();`;

export function probeInitScript(): string {
  return INIT_SCRIPT;
}

/** The page's pending work, or null while it navigates away (its context is being replaced). */
export async function readPageIdle(page: Page): Promise<PageIdleState | null> {
  try {
    return await page.evaluate(async (key) => {
      const probe = (globalThis as unknown as Record<string, (() => Promise<PageIdleState>) | undefined>)[key];
      return probe === undefined ? { timers: 0, requests: 0, navigating: false, refreshDelay: null } : probe();
    }, PROBE_KEY);
  } catch {
    return null;
  }
}
