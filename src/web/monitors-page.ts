// /monitors: the signed-in user's monitors (state, link, schedule) and the form that makes a new one.
import type { MonitorState } from '../services/alerts/types.js';
import type { MonitorView } from '../services/monitors/index.js';
import { hiddenCsrfField } from './csrf.js';
import { attr, formatTime, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { channelFields, intervalSelect, type MonitorFormValues } from './monitor-form.js';
import { tableRegion } from './tables.js';

const STATE_LABELS: Record<MonitorState, { label: string; mark: string }> = {
  pending: { label: 'Pending', mark: '…' },
  healthy: { label: 'Healthy', mark: '✓' },
  broken: { label: 'Broken', mark: '✗' },
  unknown: { label: 'Unknown', mark: '?' },
};

/** The state in words and colour (the colour alone never carries it). */
export function stateBadge(state: MonitorState): string {
  const { label, mark } = STATE_LABELS[state];
  return `<span class="mstate ms-${state}"><span aria-hidden="true">${mark}</span> ${label}</span>`;
}

/** `every day`, `every 6 hours`, `every 45 minutes`. */
export function intervalWords(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : minutes === 10080 ? 'every week' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return `every ${minutes} minutes`;
}

export const monitorTitle = (m: Pick<MonitorView, 'name' | 'url'>) => m.name ?? m.url;

export interface MonitorsPageState {
  monitors: MonitorView[];
  nextCursor: string | null;
  paged: boolean;
  notice?: string;
  error?: string;
  form?: MonitorFormValues;
}

function renderRow(m: MonitorView): string {
  const name = m.name === null ? '' : `<strong>${escapeHtml(m.name)}</strong><br>`;
  return `<tr>
<td class="n">${stateBadge(m.state)}</td>
<td class="u">${name}<a href="/monitors/${encodeURIComponent(m.id)}">${escapeHtml(m.url)}</a></td>
<td class="n">${intervalWords(m.intervalMinutes)}</td>
<td class="n">${formatTime(m.lastRunAt, 'not yet')}</td>
<td class="n">${m.paused ? '<span class="muted">paused</span>' : formatTime(m.nextRunAt, 'not scheduled')}</td>
</tr>`;
}

export function renderMonitorsPage(ctx: PageContext, state: MonitorsPageState): string {
  const v = state.form ?? {};
  const error = state.error ? `<p class="error" id="monitor-error" role="alert">${escapeHtml(state.error)}</p>` : '';
  const notice = state.notice ? `<p class="notice" role="status">${escapeHtml(state.notice)}</p>` : '';
  const selected = (type: string) => ((v.checkType || 'link') === type ? ' selected' : '');
  const list =
    state.monitors.length === 0
      ? `<p class="empty">${state.paged ? 'No older monitors.' : 'No monitors yet.'}</p>`
      : tableRegion(
          'Your monitors',
          `<table>
<thead><tr><th scope="col">State</th><th scope="col">Link</th><th scope="col">How often</th><th scope="col">Last run</th><th scope="col">Next run</th></tr></thead>
<tbody>${state.monitors.map(renderRow).join('')}</tbody></table>`,
        );
  const pages: string[] = [];
  if (state.paged) pages.push('<a href="/monitors">← Newest monitors</a>');
  if (state.nextCursor) pages.push(`<a href="/monitors?cursor=${encodeURIComponent(state.nextCursor)}" rel="next">Older monitors →</a>`);
  const main = `<h1>Monitors</h1>
<p class="lede">A monitor checks a link again on a schedule and tells you when the answer changes: the link broke, recovered,
or its redirect chain changed. Runs that change nothing stay quiet.</p>
${notice}
<section aria-labelledby="monitors-h"><h2 id="monitors-h">Your monitors</h2>
${list}
${pages.length > 0 ? `<nav class="pages" aria-label="Pages">${pages.join('')}</nav>` : ''}
</section>
<section aria-labelledby="new-monitor-h"><h2 id="new-monitor-h">New monitor</h2>
<form class="panel" method="post" action="/monitors">
${hiddenCsrfField(ctx.csrf)}
${error}
<label for="monitor-url">Tracking link</label>
<input id="monitor-url" name="url" type="text" inputmode="url" autocomplete="off" spellcheck="false" required value="${attr(v.url)}"${state.error ? ' aria-describedby="monitor-error"' : ''} placeholder="https://www.awin1.com/cread.php?awinmid=…">
<label for="monitor-type">What to check</label>
<select id="monitor-type" name="check_type"><option value="link"${selected('link')}>Redirects, click id and cookies (link)</option><option value="cmp"${selected('cmp')}>Behaviour under a consent banner (cmp)</option></select>
<label for="monitor-name">Name (optional)</label>
<input id="monitor-name" name="name" type="text" maxlength="100" autocomplete="off" value="${attr(v.name)}" placeholder="e.g. Homepage banner, spring campaign">
${intervalSelect('monitor-interval', v.interval)}
${channelFields('new', v)}
<button type="submit">Create monitor</button>
</form>
</section>`;
  return renderPage(
    { title: 'Monitors | trackcheck', description: 'Your monitored tracking links and their state.', nav: ctx.nav },
    main,
    ctx.version,
  );
}
