// What a page must be at any width, measured in Chromium: nothing wider than the window, every control on screen
// and really clickable (the element at its centre is itself, not a cover, and not clipped inside a scroll box),
// every focusable region focusable, and no serious or critical axe-core violation. The in-page parts are plain
// browser JavaScript in strings (the test's tsconfig has no DOM types, and nothing transpiled goes into a page).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected as a script tag (the context bypasses the pages' CSP for it). */
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface PageAudit {
  scrollWidth: number;
  innerWidth: number;
  controls: number;
  /** Controls that are not on screen or not clickable, with why. */
  unreachable: string[];
  /** Serious and critical axe-core violations: `rule (impact): targets`. */
  axe: string[];
}

// Each control: scroll the window (only the window, vertically) so it is mid-screen, then ask what is at the
// centre of its first line box. A control clipped inside a horizontal scroll box or pushed off the right edge
// fails here, as it would for a finger.
const CONTROLS_SCRIPT = `(() => {
  const describe = (el) => {
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.id || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + name + '"';
  };
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';
  const unreachable = [];
  let controls = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[hidden]')) continue;
    controls += 1;
    el.focus({ preventScroll: true });
    if (el.matches('[tabindex]') && document.activeElement !== el) unreachable.push(describe(el) + ': not focusable');
    const first = el.getClientRects()[0];
    if (!first || first.width < 1 || first.height < 1) { unreachable.push(describe(el) + ': not displayed'); continue; }
    window.scrollTo(0, window.scrollY + first.top + first.height / 2 - window.innerHeight / 2);
    const r = el.getClientRects()[0];
    if (r.left < 0 || r.right > document.documentElement.clientWidth + 0.5) { unreachable.push(describe(el) + ': off screen (' + Math.round(r.left) + '..' + Math.round(r.right) + ')'); continue; }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== el && !el.contains(hit))) unreachable.push(describe(el) + ': covered by ' + (hit ? describe(hit) : 'nothing'));
  }
  if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  window.scrollTo(0, 0);
  return { controls, unreachable };
})()`;

const AXE_SCRIPT = `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
  .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')))`;

export async function auditPage(page: Page): Promise<PageAudit> {
  const width = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })')) as {
    scrollWidth: number;
    innerWidth: number;
  };
  const { controls, unreachable } = (await page.evaluate(CONTROLS_SCRIPT)) as { controls: number; unreachable: string[] };
  if ((await page.evaluate('typeof axe')) === 'undefined') await page.addScriptTag({ content: AXE_SOURCE });
  const axe = (await page.evaluate(AXE_SCRIPT)) as string[];
  return { ...width, controls, unreachable, axe };
}

/** The hop picture as drawn: which drawing shows, its smallest text in CSS pixels, and texts that overlap. */
export interface HopPictureAudit {
  shown: string[];
  smallestTextPx: number;
  overlaps: string[];
  badges: string[][];
}

export const HOP_PICTURE_SCRIPT = `(() => {
  const svgs = [...document.querySelectorAll('figure svg')].filter((s) => s.getClientRects().length > 0);
  const overlaps = [];
  let smallest = Infinity;
  const badges = [];
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const svg of svgs) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')];
    for (const t of texts) smallest = Math.min(smallest, parseFloat(t.getAttribute('font-size')) * scale);
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      if (meet(box(texts[i]), box(texts[j]))) overlaps.push(texts[i].textContent + ' / ' + texts[j].textContent);
    }
    for (const g of svg.querySelectorAll('g')) {
      const time = g.querySelector('.hop-time');
      const badge = g.querySelector('.hop-badge');
      if (time && badge && meet(box(time), box(badge))) overlaps.push(time.textContent + ' / badge');
      // A text over a bar or a badge it does not sit inside (a badge's own label sits inside it).
      for (const t of g.querySelectorAll('text')) for (const rect of g.querySelectorAll('rect')) {
        const a = box(t), b = box(rect);
        const inside = a.left >= b.left && a.right <= b.right && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
        if (meet(a, b) && !inside) overlaps.push(t.textContent + ' / ' + (rect.getAttribute('class') || 'bar'));
      }
      badges.push([...g.querySelectorAll('text')].map((t) => t.textContent));
    }
  }
  return { shown: svgs.map((s) => s.getAttribute('class')), smallestTextPx: smallest, overlaps, badges };
})()`;

export async function auditHopPicture(page: Page): Promise<HopPictureAudit> {
  return (await page.evaluate(HOP_PICTURE_SCRIPT)) as HopPictureAudit;
}
