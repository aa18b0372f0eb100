// Which catalogue consent platforms show any sign of life on the page — the scripts it loaded, the globals
// it defines, the banner markup in the DOM — and whether an IAB TCF v2 API is there. Node side: cmp/detect.ts.
import type { PageConsentSignals, PlatformEvidence, PlatformSignals } from '../page-script-types.js';

function visible(el: Element): boolean {
  if (typeof el.checkVisibility === 'function') return el.checkVisibility();
  return el.getClientRects().length > 0;
}

function query(selector: string): Element | null {
  try {
    return document.querySelector(selector);
  } catch {
    return null; // a selector this Chromium does not know
  }
}

export default function scanConsentSignals(platforms: readonly PlatformSignals[]): PageConsentSignals {
  const urls: string[] = [];
  for (const script of Array.from(document.scripts)) if (script.src) urls.push(script.src.toLowerCase());
  for (const entry of performance.getEntriesByType('resource')) urls.push(entry.name.toLowerCase());
  const globals = window as unknown as Record<string, unknown>;
  const found: PlatformEvidence[] = [];
  for (const platform of platforms) {
    const script = platform.scripts.some((part) => urls.some((url) => url.includes(part)));
    const global = platform.globals.some((name) => name in globals && globals[name] !== undefined);
    let banner = false;
    let bannerVisible = false;
    for (const selector of platform.banner) {
      const el = query(selector);
      if (el === null) continue;
      banner = true;
      if (visible(el)) bannerVisible = true;
    }
    if (script || global || banner) found.push({ id: platform.id, script, global, banner, bannerVisible });
  }
  const tcf = typeof globals['__tcfapi'] === 'function' || document.querySelector('iframe[name="__tcfapiLocator"]') !== null;
  return { platforms: found, tcf };
}
