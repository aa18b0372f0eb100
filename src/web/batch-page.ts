// The batch pages: /batches (paste or upload a list, the user's batches) and /batches/<id> (live progress that
// refreshes itself without JavaScript, each link's verdict, the results as CSV).
import type { BatchSummary, BatchView } from '../services/batches.js';
import type { CheckView } from '../services/check-view.js';
import { hiddenCsrfField } from './csrf.js';
import { attr, formatTime, verdictBadge, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { tableRegion } from './tables.js';

/** Seconds between reloads of an unfinished batch's page. */
export const BATCH_REFRESH_SECONDS = 3;

export interface BatchesPageState {
  batches: BatchView[];
  nextCursor: string | null;
  paged: boolean;
  maxUrls: number;
  maxUnfinished: number;
  error?: string;
  form?: { links?: string; checkType?: string; name?: string };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "5 will not track · 2 could not verify · 1 no tracking found"; zero counts left out unless `all`. */
function otherCounts(summary: BatchSummary, all: boolean): string {
  const parts: [number, string][] = [
    [summary.wontTrack, 'will not track'],
    [summary.couldNotVerify, 'could not verify'],
    [summary.noTrackingFound, 'no tracking found'],
  ];
  return parts
    .filter(([n]) => all || n > 0)
    .map(([n, label]) => `${n} ${label}`)
    .join(' · ');
}

function renderBatchRow(b: BatchView): string {
  const done = b.completed + b.failed;
  const label = b.name === null ? `Batch of ${plural(b.total, 'link', 'links')}` : b.name;
  const others = otherCounts(b.summary, false);
  const verdicts =
    done === 0
      ? '<span class="muted">none yet</span>'
      : `${b.summary.willTrack} of ${b.total} will track${others === '' ? '' : `<br><span class="muted">${others}</span>`}`;
  return `<tr>
<td><a href="/batches/${encodeURIComponent(b.id)}">${escapeHtml(label)}</a></td>
<td class="n">${formatTime(b.createdAt)}</td>
<td class="n">${escapeHtml(b.status)}</td>
<td><progress value="${done}" max="${b.total}" aria-label="Batch progress">${done}/${b.total}</progress> ${done} of ${b.total}${b.failed > 0 ? `, ${b.failed} failed` : ''}</td>
<td>${verdicts}</td>
<td class="n">${escapeHtml(b.checkType)}</td>
</tr>`;
}

export function renderBatchesPage(ctx: PageContext, state: BatchesPageState): string {
  const error = state.error ? `<p class="error" id="batch-error" role="alert">${escapeHtml(state.error)}</p>` : '';
  const selected = (type: string) => ((state.form?.checkType ?? 'link') === type ? ' selected' : '');
  const list =
    state.batches.length === 0
      ? `<p class="empty">${state.paged ? 'No older batches.' : 'No batches yet.'}</p>`
      : tableRegion(
          'Your batches',
          `<table>
<thead><tr><th scope="col">Batch</th><th scope="col">Submitted</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Verdicts</th><th scope="col">Type</th></tr></thead>
<tbody>${state.batches.map(renderBatchRow).join('')}</tbody></table>`,
        );
  const pages: string[] = [];
  if (state.paged) pages.push('<a href="/batches">← Newest batches</a>');
  if (state.nextCursor) pages.push(`<a href="/batches?cursor=${encodeURIComponent(state.nextCursor)}" rel="next">Older batches →</a>`);
  const main = `<h1>Batches</h1>
<p class="lede">Check up to ${state.maxUrls} links at once. Paste them, or upload the file you keep them in; each link gets a
report, and the results download as CSV.</p>
<form class="panel" method="post" action="/batches" enctype="multipart/form-data">
${hiddenCsrfField(ctx.csrf)}
${error}
<label for="batch-name">Name (optional)</label>
<input id="batch-name" name="name" type="text" maxlength="100" autocomplete="off" value="${attr(state.form?.name)}" placeholder="e.g. Spring campaign, blog sidebar">
<label for="links">Links, one per line</label>
<textarea id="links" name="links" rows="10" spellcheck="false" autocomplete="off" aria-describedby="links-hint${state.error ? ' batch-error' : ''}"
 placeholder="https://www.awin1.com/cread.php?awinmid=…&#10;https://click.linksynergy.com/deeplink?id=…">
${attr(state.form?.links)}</textarea>
<label for="file">…or upload a file (.csv or .txt)</label>
<input id="file" name="file" type="file" accept=".csv,.txt,text/csv,text/plain">
<p class="hint" id="links-hint">A CSV needs a column named <code>url</code> (or <code>link</code>); its other columns (campaign,
placement…) are kept and added to the results CSV. A text file has one link per line. Lines starting with # are skipped. At most ${state.maxUrls} links per batch and ${state.maxUnfinished} unfinished batches at a time.</p>
<label for="check_type">What to check</label>
<select id="check_type" name="check_type"><option value="link"${selected('link')}>Redirects, click id and cookies (link)</option><option value="cmp"${selected('cmp')}>Behaviour under a consent banner (cmp)</option></select>
<button type="submit">Check these links</button>
</form>
<section aria-labelledby="batches-h"><h2 id="batches-h">Your batches</h2>
${list}
${pages.length > 0 ? `<nav class="pages" aria-label="Pages">${pages.join('')}</nav>` : ''}
</section>`;
  return renderPage(
    { title: 'Batches | trackcheck', description: 'Check a list of tracking links at once.', nav: ctx.nav },
    main,
    ctx.version,
  );
}

export interface BatchPageState {
  id: string;
  name: string | null;
  status: string;
  checkType: string;
  createdAt: string;
  completedAt: string | null;
  summary: BatchSummary;
  checks: CheckView[];
}

function renderCheckRow(c: CheckView, i: number): string {
  const network = c.network ? escapeHtml(c.network) : c.status === 'completed' ? '<span class="muted">none</span>' : '';
  return `<tr>
<td class="n">${i + 1}</td>
<td class="n">${verdictBadge(c)}</td>
<td class="u">${escapeHtml(c.url)}</td>
<td>${network}</td>
<td class="n">${c.healthScore === null ? '' : `${c.healthScore}/100`}</td>
</tr>`;
}

export function renderBatchPage(ctx: PageContext, b: BatchPageState): string {
  const total = b.checks.length;
  const completed = b.checks.filter((c) => c.status === 'completed').length;
  const failed = b.checks.filter((c) => c.status === 'failed').length;
  const finished = b.status === 'completed';
  const done = completed + failed;
  const links = plural(total, 'link', 'links');
  const summary = finished
    ? `Finished ${formatTime(b.completedAt)}: <strong>${b.summary.willTrack}</strong> of ${total} links will track${failed > 0 ? `, ${failed} could not be checked` : ''}.`
    : `Checking: ${done} of ${total} done. This page refreshes every ${BATCH_REFRESH_SECONDS} seconds.`;
  const counts = `${finished ? '' : 'So far: '}<strong>${b.summary.willTrack}</strong> of ${total} will track · ${otherCounts(b.summary, true)}`;
  const heading = b.name === null ? `Batch of ${links}` : b.name;
  const main = `<h1>${escapeHtml(heading)}</h1>
<section class="verdict v-${finished ? 'neutral' : 'pending'}" aria-live="polite" aria-labelledby="progress-h">
<p class="eyebrow" id="progress-h">${b.name === null ? '' : `${links} · `}${escapeHtml(b.checkType)} checks · submitted ${formatTime(b.createdAt)}</p>
<p><progress value="${done}" max="${total}" aria-label="Batch progress">${done}/${total}</progress></p>
<p id="batch-summary">${summary}</p>
<p id="batch-counts">${counts}</p>
</section>
<div class="actions"><a class="button" href="/batches/${encodeURIComponent(b.id)}/results.csv" download>Download results (CSV)</a><a href="/batches">All batches</a></div>
${finished ? '' : '<p class="muted">The CSV holds what is known so far; links still running have empty verdict columns.</p>'}
${tableRegion(
  'Links in this batch',
  `<table>
<thead><tr><th scope="col">#</th><th scope="col">Verdict</th><th scope="col">Link</th><th scope="col">Network</th><th scope="col">Health</th></tr></thead>
<tbody>${b.checks.map(renderCheckRow).join('')}</tbody></table>`,
)}`;
  return renderPage(
    {
      title: `${b.name === null ? 'Batch' : b.name} ${finished ? 'finished' : `${done}/${total}`} | trackcheck`,
      description: `A batch of ${total} tracking links.`,
      nav: ctx.nav,
      refreshSeconds: finished ? undefined : BATCH_REFRESH_SECONDS,
    },
    main,
    ctx.version,
  );
}
