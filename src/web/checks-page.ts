// "My checks" (/checks): the signed-in user's checks, newest first, a page at a time, each with its verdict.
import type { CheckView } from '../services/check-view.js';
import { formatTime, verdictBadge, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { tableRegion } from './tables.js';

export interface ChecksPageState {
  checks: CheckView[];
  nextCursor: string | null;
  /** This is not the first page. */
  paged: boolean;
}

function renderRow(c: CheckView): string {
  const network = c.network ? escapeHtml(c.network) : '<span class="muted">none</span>';
  const score = c.healthScore === null ? '<span class="muted">–</span>' : `${c.healthScore}/100`;
  return `<tr>
<td class="n">${verdictBadge(c)}</td>
<td class="u"><a href="/r/${encodeURIComponent(c.slug)}">${escapeHtml(c.url)}</a></td>
<td>${network}</td>
<td class="n">${score}</td>
<td class="n">${escapeHtml(c.checkType)}</td>
<td class="n">${formatTime(c.createdAt)}</td>
</tr>`;
}

export function renderChecksPage(ctx: PageContext, state: ChecksPageState): string {
  const pending = state.checks.some((c) => c.status === 'queued' || c.status === 'running');
  const table =
    state.checks.length === 0
      ? `<p class="empty">${state.paged ? 'No older checks.' : 'No checks yet.'}</p><p><a href="/">Check a link</a> or <a href="/batches">check a list of links</a>.</p>`
      : tableRegion(
          'My checks',
          `<table>
<caption class="muted">Newest first. Select a verdict or a link for its full report.</caption>
<thead><tr><th scope="col">Verdict</th><th scope="col">Link</th><th scope="col">Network</th><th scope="col">Health</th><th scope="col">Type</th><th scope="col">Checked</th></tr></thead>
<tbody>${state.checks.map(renderRow).join('')}</tbody>
</table>`,
        );
  const links: string[] = [];
  if (state.paged) links.push('<a href="/checks">← Newest checks</a>');
  if (state.nextCursor) links.push(`<a href="/checks?cursor=${encodeURIComponent(state.nextCursor)}" rel="next">Older checks →</a>`);
  const pager = links.length > 0 ? `<nav class="pages" aria-label="Pages">${links.join('')}</nav>` : '';
  const main = `<h1>My checks</h1>
<p class="lede">Every link you checked while signed in, through the form, a batch, or the API with your keys.</p>
${pending ? '<p class="muted" role="status">Some checks are still running; reload the page for their verdicts.</p>' : ''}
${table}
${pager}`;
  return renderPage(
    { title: 'My checks | trackcheck', description: 'Your checked tracking links and their verdicts.', nav: ctx.nav },
    main,
    ctx.version,
  );
}
