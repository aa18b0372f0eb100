// Functions that run inside the page (passed to page.evaluate): they must be self-contained, with no
// imports or closures. Kept apart from the Node-side logic so it is clear what crosses into the page.

export interface PlatformSignals {
  id: string;
  scripts: readonly string[];
  globals: readonly string[];
  banner: readonly string[];
}

export interface PlatformEvidence {
  id: string;
  script: boolean;
  global: boolean;
  banner: boolean;
  bannerVisible: boolean;
}

export interface PageConsentSignals {
  platforms: PlatformEvidence[];
  /** An IAB TCF v2 API (`__tcfapi`) or its locator frame is present. */
  tcf: boolean;
}

/** Which catalogue platforms show any sign of life on the page, and whether a TCF API is there. */
export function scanConsentSignals(platforms: readonly PlatformSignals[]): PageConsentSignals {
  const w = globalThis as unknown as Record<string, unknown> & {
    document: { scripts: ArrayLike<{ src: string }>; querySelector(s: string): unknown };
    performance: { getEntriesByType(t: string): ArrayLike<{ name: string }> };
  };
  const urls: string[] = [];
  for (const script of Array.from(w.document.scripts)) if (script.src) urls.push(script.src.toLowerCase());
  for (const entry of Array.from(w.performance.getEntriesByType('resource'))) urls.push(entry.name.toLowerCase());
  const visible = (el: unknown): boolean => {
    const node = el as { checkVisibility?: () => boolean; getClientRects(): ArrayLike<unknown> } | null;
    if (node === null) return false;
    if (typeof node.checkVisibility === 'function') return node.checkVisibility();
    return node.getClientRects().length > 0;
  };
  const found: PlatformEvidence[] = [];
  for (const platform of platforms) {
    const script = platform.scripts.some((part) => urls.some((url) => url.includes(part)));
    const global = platform.globals.some((name) => name in w && w[name] !== undefined);
    let banner = false;
    let bannerVisible = false;
    for (const selector of platform.banner) {
      let el: unknown = null;
      try {
        el = w.document.querySelector(selector);
      } catch {
        el = null;
      }
      if (el !== null) {
        banner = true;
        if (visible(el)) bannerVisible = true;
      }
    }
    if (script || global || banner) found.push({ id: platform.id, script, global, banner, bannerVisible });
  }
  const tcf = typeof w['__tcfapi'] === 'function' || w.document.querySelector('iframe[name="__tcfapiLocator"]') !== null;
  return { platforms: found, tcf };
}

/**
 * Finds the visible control whose whole label is one of `phrases` (earlier phrases win), marks it with
 * `data-trackcheck-choice=<mark>` for a real (trusted) click by Playwright, and says whether it found one.
 * Open shadow roots are searched too. One-word labels ("Accept", "OK") only count inside something that
 * looks like a consent banner.
 */
export function markChoiceByText(args: { phrases: readonly string[]; mark: string }): boolean {
  type El = {
    tagName: string;
    textContent: string | null;
    shadowRoot: Root | null;
    parentElement: El | null;
    getAttribute(n: string): string | null;
    setAttribute(n: string, v: string): void;
    getClientRects(): ArrayLike<unknown>;
    checkVisibility?: () => boolean;
    id: string;
    className: unknown;
    value?: string;
  };
  type Root = { querySelectorAll(s: string): ArrayLike<El>; host?: El };
  const doc = (globalThis as unknown as { document: Root }).document;
  const CONTROL = 'button, a, [role="button"], input[type="button"], input[type="submit"]';
  const BANNERISH = /cookie|consent|gdpr|privacy|cmp|banner|notice|tracking/i;
  const normalise = (text: string): string =>
    text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/^["'«»“”]+|["'«»“”.!…:]+$/g, '').trim();
  const inBanner = (el: El): boolean => {
    for (let node: El | null = el, depth = 0; node !== null && depth < 12; node = node.parentElement, depth += 1) {
      const label = `${node.id} ${typeof node.className === 'string' ? node.className : ''} ${node.getAttribute('aria-label') ?? ''} ${node.getAttribute('role') ?? ''}`;
      if (BANNERISH.test(label) || node.getAttribute('role') === 'dialog' || node.getAttribute('aria-modal') === 'true') return true;
    }
    return false;
  };
  const visible = (el: El): boolean => (typeof el.checkVisibility === 'function' ? el.checkVisibility() : el.getClientRects().length > 0);
  const roots: Root[] = [doc];
  for (let i = 0; i < roots.length && i < 200; i += 1) {
    const all = (roots[i] as Root).querySelectorAll('*');
    for (const el of Array.from(all)) if (el.shadowRoot !== null) roots.push(el.shadowRoot);
  }
  let best: { el: El; rank: number } | null = null;
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll(CONTROL))) {
      const label = normalise(el.tagName === 'INPUT' ? (el.value ?? '') : (el.textContent ?? el.getAttribute('aria-label') ?? ''));
      const rank = args.phrases.indexOf(label);
      if (rank < 0 || !visible(el)) continue;
      if (!label.includes(' ') && !inBanner(el)) continue;
      if (best === null || rank < best.rank) best = { el, rank };
    }
  }
  if (best === null) return false;
  best.el.setAttribute('data-trackcheck-choice', args.mark);
  return true;
}
