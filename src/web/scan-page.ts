// The scan pages: /scans (the "Scan a page" form and the user's scans) and /scans/<id> (live progress that refreshes
// itself without JavaScript, the checked links grouped by verdict, worst first, the page findings, the CSV).
import type { ScanFinding, ScanView } from '../services/scan-view.js';
import type { CheckView } from '../services/check-view.js';
import { verdictKind, type VerdictKind } from '../checker/analysis/verdict.js';
import { hiddenCsrfField } from './csrf.js';
import { attr, formatTime, verdictBadge, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { tableRegion } from './tables.js';
import { BATCH_REFRESH_SECONDS } from './batch-page.js';

export interface ScansPageState {
  scans: ScanView[];
  nextCursor: string | null;
  paged: boolean;
  maxUnfinished: number;
  maxPages: number;
  error?: string;
  form?: { url?: string; render?: boolean };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function scanStatusText(s: ScanView): string {
  if (s.status === 'queued') return 'Reading the page…';
  if (s.status === 'failed') return `Failed: ${s.error?.message ?? 'no page could be read'}`;
  const done = s.completed + s.failed;
  return s.status === 'running'
    ? `Checking: ${done} of ${s.total}`
    : `${s.summary.willTrack} of ${plural(s.total, 'link', 'links')} will track`;
}

function renderScanRow(s: ScanView): string {
  return `<tr>
<td class="u"><a href="/scans/${encodeURIComponent(s.id)}">${escapeHtml(s.url)}</a></td>
<td class="n">${formatTime(s.createdAt)}</td>
<td class="n">${escapeHtml(s.status)}</td>
<td class="n">${s.pagesScanned}</td>
<td>${escapeHtml(scanStatusText(s))}</td>
</tr>`;
}

export function renderScansPage(ctx: PageContext, state: ScansPageState): string {
  const error = state.error ? `<p class="error" id="scan-error" role="alert">${escapeHtml(state.error)}</p>` : '';
  const list =
    state.scans.length === 0
      ? `<p class="empty">${state.paged ? 'No older scans.' : 'No scans yet.'}</p>`
      : tableRegion(
          'Your scans',
          `<table>
<thead><tr><th scope="col">Page</th><th scope="col">Submitted</th><th scope="col">Status</th><th scope="col">Pages</th><th scope="col">Result</th></tr></thead>
<tbody>${state.scans.map(renderScanRow).join('')}</tbody></table>`,
        );
  const pages: string[] = [];
  if (state.paged) pages.push('<a href="/scans">← Newest scans</a>');
  if (state.nextCursor) pages.push(`<a href="/scans?cursor=${encodeURIComponent(state.nextCursor)}" rel="next">Older scans →</a>`);
  const main = `<h1>Scan a page</h1>
<p class="lede">Give the address of an article (or of your sitemap): every affiliate link on it is found and checked,
with the same verdicts as a single check.</p>
<form class="panel" method="post" action="/scans">
${hiddenCsrfField(ctx.csrf)}
${error}
<label for="scan-url">Page or sitemap address</label>
<input id="scan-url" name="url" type="url" required autocomplete="off" spellcheck="false" value="${attr(state.form?.url)}"
 placeholder="https://www.your-blog.com/best-running-shoes" aria-describedby="scan-hint${state.error ? ' scan-error' : ''}">
<p class="hint" id="scan-hint">Links to known networks, aggregators and shorteners, and your own cloaked links (/go/, /recommends/…),
are checked, at most 500 per scan. A sitemap scans up to ${state.maxPages} of its pages. At most ${state.maxUnfinished} unfinished scans at a time.</p>
<p><input id="scan-render" name="render" type="checkbox" value="1"${state.form?.render === true ? ' checked' : ''}>
<label for="scan-render" class="inline">Run the page’s scripts first (finds links that JavaScript inserts; slower)</label></p>
<button type="submit">Scan this page</button>
</form>
<section aria-labelledby="scans-h"><h2 id="scans-h">Your scans</h2>
${list}
${pages.length > 0 ? `<nav class="pages" aria-label="Pages">${pages.join('')}</nav>` : ''}
</section>`;
  return renderPage(
    { title: 'Scan a page | trackcheck', description: 'Find and check every affiliate link of a page.', nav: ctx.nav },
    main,
    ctx.version,
  );
}

/** Worst first: what loses money, what is unknown, what earns nothing, what works, what is still running. */
const GROUPS: { kind: VerdictKind; heading: string }[] = [
  { kind: 'will_not_track', heading: 'Will not track' },
  { kind: 'failed', heading: 'Could not be checked' },
  { kind: 'could_not_verify', heading: 'Could not verify' },
  { kind: 'no_tracking_found', heading: 'No tracking found' },
  { kind: 'will_track', heading: 'Will track' },
  { kind: 'pending', heading: 'Still checking' },
];

export interface ScanPageState {
  scan: ScanView;
  /** The checks of the scan's links, by slug. */
  checks: Map<string, CheckView>;
}

function renderLinkRow(link: ScanView['links'][number], check: CheckView | undefined, sitemap: boolean): string {
  const rel = link.rel.length === 0 ? '<span class="muted">none</span>' : escapeHtml(link.rel.join(' '));
  return `<tr>
<td class="n">${check === undefined ? 'Queued' : verdictBadge(check)}</td>
<td>${link.text === '' ? '<span class="muted">no text</span>' : escapeHtml(link.text)}</td>
<td class="u">${escapeHtml(link.url)}</td>
<td>${check?.network ? escapeHtml(check.network) : ''}</td>
<td class="n">${check?.healthScore === null || check === undefined ? '' : `${check.healthScore}/100`}</td>
<td>${rel}</td>${sitemap ? `\n<td class="u">${escapeHtml(link.page)}</td>` : ''}
</tr>`;
}

function renderGroups(state: ScanPageState): string {
  const sitemap = state.scan.pagesScanned > 1;
  const kindOf = (slug: string): VerdictKind => {
    const check = state.checks.get(slug);
    return check === undefined ? 'pending' : verdictKind(check);
  };
  return GROUPS.map(({ kind, heading }) => {
    const links = state.scan.links.filter((link) => kindOf(link.slug) === kind);
    if (links.length === 0) return '';
    const id = `group-${kind}`;
    return `<section aria-labelledby="${id}"><h2 id="${id}">${heading} (${links.length})</h2>
${tableRegion(
  heading,
  `<table>
<thead><tr><th scope="col">Verdict</th><th scope="col">Link text</th><th scope="col">Link</th><th scope="col">Network</th><th scope="col">Health</th><th scope="col">rel</th>${sitemap ? '<th scope="col">Page</th>' : ''}</tr></thead>
<tbody>${links.map((link) => renderLinkRow(link, state.checks.get(link.slug), sitemap)).join('')}</tbody></table>`,
)}
</section>`;
  }).join('\n');
}

function renderFindings(findings: ScanFinding[]): string {
  if (findings.length === 0) return '';
  const items = findings.map(
    (f) => `<li><p><strong>${escapeHtml(f.title)}</strong> <span class="muted">(${escapeHtml(f.code)}, on ${escapeHtml(f.page)})</span></p>
<p>${escapeHtml(f.description)}</p><p><em>Fix:</em> ${escapeHtml(f.fix)}</p></li>`,
  );
  return `<section aria-labelledby="findings-h"><h2 id="findings-h">Across this page</h2><ul class="findings">${items.join('')}</ul></section>`;
}

export function renderScanPage(ctx: PageContext, state: ScanPageState): string {
  const s = state.scan;
  const finished = s.status === 'completed' || s.status === 'failed';
  const done = s.completed + s.failed;
  const found = `${plural(s.pagesScanned, 'page', 'pages')} read · ${plural(s.linksFound, 'link', 'links')} found · ${plural(s.total, 'affiliate link', 'affiliate links')} checked`;
  const progress =
    s.status === 'failed'
      ? `<p id="scan-summary" role="alert">The scan failed: ${escapeHtml(s.error?.message ?? 'no page could be read')}</p>`
      : s.status === 'queued'
        ? `<p id="scan-summary">Reading the page. This page refreshes every ${BATCH_REFRESH_SECONDS} seconds.</p>`
        : `<p><progress value="${done}" max="${s.total}" aria-label="Scan progress">${done}/${s.total}</progress></p>
<p id="scan-summary">${finished ? `Finished ${formatTime(s.completedAt)}: <strong>${s.summary.willTrack}</strong> of ${s.total} affiliate links will track.` : `Checking: ${done} of ${s.total} done. This page refreshes every ${BATCH_REFRESH_SECONDS} seconds.`}</p>
<p id="scan-counts">${found} · ${s.summary.wontTrack} will not track · ${s.summary.couldNotVerify} could not verify · ${s.summary.noTrackingFound} no tracking found</p>`;
  const none = s.status === 'completed' && s.total === 0 ? '<p class="empty">No affiliate link was found on this page.</p>' : '';
  const main = `<h1>Scan of <span class="u">${escapeHtml(s.url)}</span></h1>
<section class="verdict v-${finished ? 'neutral' : 'pending'}" aria-live="polite" aria-labelledby="progress-h">
<p class="eyebrow" id="progress-h">${escapeHtml(s.checkType)} checks${s.render ? ' · rendered in the browser' : ''} · submitted ${formatTime(s.createdAt)}</p>
${progress}
</section>
<div class="actions">${s.total > 0 ? `<a class="button" href="/scans/${encodeURIComponent(s.id)}/results.csv" download>Download results (CSV)</a>` : ''}<a href="/scans">All scans</a></div>
${none}
${renderFindings(s.findings)}
${renderGroups(state)}`;
  return renderPage(
    {
      title: `Scan ${finished ? s.status : `${done}/${s.total}`} | trackcheck`,
      description: `A scan of ${s.url}.`,
      nav: ctx.nav,
      refreshSeconds: finished ? undefined : BATCH_REFRESH_SECONDS,
    },
    main,
    ctx.version,
  );
}
