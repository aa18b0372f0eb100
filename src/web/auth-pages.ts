// The sign-in page, the confirmation step of a one-time sign-in link, and the sign-out page.
import { hiddenCsrfField } from './csrf.js';
import { formatTime, type PageContext } from './format.js';
import { EMAIL_LINK_TTL_SECONDS, MAX_ADDRESS_LENGTH, emailOfUserId } from './email-signin.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';

export interface SignInOptions {
  /** Where to go after signing in (already checked to be a local path). */
  next: string;
  /** The OpenID provider's host when one is configured. */
  provider: string | null;
  /** One-time links from `trackcheck session-token --login-url` are accepted (embedded identity provider). */
  loginLinks: boolean;
  /** Visitors may ask for a sign-in link by email (TRACKCHECK_SMTP_URL with the embedded identity provider). */
  emailLinks: boolean;
  /** The address to refill the email form with after a refusal. */
  email?: string;
  error?: string;
}

const EMAIL_LINK_MINUTES = Math.round(EMAIL_LINK_TTL_SECONDS / 60);

function emailLinkForm(ctx: PageContext, heading: string, email: string | undefined): string {
  return `<h2>${heading}</h2>
<form class="panel email-signin" method="post" action="/auth/email-link">
${hiddenCsrfField(ctx.csrf)}
<label for="signin-email">Your email address</label>
<input type="email" id="signin-email" name="email" value="${escapeHtml(email ?? '')}" required maxlength="${MAX_ADDRESS_LENGTH}" autocomplete="email" spellcheck="false">
<p class="hint">We email you a link that signs you in. It works once, for ${EMAIL_LINK_MINUTES} minutes. Your checks, batches and API keys belong to this address.</p>
<button type="submit">Email me a sign-in link</button>
</form>`;
}

export function renderSignInPage(ctx: PageContext, opts: SignInOptions): string {
  const user = ctx.nav.user;
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  const parts: string[] = [];
  if (user) {
    parts.push(`<p class="notice">You are signed in as <strong>${escapeHtml(user.name)}</strong>.</p>
<p><a href="/checks">My checks</a> · <a href="/settings/keys">API keys</a> · <a href="/batches">Batches</a></p>`);
  } else {
    if (opts.provider) {
      const href = `/auth/oidc?next=${encodeURIComponent(opts.next)}`;
      parts.push(`<p><a class="button" href="${escapeHtml(href)}">Sign in with ${escapeHtml(opts.provider)}</a></p>
<p class="muted">You sign in at your organisation's identity provider and come back here signed in.</p>`);
    }
    if (opts.emailLinks)
      parts.push(emailLinkForm(ctx, opts.provider ? 'Or get a sign-in link by email' : 'Get a sign-in link by email', opts.email));
    if (opts.loginLinks && opts.emailLinks) {
      parts.push(`<p class="muted">Whoever runs this server can also create a sign-in link for any user id:
<code>trackcheck session-token --user &lt;user id&gt; --login-url</code>.</p>`);
    } else if (opts.loginLinks) {
      parts.push(`<h2>${opts.provider ? 'Or with a sign-in link' : 'Sign in with a one-time link'}</h2>
<p>This trackcheck uses its own identity provider. Whoever runs it creates a sign-in link for you on the server:</p>
<pre class="url">trackcheck session-token --user &lt;your user id&gt; --login-url</pre>
<p class="muted">The link works once, for 15 minutes by default. Open it in this browser.</p>
<p class="muted">Operators: with an SMTP server configured (<code>TRACKCHECK_SMTP_URL</code>), visitors can ask for sign-in links by email here.</p>`);
    }
    if (!opts.provider && !opts.loginLinks) {
      parts.push(`<p>Signing in to the web pages is not set up on this server. Whoever runs it can configure an OpenID Connect
provider (<code>TRACKCHECK_OIDC_ISSUER</code>, <code>TRACKCHECK_OIDC_CLIENT_ID</code>, <code>TRACKCHECK_OIDC_CLIENT_SECRET</code>).
The <a href="/docs">API</a> works with the identity provider's session tokens and with API keys.</p>`);
    }
  }
  const main = `<h1>Sign in</h1>
${error}
<p class="lede">Signed in, your checks are kept in <strong>My checks</strong> without the anonymous weekly limit, you can check
lists of links in batches, and you manage the API keys your scripts use.</p>
${parts.join('\n')}`;
  return renderPage(
    { title: 'Sign in | trackcheck', description: 'Sign in to trackcheck to manage API keys, batches and your checks.', nav: ctx.nav },
    main,
    ctx.version,
  );
}

export function renderLoginConfirmPage(ctx: PageContext, link: { token: string; userId: string; expiresAtMs: number }): string {
  const who = emailOfUserId(link.userId) ?? link.userId;
  const main = `<h1>Sign in to trackcheck</h1>
<form class="panel" method="post" action="/auth/login">
${hiddenCsrfField(ctx.csrf)}
<input type="hidden" name="token" value="${escapeHtml(link.token)}">
<p>This one-time link signs you in as <strong>${escapeHtml(who)}</strong>.</p>
<p class="hint">It works once and expires ${formatTime(new Date(link.expiresAtMs).toISOString())}. If you did not ask for it, close this page.</p>
<button type="submit">Sign in as ${escapeHtml(who)}</button>
</form>`;
  return renderPage(
    { title: 'Sign in | trackcheck', description: 'Confirm signing in with a one-time link.', nav: ctx.nav },
    main,
    ctx.version,
  );
}

/** The same page for every valid request: it never tells whether the address has an account or was just sent a mail. */
export function renderEmailLinkSentPage(ctx: PageContext, address: string): string {
  const main = `<h1>Check your email</h1>
<p class="notice">If <strong>${escapeHtml(address)}</strong> can receive email, a sign-in link is on its way to it.</p>
<p>Open the link in the email to sign in. It works once, for ${EMAIL_LINK_MINUTES} minutes. Nothing arrived after a few minutes?
Look in the spam folder, check the address, or <a href="/auth/signin">ask for a new link</a>.</p>`;
  return renderPage(
    { title: 'Check your email | trackcheck', description: 'A sign-in link is on its way.', nav: ctx.nav },
    main,
    ctx.version,
  );
}

export function renderSignOutPage(ctx: PageContext): string {
  const user = ctx.nav.user;
  const main = user
    ? `<h1>Sign out</h1>
<form class="panel" method="post" action="/auth/signout">
${hiddenCsrfField(ctx.csrf)}
<p>You are signed in as <strong>${escapeHtml(user.name)}</strong>. Signing out ends this session; API keys keep working.</p>
<button type="submit">Sign out</button>
</form>`
    : `<h1>Signed out</h1><p>You are not signed in. <a href="/auth/signin">Sign in</a></p>`;
  return renderPage({ title: 'Sign out | trackcheck', description: 'Sign out of trackcheck.', nav: ctx.nav }, main, ctx.version);
}
