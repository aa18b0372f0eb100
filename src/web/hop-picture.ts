// The hop timeline as a picture: one row per request, with the host, status, kind, the time it took as a bar,
// and whether the network's click id is on that hop's URL (and where it was lost). Inline SVG, drawn with
// presentation attributes only (the CSP allows no inline style attributes). Drawn twice, from one description of
// the rows: wide (one line per hop) and narrow (each hop over three lines, for phones), and the stylesheet shows
// the one that fits, so the text is never scaled below a readable size. Every text sits in a column of its own
// (the time label at a fixed x, left of the badge), so labels never overlap whatever the hop's time.
import { clickIdsIn } from '../checker/analysis/attribution.js';
import type { Hop, Issue } from '../checker/types.js';
import { escapeHtml } from './html.js';
import { formatMs } from './time.js';

/** A bar at full length means one second (the slow-hop threshold) or the slowest hop, whichever is longer. */
const FULL_BAR_MS = 1000;

/** `unanswered`: the click id is on the URL of a hop that got no response, so nobody saw it arrive. */
export type ClickIdState = 'present' | 'unanswered' | 'lost' | 'gone' | 'absent' | 'missing' | 'none';

export interface HopPictureInput {
  hops: Hop[];
  /** The network's click-id parameter names (empty: none expected). */
  expected: string[];
  issues: Issue[];
}

/** Per hop: is the click id on its URL, was it lost on arriving here, or never there at all. */
export function clickIdStates(hops: Hop[], expected: string[]): ClickIdState[] {
  if (expected.length === 0) return hops.map(() => 'none');
  let seen = false;
  let lost = false;
  const states = hops.map((hop): ClickIdState => {
    // A placeholder or empty value identifies no click: only a real value counts as the click id.
    if (clickIdsIn(hop.url, expected).length > 0) {
      seen = true;
      lost = false;
      return hop.status === null ? 'unanswered' : 'present';
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
  unanswered: { fill: '#f6f8fa', stroke: '#6e7781', text: '#1b1f24', label: () => '? no response' },
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

/**
 * Where everything goes, relative to a row's node centre (cy). Text widths are budgeted in characters, for a wide
 * face (DejaVu Sans, about 0.65em a character in bold) so the text ends before the next column starts.
 */
interface Layout {
  name: 'wide' | 'narrow';
  width: number;
  top: number;
  row: number;
  node: { x: number; r: number };
  host: { x: number; dy: number; chars: number };
  detail: { x: number; dy: number; chars: number };
  bar: { x: number; dy: number; max: number };
  time: { x: number };
  badge: { x: number; w: number };
  header: (clickHeader: string) => string;
}

const HEADER_TEXT = 'font-size="12" font-weight="700" fill="#57606a"';

const WIDE: Layout = {
  name: 'wide',
  width: 760,
  top: 66,
  row: 64,
  node: { x: 28, r: 11 },
  host: { x: 52, dy: -2, chars: 36 },
  detail: { x: 52, dy: 17, chars: 48 },
  bar: { x: 440, dy: 0, max: 100 },
  time: { x: 548 },
  badge: { x: 620, w: 128 },
  header: (click) =>
    `<text x="52" y="24" ${HEADER_TEXT}>Hop · host · status · kind</text><text x="440" y="24" ${HEADER_TEXT}>Time</text>` +
    `<text x="752" y="24" text-anchor="end" ${HEADER_TEXT}>${escapeHtml(click)}</text>`,
};

const NARROW: Layout = {
  name: 'narrow',
  width: 330,
  top: 52,
  row: 78,
  node: { x: 20, r: 12 },
  host: { x: 42, dy: 5, chars: 26 },
  detail: { x: 42, dy: 24, chars: 36 },
  bar: { x: 42, dy: 46, max: 96 },
  time: { x: 146 },
  badge: { x: 206, w: 118 },
  header: (click) =>
    `<text x="8" y="20" ${HEADER_TEXT}>Hops</text><text x="322" y="20" text-anchor="end" ${HEADER_TEXT}>${escapeHtml(click)}</text>`,
};

interface RowInput {
  hop: Hop;
  index: number;
  state: ClickIdState;
  nextState: ClickIdState | undefined;
  isLast: boolean;
  maxMs: number;
  expectedLabel: string;
}

function renderRow(l: Layout, r: RowInput): string {
  const { hop, index } = r;
  const cy = l.top + index * l.row;
  const parts: string[] = [];
  if (!r.isLast) {
    const dropped = r.nextState === 'lost';
    const dash = hop.kind === 'http' ? '' : ' stroke-dasharray="4 3"';
    parts.push(
      `<line x1="${l.node.x}" y1="${cy + l.node.r}" x2="${l.node.x}" y2="${cy + l.row - l.node.r}" stroke="${dropped ? '#a40e26' : '#8c959f'}" stroke-width="${dropped ? 4 : 2}"${dash}/>`,
    );
  }
  parts.push(`<circle cx="${l.node.x}" cy="${cy}" r="${l.node.r}" fill="${nodeColour(hop)}"/>`);
  parts.push(`<text x="${l.node.x}" y="${cy + 4}" text-anchor="middle" font-size="12" font-weight="700" fill="#fff">${index}</text>`);
  parts.push(
    `<text x="${l.host.x}" y="${cy + l.host.dy}" font-size="15" font-weight="600" fill="#1b1f24">${escapeHtml(truncate(hostOf(hop.url), l.host.chars))}</text>`,
  );
  parts.push(
    `<text x="${l.detail.x}" y="${cy + l.detail.dy}" font-size="12.5" fill="#57606a">${escapeHtml(truncate(describeHop(hop, r.isLast), l.detail.chars))}</text>`,
  );
  const by = cy + l.bar.dy;
  const bar = Math.max(2, Math.round((hop.timeMs / r.maxMs) * l.bar.max));
  parts.push(`<rect x="${l.bar.x}" y="${by - 6}" width="${bar}" height="12" rx="2" fill="${hop.timeMs > 1000 ? '#c2410c' : '#0b57d0'}"/>`);
  parts.push(`<text class="hop-time" x="${l.time.x}" y="${by + 4}" font-size="12.5" fill="#1b1f24">${formatMs(hop.timeMs)}</text>`);
  if (r.state !== 'none') {
    const badge = CLICK_BADGE[r.state];
    parts.push(
      `<rect class="hop-badge" x="${l.badge.x}" y="${by - 12}" width="${l.badge.w}" height="24" rx="12" fill="${badge.fill}" stroke="${badge.stroke}"/>`,
    );
    parts.push(
      `<text x="${l.badge.x + l.badge.w / 2}" y="${by + 4}" text-anchor="middle" font-size="12.5" font-weight="600" fill="${badge.text}">${escapeHtml(truncate(badge.label(r.expectedLabel), 15))}</text>`,
    );
  }
  return `<g><title>${escapeHtml(`Hop ${index}: ${hop.url}`)}</title>${parts.join('')}</g>`;
}

/** A sentence for screen readers and the figure caption. */
export function summarizeHops(input: HopPictureInput, states: ClickIdState[]): string {
  const path = input.hops.map((hop, i) => `${i}: ${hostOf(hop.url)} (${hop.status ?? 'no response'}, ${formatMs(hop.timeMs)})`).join(', ');
  const param = input.expected.join(' or ');
  let click = 'No network click id is expected on this chain.';
  if (input.expected.length > 0) {
    const first = states.indexOf('present');
    const lost = states.indexOf('lost');
    const unanswered = states.indexOf('unanswered');
    if (first < 0 && unanswered < 0) click = `The click id (${param}) never appears.`;
    else if (first < 0) click = `The click id (${param}) is on the URL of hop ${unanswered}, which got no response.`;
    else if (lost >= 0) click = `The click id (${param}) appears at hop ${first} and is lost at hop ${lost}.`;
    else if (unanswered >= 0)
      click = `The click id (${param}) appears at hop ${first}; hop ${unanswered} got no response, so whether it reaches the landing page is unknown.`;
    else click = `The click id (${param}) appears at hop ${first} and survives to the landing page.`;
  }
  return `${input.hops.length} request${input.hops.length === 1 ? '' : 's'}: ${path}. ${click}`;
}

function renderSvg(l: Layout, input: HopPictureInput, states: ClickIdState[], summary: string): string {
  const maxMs = Math.max(FULL_BAR_MS, ...input.hops.map((h) => h.timeMs));
  const expectedLabel = truncate(input.expected.join('/'), 12);
  const height = l.top + (input.hops.length - 1) * l.row + Math.max(l.detail.dy + 8, l.bar.dy + 12) + 14;
  const rows = input.hops
    .map((hop, i) =>
      renderRow(l, {
        hop,
        index: i,
        state: states[i] ?? 'none',
        nextState: states[i + 1],
        isLast: i === input.hops.length - 1,
        maxMs,
        expectedLabel,
      }),
    )
    .join('\n');
  const clickHeader = input.expected.length > 0 ? `Click id (${expectedLabel})` : 'No click id expected';
  const id = `hops-${l.name}`;
  return `<svg class="hops-${l.name}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${l.width} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif">
<title id="${id}-title">Hop timeline</title>
<desc id="${id}-desc">${escapeHtml(summary)}</desc>
<rect width="${l.width}" height="${height}" fill="#ffffff"/>
${l.header(clickHeader)}
${rows}
</svg>`;
}

/** Both drawings of the timeline; the stylesheet shows one (wide above 50rem, narrow below). */
export function renderHopPicture(input: HopPictureInput, known?: { states: ClickIdState[]; summary: string }): string {
  // A caller that shows the summary as a caption too passes what it computed (the report page).
  const states = known?.states ?? clickIdStates(input.hops, input.expected);
  const summary = known?.summary ?? summarizeHops(input, states);
  return `${renderSvg(WIDE, input, states, summary)}\n${renderSvg(NARROW, input, states, summary)}`;
}
