// The page shell every server-rendered page shares: head (meta, one inline stylesheet), header, footer, and the
// response headers. The Content-Security-Policy (which allows exactly that stylesheet and the copy script) and
// nosniff are set for every HTML response in one place: http/security-headers.ts.
import type { FastifyReply } from 'fastify';
import { escapeHtml } from './html.js';
import { STYLES } from './styles.js';

/** Progressive enhancement: shows the "Copy link" buttons and makes them copy; without it the link is text. */
export const COPY_SCRIPT =
  "for(const b of document.querySelectorAll('button[data-copy]')){b.hidden=false;b.addEventListener('click',()=>{" +
  "navigator.clipboard.writeText(b.dataset.copy).then(()=>{b.textContent=b.dataset.done||'Link copied'},()=>{" +
  'const f=document.getElementById(b.dataset.field);if(f){f.select()}})})}';

export interface PageMeta {
  title: string;
  description: string;
  /** Canonical public URL of the page (Open Graph og:url), when it has one. */
  url?: string;
  /** Seconds until the page reloads itself (a running check). */
  refreshSeconds?: number;
  /** Include the copy-link script. */
  script?: boolean;
  /** Who is signed in, for the navigation; absent = signed out. */
  nav?: NavState;
}

export interface NavState {
  user: { name: string } | null;
  /** The CSRF token for the sign-out form (signed in only). */
  csrf?: string;
  /** The path of the current page, marked aria-current in the navigation. */
  current?: string;
}

function renderNav(nav: NavState | undefined): string {
  const link = (href: string, label: string) => `<a href="${href}"${nav?.current === href ? ' aria-current="page"' : ''}>${label}</a>`;
  if (!nav?.user)
    return `<nav aria-label="Site">${link('/', 'Check a link')}${link('/docs', 'API')}${link('/auth/signin', 'Sign in')}</nav>`;
  const links = [
    link('/', 'Check a link'),
    link('/checks', 'My checks'),
    link('/batches', 'Batches'),
    link('/scans', 'Scan a page'),
    link('/monitors', 'Monitors'),
    link('/settings/keys', 'API keys'),
    link('/docs', 'API docs'),
  ];
  const signOut = `<form class="signout" method="post" action="/auth/signout"><input type="hidden" name="_csrf" value="${escapeHtml(nav.csrf ?? '')}"><button type="submit" class="link">Sign out</button></form>`;
  return `<nav aria-label="Site">${links.join('')}</nav>
<div class="account"><span class="muted">Signed in as <strong>${escapeHtml(nav.user.name)}</strong></span>${signOut}</div>`;
}

export function renderPage(meta: PageMeta, main: string, version: string): string {
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const url = meta.url ? escapeHtml(meta.url) : null;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${title}</title>`,
    `<meta name="description" content="${description}">`,
    '<meta property="og:type" content="website">',
    '<meta property="og:site_name" content="trackcheck">',
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    url ? `<meta property="og:url" content="${url}">\n<link rel="canonical" href="${url}">` : '',
    '<meta name="twitter:card" content="summary">',
    `<meta name="twitter:title" content="${title}">`,
    `<meta name="twitter:description" content="${description}">`,
    meta.refreshSeconds ? `<meta http-equiv="refresh" content="${meta.refreshSeconds}">` : '',
    '<link rel="icon" href="data:,">',
    `<style>${STYLES}</style>`,
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
${head.join('\n')}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="/">trackcheck</a>${renderNav(meta.nav)}</header>
<main id="main">
${main}
</main>
<footer class="site"><p>trackcheck ${escapeHtml(version)}: follows tracking links hop by hop and tells whether the click will be attributed. Cookie values are never stored or shown.</p></footer>
${meta.script ? `<script>${COPY_SCRIPT}</script>` : ''}
</body>
</html>
`;
}

/** Sends a page: never cached, never named in another site's Referer. */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(html);
}

/** A short page for 404s and errors: a heading, a sentence, a way back. */
export function renderMessagePage(
  title: string,
  message: string,
  version: string,
  nav?: NavState,
  action?: { href: string; label: string },
): string {
  const next = action ?? { href: '/', label: 'Check a link' };
  const main = `<section class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a></p></section>`;
  return renderPage({ title: `${title} | trackcheck`, description: message, nav }, main, version);
}
