// The monitor forms of the pages (/monitors and /monitors/<id>): their fields, read into the service's input, and
// rendered again with what the visitor typed when the service refused it. One webhook, one Slack and one email
// channel per form; a monitor made through the API with more keeps them until its channels are saved here.
import type { CheckType } from '../services/check-view.js';
import type { PublicChannel } from '../services/alerts/types.js';
import { attr } from './format.js';
import type { WebForm } from './forms.js';

/** What the visitor typed, to refill the form after a refusal (never a secret). */
export interface MonitorFormValues {
  url?: string;
  checkType?: string;
  name?: string;
  interval?: string;
  webhook?: string;
  slack?: string;
  email?: string;
}

export const INTERVAL_CHOICES: [number, string][] = [
  [15, 'every 15 minutes'],
  [60, 'every hour'],
  [360, 'every 6 hours'],
  [1440, 'every day'],
  [10080, 'every week'],
];

const field = (form: WebForm, name: string) => (form.fields[name] ?? '').trim();

export function formValues(form: WebForm): MonitorFormValues {
  const cut = (name: string) => field(form, name).slice(0, 2100);
  return {
    url: cut('url'),
    checkType: cut('check_type'),
    name: cut('name'),
    interval: cut('interval_minutes'),
    webhook: cut('webhook_url'),
    slack: cut('slack_url'),
    email: cut('email'),
  };
}

/** The channels typed into the form, in the order webhook, Slack, email; empty fields are no channel. */
export function channelsOf(form: WebForm): unknown[] {
  const channels: unknown[] = [];
  const webhook = field(form, 'webhook_url');
  const secret = form.fields.webhook_secret ?? '';
  if (webhook !== '') channels.push({ type: 'webhook', url: webhook, ...(secret === '' ? {} : { secret }) });
  if (webhook === '' && secret !== '') channels.push({ type: 'webhook', secret }); // refused: "needs a url"
  const slack = field(form, 'slack_url');
  if (slack !== '') channels.push({ type: 'slack', url: slack });
  const email = field(form, 'email');
  if (email !== '') channels.push({ type: 'email', to: email });
  return channels;
}

/** The interval field: a whole number of minutes, else NaN (the service refuses it with its own words). */
export function intervalOf(form: WebForm): number | undefined {
  const raw = field(form, 'interval_minutes');
  return raw === '' ? undefined : /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
}

export const checkTypeOf = (form: WebForm): CheckType => (form.fields.check_type === 'cmp' ? 'cmp' : 'link');

/** The refill values of a monitor's current settings and its first channel of each kind. */
export function valuesOfMonitor(m: { name: string | null; intervalMinutes: number; channels: PublicChannel[] }): MonitorFormValues {
  const urlOf = (type: 'webhook' | 'slack') => m.channels.flatMap((c) => (c.type === type ? [c.url] : []))[0] ?? '';
  return {
    name: m.name ?? '',
    interval: String(m.intervalMinutes),
    webhook: urlOf('webhook'),
    slack: urlOf('slack'),
    email: m.channels.flatMap((c) => (c.type === 'email' ? [c.to] : []))[0] ?? '',
  };
}

/** The interval select; a value set through the API that is not a choice is kept as an extra option. */
export function intervalSelect(id: string, value: string | undefined): string {
  const current = value === undefined || value === '' ? '1440' : value;
  const choices = INTERVAL_CHOICES.some(([n]) => String(n) === current)
    ? INTERVAL_CHOICES
    : [...INTERVAL_CHOICES, [Number(current), `every ${current} minutes`] as [number, string]];
  const options = choices.map(([n, label]) => `<option value="${n}"${String(n) === current ? ' selected' : ''}>${label}</option>`).join('');
  return `<label for="${id}">How often</label><select id="${id}" name="interval_minutes">${options}</select>`;
}

/** The three channel fields, with a hint; `prefix` keeps ids unique on a page with two forms. */
export function channelFields(prefix: string, v: MonitorFormValues): string {
  return `<fieldset class="channels"><legend>Alert me (optional)</legend>
<label for="${prefix}-webhook">Webhook URL</label>
<input id="${prefix}-webhook" name="webhook_url" type="text" inputmode="url" autocomplete="off" spellcheck="false" value="${attr(v.webhook)}" placeholder="https://example.com/hooks/trackcheck">
<label for="${prefix}-secret">Webhook secret (optional, 8 to 256 characters)</label>
<input id="${prefix}-secret" name="webhook_secret" type="text" autocomplete="off" spellcheck="false" aria-describedby="${prefix}-secret-hint">
<p class="hint" id="${prefix}-secret-hint">Requests are then signed (<code>Trackcheck-Signature</code>); the secret is never shown again.</p>
<label for="${prefix}-slack">Slack incoming-webhook URL</label>
<input id="${prefix}-slack" name="slack_url" type="text" inputmode="url" autocomplete="off" spellcheck="false" value="${attr(v.slack)}" placeholder="https://hooks.slack.com/services/…">
<label for="${prefix}-email">Email address</label>
<input id="${prefix}-email" name="email" type="email" autocomplete="email" value="${attr(v.email)}">
</fieldset>`;
}
