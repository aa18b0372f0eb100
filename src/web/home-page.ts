// The home page: what trackcheck does and a form to check a link anonymously. Errors from a submission are
// shown in the page, next to the form, with the link kept in the field.
import { hiddenCsrfField } from './csrf.js';
import type { PageContext } from './format.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';

export interface HomeState {
  /** The link as submitted, to refill the field after an error. */
  url?: string;
  checkType?: 'link' | 'cmp';
  error?: string;
  /** A link offered with the error, e.g. how to sign in. */
  errorLink?: { href: string; label: string };
}

/** `canSignIn`: this server offers web sign-in (so the page may suggest it). */
export function renderHomePage(state: HomeState, ctx: PageContext, anonWeeklyChecks: number, canSignIn = true): string {
  const link = state.errorLink ? ` <a href="${escapeHtml(state.errorLink.href)}">${escapeHtml(state.errorLink.label)}</a>` : '';
  const error = state.error ? `<p class="error" id="url-error" role="alert">${escapeHtml(state.error)}${link}</p>` : '';
  const more = canSignIn
    ? '<a href="/auth/signin">sign in</a> or use the <a href="/docs">API</a> with a key'
    : 'use the <a href="/docs">API</a> with a key';
  const invalid = state.error ? ' aria-invalid="true" aria-describedby="url-error url-hint"' : ' aria-describedby="url-hint"';
  const selected = (type: string) => (state.checkType === type ? ' selected' : '');
  const main = `<h1>Will this click be attributed?</h1>
<p class="lede">trackcheck follows an affiliate tracking link the way a shopper's browser does, hop by hop, and tells you
with evidence whether the network will credit the sale: does the click id survive every redirect, is the attribution
cookie set, does the deep link land on the right page?</p>
<form class="check" method="post" action="/">
${hiddenCsrfField(ctx.csrf)}
${error}
<label for="url">Tracking link</label>
<div class="row">
<input id="url" name="url" type="url" required autocomplete="off" spellcheck="false" inputmode="url" maxlength="8000"
 placeholder="https://www.awin1.com/cread.php?awinmid=…&amp;awinaffid=…"${invalid} value="${escapeHtml(state.url ?? '')}">
<button type="submit">Check link</button>
</div>
<p><label for="check_type">What to check</label>
<select id="check_type" name="check_type"><option value="link"${selected('link')}>Redirects, click id and cookies (link)</option><option value="cmp"${selected('cmp')}>Behaviour under a consent banner (cmp)</option></select></p>
${
  ctx.nav.user
    ? `<p class="muted" id="url-hint">Signed in as ${escapeHtml(ctx.nav.user.name)}: the check is saved to <a href="/checks">My checks</a>, with no weekly
limit. The report is public to anyone with its link. Many links at once? Use <a href="/batches">a batch</a>, or <a href="/scans">scan a page</a> for all of its links.</p>`
    : `<p class="muted" id="url-hint">No account needed: ${anonWeeklyChecks} checks of each kind per week from one address. The report is public to anyone
with its link. For more, ${more}.</p>`
}
</form>
<section aria-labelledby="what-h"><h2 id="what-h">What a check tells you</h2>
<ul>
<li><strong>A verdict</strong>: will track, will not track, could not verify (bot protection is not the same as broken), or no tracking found, with a 0–100 health score.</li>
<li><strong>Every hop</strong>: status, time, the network that answered, parameters added and removed, and where the network's click id appears or is lost.</li>
<li><strong>Cookies</strong>: which attribution cookies were set, first- or third-party, and for how long. Their values are never stored.</li>
<li><strong>Issues with fixes</strong>: stripped click ids, homepage fallbacks, stacked networks, permanent redirects, unresolved macros and more.</li>
<li><strong>Evidence</strong>: a shareable report page and a plain-text evidence file, with a digest anyone can verify, to attach to a commission dispute.</li>
</ul>
</section>`;
  return renderPage(
    {
      title: 'trackcheck: will this affiliate click be attributed?',
      description:
        'Follows an affiliate tracking link hop by hop and tells whether the click will be attributed, with a shareable report and dispute evidence.',
      nav: ctx.nav,
    },
    main,
    ctx.version,
  );
}
