// Finds the visible control whose whole label is one of `phrases` (earlier phrases win), marks it with
// `data-trackcheck-choice=<mark>` for a real (trusted) click by Playwright, and says whether it found one.
// Open shadow roots are searched too. One-word labels ("Accept", "OK") only count inside something that
// looks like a consent banner. Node side: cmp/choices.ts.
const CONTROL = 'button, a, [role="button"], input[type="button"], input[type="submit"]';
const BANNERISH = /cookie|consent|gdpr|privacy|cmp|banner|notice|tracking/i;
const MAX_ROOTS = 200;

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'«»“”]+|["'«»“”.!…:]+$/g, '')
    .trim();
}

function inBanner(el: Element): boolean {
  for (let node: Element | null = el, depth = 0; node !== null && depth < 12; node = node.parentElement, depth += 1) {
    const className = typeof node.className === 'string' ? node.className : '';
    const label = `${node.id} ${className} ${node.getAttribute('aria-label') ?? ''} ${node.getAttribute('role') ?? ''}`;
    if (BANNERISH.test(label) || node.getAttribute('role') === 'dialog' || node.getAttribute('aria-modal') === 'true') return true;
  }
  return false;
}

function visible(el: Element): boolean {
  return typeof el.checkVisibility === 'function' ? el.checkVisibility() : el.getClientRects().length > 0;
}

function labelOf(el: Element): string {
  if (el.tagName === 'INPUT') return (el as HTMLInputElement).value ?? '';
  return el.textContent ?? el.getAttribute('aria-label') ?? '';
}

export default function markChoiceByText(args: { phrases: readonly string[]; mark: string }): boolean {
  const roots: ParentNode[] = [document];
  for (let i = 0; i < roots.length && i < MAX_ROOTS; i += 1) {
    for (const el of Array.from((roots[i] as ParentNode).querySelectorAll('*'))) if (el.shadowRoot !== null) roots.push(el.shadowRoot);
  }
  let best: { el: Element; rank: number } | null = null;
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll(CONTROL))) {
      const label = normalise(labelOf(el));
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
