// The hop timeline as a picture: one row per request, with the host, status, kind, the time it took as a bar,
// and whether the network's click id is on that hop's URL (and where it was lost). Inline SVG, drawn with
// presentation attributes only (the CSP allows no inline style attributes).
import type { Hop, Issue } from '../checker/types.js';
import { escapeHtml } from './html.js';

const WIDTH = 760;
const ROW = 64;
const TOP = 44;
const X_NODE = 28;
const X_TEXT = 52;
const X_BAR = 440;
const BAR_MAX = 120;
/** A bar at full length means one second (the slow-hop threshold) or the slowest hop, whichever is longer. */
const FULL_BAR_MS = 1000;
const X_CLICK = 620;
const CLICK_W = 128;

export type ClickIdState = 'present' | 'lost' | 'gone' | 'absent' | 'missing' | 'none';

export interface HopPictureInput {
  hops: Hop[];
  /** The network's click-id parameter names (empty: none expected). */
  expected: string[];
  issues: Issue[];
}

function hasParam(url: string, names: string[]): boolean {
  try {
    const params = new URL(url).searchParams;
    return names.some((name) => params.has(name));
  } catch {
    return false;
  }
}

/** Per hop: is the click id on its URL, was it lost on arriving here, or never there at all. */
export function clickIdStates(hops: Hop[], expected: string[]): ClickIdState[] {
  if (expected.length === 0) return hops.map(() => 'none');
  let seen = false;
  let lost = false;
  const states = hops.map((hop): ClickIdState => {
    if (hasParam(hop.url, expected)) {
      seen = true;
      lost = false;
      return 'present';
    }
    if (!seen) return 'absent';
    if (lost) return 'gone';
    lost = true;
    return 'lost';
  });
  // Never there at all: the landing hop is where it should have been.
  if (!seen && states.length > 0) states[states.length - 1] = 'missing';
  return states;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function nodeColour(hop: Hop): string {
  if (hop.status === null) return '#6e7781';
  if (hop.status >= 400) return '#a40e26';
  if (hop.status >= 300) return '#0b57d0';
  return '#116329';
}

const CLICK_BADGE: Record<Exclude<ClickIdState, 'none'>, { fill: string; stroke: string; text: string; label: (p: string) => string }> = {
  present: { fill: '#e6f4ea', stroke: '#116329', text: '#0a3d1a', label: (p) => `✓ ${p}` },
  lost: { fill: '#fdecee', stroke: '#a40e26', text: '#5c0716', label: () => '✗ lost here' },
  gone: { fill: '#ffffff', stroke: '#d8a0a8', text: '#a40e26', label: () => 'still missing' },
  missing: { fill: '#fdecee', stroke: '#a40e26', text: '#5c0716', label: () => '✗ never arrived' },
  absent: { fill: '#ffffff', stroke: '#d8dee4', text: '#57606a', label: () => 'not yet' },
};

function describeHop(hop: Hop, isLast: boolean): string {
  const status = hop.status === null ? truncate(hop.error ?? 'no response', 28) : String(hop.status);
  const cookies = hop.cookies.length === 0 ? '' : ` · ${hop.cookies.length} cookie${hop.cookies.length === 1 ? '' : 's'}`;
  const network = hop.network ? ` · ${hop.network.name}` : '';
  return `${status} · ${hop.kind}${network}${isLast && hop.status !== null ? ' · landing page' : ''}${cookies}`;
}

function renderRow(hop: Hop, index: number, state: ClickIdState, maxMs: number, isLast: boolean, nextState: ClickIdState | undefined, expectedLabel: string): string {
  const cy = TOP + index * ROW + 22;
  const parts: string[] = [];
  if (!isLast) {
    const dropped = nextState === 'lost';
    const dash = hop.kind === 'http' ? '' : ' stroke-dasharray="4 3"';
    parts.push(`<line x1="${X_NODE}" y1="${cy + 10}" x2="${X_NODE}" y2="${cy + ROW - 10}" stroke="${dropped ? '#a40e26' : '#8c959f'}" stroke-width="${dropped ? 4 : 2}"${dash}/>`);
  }
  parts.push(`<circle cx="${X_NODE}" cy="${cy}" r="11" fill="${nodeColour(hop)}"/>`);
  parts.push(`<text x="${X_NODE}" y="${cy + 4}" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">${index}</text>`);
  parts.push(`<text x="${X_TEXT}" y="${cy - 2}" font-size="15" font-weight="600" fill="#1b1f24">${escapeHtml(truncate(hostOf(hop.url), 44))}</text>`);
  parts.push(`<text x="${X_TEXT}" y="${cy + 17}" font-size="12.5" fill="#57606a">${escapeHtml(truncate(describeHop(hop, isLast), 58))}</text>`);
  const bar = Math.max(2, Math.round((hop.timeMs / maxMs) * BAR_MAX));
  parts.push(`<rect x="${X_BAR}" y="${cy - 7}" width="${bar}" height="12" rx="2" fill="${hop.timeMs > 1000 ? '#c2410c' : '#0b57d0'}"/>`);
  parts.push(`<text x="${X_BAR + bar + 6}" y="${cy + 4}" font-size="12.5" fill="#1b1f24">${Math.round(hop.timeMs)} ms</text>`);
  if (state !== 'none') {
    const badge = CLICK_BADGE[state];
    parts.push(`<rect x="${X_CLICK}" y="${cy - 13}" width="${CLICK_W}" height="24" rx="12" fill="${badge.fill}" stroke="${badge.stroke}"/>`);
    parts.push(`<text x="${X_CLICK + CLICK_W / 2}" y="${cy + 4}" text-anchor="middle" font-size="12.5" font-weight="600" fill="${badge.text}">${escapeHtml(truncate(badge.label(expectedLabel), 20))}</text>`);
  }
  return `<g><title>${escapeHtml(`Hop ${index}: ${hop.url}`)}</title>${parts.join('')}</g>`;
}

/** A sentence for screen readers and the figure caption. */
export function summarizeHops(input: HopPictureInput, states: ClickIdState[]): string {
  const path = input.hops.map((hop, i) => `${i}: ${hostOf(hop.url)} (${hop.status ?? 'no response'}, ${Math.round(hop.timeMs)} ms)`).join(', ');
  const param = input.expected.join(' or ');
  let click = 'No network click id is expected on this chain.';
  if (input.expected.length > 0) {
    const first = states.indexOf('present');
    const lost = states.indexOf('lost');
    if (first < 0) click = `The click id (${param}) never appears.`;
    else click = `The click id (${param}) appears at hop ${first}${lost >= 0 ? ` and is lost at hop ${lost}` : ' and survives to the landing page'}.`;
  }
  return `${input.hops.length} request${input.hops.length === 1 ? '' : 's'}: ${path}. ${click}`;
}

export function renderHopPicture(input: HopPictureInput): string {
  const states = clickIdStates(input.hops, input.expected);
  const maxMs = Math.max(FULL_BAR_MS, ...input.hops.map((h) => h.timeMs));
  const expectedLabel = truncate(input.expected.join('/'), 14);
  const height = TOP + input.hops.length * ROW;
  const rows = input.hops.map((hop, i) => renderRow(hop, i, states[i] ?? 'none', maxMs, i === input.hops.length - 1, states[i + 1], expectedLabel)).join('\n');
  const clickHeader = input.expected.length > 0 ? `Click id (${expectedLabel})` : 'No click id expected';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="hops-svg-title hops-svg-desc" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif">
<title id="hops-svg-title">Hop timeline</title>
<desc id="hops-svg-desc">${escapeHtml(summarizeHops(input, states))}</desc>
<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>
<text x="${X_TEXT}" y="24" font-size="12" font-weight="700" fill="#57606a">Hop · host · status · kind</text>
<text x="${X_BAR}" y="24" font-size="12" font-weight="700" fill="#57606a">Time</text>
<text x="${X_CLICK + CLICK_W / 2}" y="24" text-anchor="middle" font-size="12" font-weight="700" fill="#57606a">${escapeHtml(clickHeader)}</text>
${rows}
</svg>`;
}
