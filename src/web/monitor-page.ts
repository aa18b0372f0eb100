// /monitors/<id>: one monitor's state and last run, its actions (run now, pause or resume, delete), its settings and
// alert channels, and the history of its events: what changed, the reports of the run and the run before, and how
// each alert was delivered. /monitors/<id>/delete asks before deleting.
import type { AlertChange, AlertEvent, AlertEventType, DeliveryView, JsonValue, PublicChannel } from '../services/alerts/types.js';
import type { MonitorView } from '../services/monitors/index.js';
import { hiddenCsrfField } from './csrf.js';
import { attr, formatTime, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { channelFields, intervalSelect, valuesOfMonitor, type MonitorFormValues } from './monitor-form.js';
import { intervalWords, monitorTitle, stateBadge } from './monitors-page.js';

const EVENT_LABELS: Record<AlertEventType, string> = {
  'monitor.broken': 'The link broke',
  'monitor.recovered': 'The link recovered',
  'monitor.changed': 'The chain changed',
};

export interface MonitorPageState {
  monitor: MonitorView;
  events: AlertEvent[];
  nextCursor: string | null;
  paged: boolean;
  notice?: string;
  /** A refused form: which one, the reason, and what was typed (over the monitor's current values). */
  error?: { form: 'settings' | 'channels'; message: string };
  form?: MonitorFormValues;
}

const reportLink = (slug: string, label: string) => `<a href="/r/${encodeURIComponent(slug)}">${escapeHtml(label)}</a>`;

function value(v: JsonValue): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map(value).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function changeText(c: AlertChange): string {
  return `${c.field}: ${value(c.from)} → ${value(c.to)}`;
}

/** A channel for people: a Slack webhook's path is a credential, so only its host is shown. */
export function channelText(c: PublicChannel): string {
  if (c.type === 'email') return `Email to ${c.to}`;
  if (c.type === 'slack') return `Slack (${URL.canParse(c.url) ? new URL(c.url).host : 'incoming webhook'})`;
  return `Webhook ${c.url}${c.hasSecret ? ' (signed)' : ''}`;
}

function deliveryText(d: DeliveryView): string {
  const attempts = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  const error = d.lastError === null ? '' : ` · last error: ${escapeHtml(d.lastError)}`;
  return `<li>${escapeHtml(channelText(d.channel))}: <strong class="ds-${d.status}">${d.status}</strong> after ${attempts}${error}</li>`;
}

function renderEvent(e: AlertEvent): string {
  const changes =
    e.changes.length === 0 ? '' : `<ul class="changes">${e.changes.map((c) => `<li>${escapeHtml(changeText(c))}</li>`).join('')}</ul>`;
  const reports = [
    reportLink(e.checkSlug, 'Report of this run'),
    e.previousCheckSlug === null ? '' : reportLink(e.previousCheckSlug, 'Report of the run before'),
  ]
    .filter(Boolean)
    .join(' · ');
  const deliveries =
    e.deliveries.length === 0
      ? '<p class="muted">No alert channels: nothing was sent.</p>'
      : `<ul class="deliveries">${e.deliveries.map(deliveryText).join('')}</ul>`;
  return `<li class="event ev-${e.type.slice('monitor.'.length)}">
<h3>${escapeHtml(EVENT_LABELS[e.type])} <span class="muted">(<code>${escapeHtml(e.type)}</code>)</span></h3>
<p>${formatTime(e.createdAt)}</p>
${changes}
<p>${reports}</p>
${deliveries}
</li>`;
}

function facts(m: MonitorView): string {
  const last = m.lastCheck;
  const rows: [string, string][] = [
    ['State', stateBadge(m.state)],
    ['Link', `<span class="mono">${escapeHtml(m.url)}</span>`],
    ['Check', `${escapeHtml(m.checkType)}, ${intervalWords(m.intervalMinutes)}${m.paused ? ' <strong>(paused)</strong>' : ''}`],
    ['Last run', formatTime(m.lastRunAt, 'not yet')],
    ['Next run', m.paused ? '<span class="muted">paused</span>' : formatTime(m.nextRunAt, 'not scheduled')],
    [
      'Last report',
      last === null
        ? '<span class="muted">none yet</span>'
        : `${reportLink(last.slug, 'Open the report')}${last.healthScore === null ? '' : ` · health ${last.healthScore}/100`}${last.finalUrl === null ? '' : ` · lands on <span class="mono">${escapeHtml(last.finalUrl)}</span>`}`,
    ],
    [
      'Alerts',
      m.channels.length === 0
        ? '<span class="muted">none (the history below still records every change)</span>'
        : m.channels.map((c) => escapeHtml(channelText(c))).join('<br>'),
    ],
    ['Created', formatTime(m.createdAt)],
  ];
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const postButton = (action: string, csrf: string, label: string, cls = 'secondary') =>
  `<form class="inline" method="post" action="${action}">${hiddenCsrfField(csrf)}<button type="submit" class="${cls}">${label}</button></form>`;

export function renderMonitorPage(ctx: PageContext, s: MonitorPageState): string {
  const m = s.monitor;
  const base = `/monitors/${encodeURIComponent(m.id)}`;
  const v = { ...valuesOfMonitor(m), ...s.form };
  const errorFor = (form: 'settings' | 'channels') =>
    s.error?.form === form ? `<p class="error" id="${form}-error" role="alert">${escapeHtml(s.error.message)}</p>` : '';
  const notice = s.notice ? `<p class="notice" role="status">${escapeHtml(s.notice)}</p>` : '';
  const actions = `<div class="actions">
${postButton(`${base}/run`, ctx.csrf, 'Run now')}
${m.paused ? postButton(`${base}/resume`, ctx.csrf, 'Resume') : postButton(`${base}/pause`, ctx.csrf, 'Pause')}
<a class="button danger" href="${base}/delete">Delete…</a>
<a href="/monitors">All monitors</a>
</div>`;
  const history =
    s.events.length === 0
      ? `<p class="empty">${s.paged ? 'No older events.' : 'No events yet: they appear when a run finds the link broken, recovered or changed.'}</p>`
      : `<ol class="events">${s.events.map(renderEvent).join('')}</ol>`;
  const pages: string[] = [];
  if (s.paged) pages.push(`<a href="${base}">← Newest events</a>`);
  if (s.nextCursor) pages.push(`<a href="${base}?cursor=${encodeURIComponent(s.nextCursor)}" rel="next">Older events →</a>`);
  const main = `<h1>${escapeHtml(monitorTitle(m))}</h1>
${notice}
<section aria-labelledby="monitor-facts-h"><h2 id="monitor-facts-h" class="visually-hidden">Monitor</h2>${facts(m)}</section>
${actions}
<section aria-labelledby="history-h"><h2 id="history-h">History</h2>
${history}
${pages.length > 0 ? `<nav class="pages" aria-label="Pages">${pages.join('')}</nav>` : ''}
</section>
<section aria-labelledby="settings-h"><h2 id="settings-h">Settings</h2>
<form class="panel" method="post" action="${base}/settings">
${hiddenCsrfField(ctx.csrf)}
${errorFor('settings')}
<label for="edit-name">Name (optional)</label>
<input id="edit-name" name="name" type="text" maxlength="100" autocomplete="off" value="${attr(v.name)}">
${intervalSelect('edit-interval', v.interval)}
<button type="submit">Save settings</button>
</form>
</section>
<section aria-labelledby="channels-h"><h2 id="channels-h">Alert channels</h2>
<form class="panel" method="post" action="${base}/channels">
${hiddenCsrfField(ctx.csrf)}
${errorFor('channels')}
<p class="hint">Saving replaces the monitor's channels with these. Leave a field empty for no channel of that kind; enter a webhook's secret again to keep its requests signed.</p>
${channelFields('edit', v)}
<button type="submit">Save channels</button>
</form>
</section>`;
  return renderPage(
    { title: `${monitorTitle(m)} | Monitors | trackcheck`, description: `A monitor of ${m.url}.`, nav: ctx.nav },
    main,
    ctx.version,
  );
}

export function renderDeleteMonitorPage(ctx: PageContext, m: MonitorView): string {
  const base = `/monitors/${encodeURIComponent(m.id)}`;
  const main = `<section class="message"><h1>Delete this monitor?</h1>
<p>${escapeHtml(monitorTitle(m))} will no longer be checked and no more alerts will be sent. Its reports stay readable at their links.</p>
<div class="actions">${postButton(`${base}/delete`, ctx.csrf, 'Delete monitor', 'danger')}<a href="${base}">Keep it</a></div></section>`;
  return renderPage({ title: 'Delete monitor | trackcheck', description: 'Confirm deleting a monitor.', nav: ctx.nav }, main, ctx.version);
}
