// Runs in every document of a check's context before the page's own scripts (an init script). It counts,
// in the top document, the short timers (setTimeout up to 5 s, three callbacks deep, so polling loops stop
// counting), fetch/XHR requests still in flight, external scripts still loading, and cross-document
// navigations the page has started, and
// answers `window[key](waitForLoad)` with them (read-idle.ts asks). Node side: ../page-probe.ts.
import type { PageIdleState, UncountedTimers } from '../page-script-types.js';

type Handler = TimerHandler;

export default function installIdleProbe(key: string): void {
  if (window.top !== window || Object.prototype.hasOwnProperty.call(window, key)) return;
  const MAX_DELAY = 5000;
  const MAX_DEPTH = 3;
  const timers = new Set<number>();
  let depth = 0;
  let requests = 0;
  let navigating = false;
  const st = window.setTimeout;
  const ct = window.clearTimeout;
  const patchedSetTimeout = function (this: unknown, handler: Handler, delay?: number, ...rest: unknown[]): number {
    const ms = Number(delay) || 0;
    if (ms > MAX_DELAY || depth >= MAX_DEPTH) return st.call(window, handler, delay, ...rest);
    const mine = depth + 1;
    const id: number = st.call(
      window,
      function (this: unknown, ...args: unknown[]) {
        timers.delete(id);
        const saved = depth;
        depth = mine;
        try {
          return typeof handler === 'function' ? (handler as (...a: unknown[]) => unknown).apply(this, args) : (0, eval)(String(handler));
        } finally {
          depth = saved;
        }
      },
      delay,
      ...rest,
    );
    timers.add(id);
    return id;
  };
  window.setTimeout = patchedSetTimeout as typeof window.setTimeout;
  window.clearTimeout = function (id?: number): void {
    if (id !== undefined) timers.delete(id);
    ct.call(window, id);
  };
  const done = (): void => {
    requests = Math.max(0, requests - 1);
  };
  if (typeof window.fetch === 'function') {
    const f = window.fetch;
    window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
      requests += 1;
      let p: Promise<Response>;
      try {
        p = f.apply(this, args);
      } catch (e) {
        done();
        throw e;
      }
      Promise.resolve(p).then(done, done);
      return p;
    };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>): void {
    requests += 1;
    this.addEventListener('loadend', done, { once: true });
    try {
      send.apply(this, args);
    } catch (e) {
      done();
      throw e;
    }
  };
  // External scripts inserted and not yet run (a consent callback loading the shop's tags). Only the
  // after-click wait reads them (quiet.ts); the chain's end does not wait on a page's late ads.
  let scripts = 0;
  const seen = new WeakSet<Element>();
  const watchScript = (el: Element): void => {
    if (seen.has(el) || !(el instanceof HTMLScriptElement) || el.src === '') return;
    // A script a consent tool keeps blocked (type="text/plain") never loads: it is not pending work.
    if (!/^((text|application)\/(x-)?(java|ecma)script|module)?$/.test(el.type.trim().toLowerCase())) return;
    seen.add(el);
    scripts += 1;
    const settled = (): void => {
      scripts = Math.max(0, scripts - 1);
    };
    el.addEventListener('load', settled, { once: true });
    el.addEventListener('error', settled, { once: true });
  };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element)) continue;
        watchScript(node);
        if (node.firstElementChild !== null) for (const inner of Array.from(node.querySelectorAll('script[src]'))) watchScript(inner);
      }
    }
  }).observe(document, { childList: true, subtree: true });
  const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
  if (navigation !== undefined && typeof navigation.addEventListener === 'function') {
    navigation.addEventListener('navigate', (e) => {
      const event = e as Event & { hashChange?: boolean; destination?: { sameDocument?: boolean } };
      if (!event.hashChange && event.destination && event.destination.sameDocument === false) navigating = true;
    });
  }
  const refreshDelay = (): number | null => {
    const meta = document.querySelector('meta[http-equiv="refresh" i]');
    const m = meta && /^\s*(\d+(?:\.\d+)?)\s*[;,]\s*(?:url\s*=)?\s*\S/i.exec(meta.getAttribute('content') || '');
    return m && Number(m[1]) <= 10 ? Number(m[1]) : null;
  };
  const state = (): PageIdleState => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const loaded = document.readyState === 'complete';
    const sinceLoadMs = loaded && nav && nav.loadEventEnd > 0 ? performance.now() - nav.loadEventEnd : 0;
    return { timers: timers.size, requests, scripts, navigating, refreshDelay: refreshDelay(), loaded, sinceLoadMs };
  };
  // Two turns of the event loop first, so navigations started by load handlers and their microtasks show.
  const answer = (resolve: (s: PageIdleState) => void): void => {
    st(() => st(() => resolve(state()), 0), 0);
  };
  const probe = (waitForLoad: boolean): Promise<PageIdleState> =>
    new Promise<PageIdleState>((resolve) => {
      if (!waitForLoad || document.readyState === 'complete') answer(resolve);
      else window.addEventListener('load', () => answer(resolve), { once: true });
    });
  // The untouched timers, for the checker's own page-side helpers (the consent engine polls every 500 ms):
  // their waiting is ours, not the page's, and must not keep a chain open.
  const uncounted: UncountedTimers = { setTimeout: st.bind(window), clearTimeout: ct.bind(window) };
  Object.defineProperty(probe, 'timers', { enumerable: false, value: uncounted });
  Object.defineProperty(window, key, { enumerable: false, value: probe });
}
