// The API keys page (/settings/keys): the signed-in user's keys, a form to create one (its secret shown once, with
// a copy button), and the confirmation page for revoking one.
import type { CreatedKey, KeySummary } from '../services/keys.js';
import { hiddenCsrfField } from './csrf.js';
import { attr, formatTime, type PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { tableRegion } from './tables.js';

export interface KeysPageState {
  keys: KeySummary[];
  now: number;
  publicUrl: string;
  /** Just created: the only time its secret is shown. */
  created?: CreatedKey;
  notice?: string;
  error?: string;
  form?: { name?: string; expires?: string };
}

function renderCreated(created: CreatedKey, publicUrl: string): string {
  const key = escapeHtml(created.key);
  return `<section class="secret" aria-labelledby="new-key-h">
<h2 id="new-key-h">Your new API key “${escapeHtml(created.name)}”</h2>
<p><strong>Copy it now: this is the only time trackcheck shows it.</strong> Only a hash of it is stored, so nobody can show it
again. If you lose it, revoke it and create another. Treat it like a password.</p>
<p><label for="new-key">API key</label><br><input id="new-key" readonly value="${key}" autocomplete="off" spellcheck="false"></p>
<div class="actions"><button type="button" hidden data-copy="${key}" data-field="new-key" data-done="Key copied">Copy key</button></div>
<p>Send it as <code>Authorization: Bearer ${key.slice(0, 12)}…</code>, for example:</p>
<pre class="url">curl -H "Authorization: Bearer $TRACKCHECK_API_KEY" ${escapeHtml(publicUrl)}/v1/checks</pre>
</section>`;
}

function renderKeyRow(k: KeySummary, now: number): string {
  const expired = k.expiresAt !== null && Date.parse(k.expiresAt) <= now;
  return `<tr>
<td>${escapeHtml(k.name)}</td>
<td class="n"><code>${escapeHtml(k.keyPrefix)}…</code></td>
<td class="n">${formatTime(k.createdAt)}</td>
<td class="n">${formatTime(k.expiresAt)}${expired ? ' <span class="badge b-critical">expired</span>' : ''}</td>
<td class="n">${formatTime(k.lastUsedAt)}</td>
<td class="n"><a href="/settings/keys/${encodeURIComponent(k.id)}/revoke" aria-label="Revoke ${escapeHtml(k.name)} (${escapeHtml(k.keyPrefix)}…)">Revoke…</a></td>
</tr>`;
}

function renderKeyTable(keys: KeySummary[], now: number): string {
  if (keys.length === 0) return '<p class="empty">No API keys yet.</p>';
  return tableRegion(
    'Your keys',
    `<table>
<caption class="muted">${keys.length} active key${keys.length === 1 ? '' : 's'}, newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map((k) => renderKeyRow(k, now)).join('')}</tbody>
</table>`,
  );
}

export function renderKeysPage(ctx: PageContext, state: KeysPageState): string {
  const error = state.error ? `<p class="error" id="key-error" role="alert">${escapeHtml(state.error)}</p>` : '';
  const notice = state.notice ? `<p class="notice" role="status">${escapeHtml(state.notice)}</p>` : '';
  const tomorrow = new Date(state.now + 86_400_000).toISOString().slice(0, 10);
  const described = state.error ? ' aria-describedby="key-error" aria-invalid="true"' : '';
  const main = `<h1>API keys</h1>
<p class="lede">Scripts and integrations authenticate to the <a href="/docs">API</a> with a key. A key acts as you: its checks
and batches are yours, with your rate limit.</p>
${notice}
${state.created ? renderCreated(state.created, state.publicUrl) : ''}
<section aria-labelledby="keys-h"><h2 id="keys-h">Your keys</h2>
${renderKeyTable(state.keys, state.now)}
</section>
<section aria-labelledby="create-h"><h2 id="create-h">Create a key</h2>
<form class="panel" method="post" action="/settings/keys">
${hiddenCsrfField(ctx.csrf)}
${error}
<label for="key-name">Name</label>
<input id="key-name" name="name" type="text" required maxlength="100" autocomplete="off" value="${attr(state.form?.name)}"${described}>
<p class="hint">Say where it is used, e.g. “CI link checker”.</p>
<label for="key-expires">Expires on (optional)</label>
<input id="key-expires" name="expires" type="date" min="${tomorrow}" value="${attr(state.form?.expires)}" aria-describedby="expires-hint">
<p class="hint" id="expires-hint">The key stops working at 00:00 UTC on this day. Leave empty for a key that does not expire.</p>
<button type="submit">Create key</button>
</form>
</section>`;
  return renderPage(
    {
      title: 'API keys | trackcheck',
      description: 'Create, list and revoke your trackcheck API keys.',
      nav: ctx.nav,
      script: state.created !== undefined,
    },
    main,
    ctx.version,
  );
}

export function renderRevokePage(ctx: PageContext, key: KeySummary): string {
  const main = `<h1>Revoke this key?</h1>
<form class="panel" method="post" action="/settings/keys/${encodeURIComponent(key.id)}/revoke">
${hiddenCsrfField(ctx.csrf)}
<p><strong>${escapeHtml(key.name)}</strong> <code>${escapeHtml(key.keyPrefix)}…</code>, created ${formatTime(key.createdAt)}, last used ${formatTime(key.lastUsedAt)}.</p>
<p>Every request with this key is refused from now on (<code>401 invalid_api_key</code>). This cannot be undone.</p>
<div class="actions"><button type="submit" class="danger">Revoke key</button><a href="/settings/keys">Cancel</a></div>
</form>`;
  return renderPage({ title: 'Revoke key | trackcheck', description: 'Confirm revoking an API key.', nav: ctx.nav }, main, ctx.version);
}
