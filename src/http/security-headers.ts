// Response headers every answer carries, and the one Content-Security-Policy of every HTML answer (web pages, error
// pages, /docs). Pages carry no external assets: their inline stylesheets and the copy-link script are allowed by hash,
// everything else by nothing. Which inline assets there are is the composition root's knowledge (app.ts passes them):
// http/ does not import the pages.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** On every response, also those refused before routing: a browser never second-guesses the declared type. */
export const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff' } as const;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The exact text of every inline `<style>` and `<script>` an HTML answer may carry. */
export interface InlineAssets {
  styles: readonly string[];
  scripts: readonly string[];
}

/** The policy of every text/html response; a new inline style or script must be in `inline` or it will not run. */
export function contentSecurityPolicy(inline: InlineAssets): string {
  return [
    "default-src 'none'",
    `style-src ${inline.styles.map(hashOf).join(' ')}`,
    `script-src ${inline.scripts.map(hashOf).join(' ')}`,
    'img-src data:',
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/html');
}

/** Call on the root instance before any route is registered. SECURITY_HEADERS are set by the first onRequest hook
 * (app.ts, with X-Request-Id: one hook less per request) and by the refusals before routing (framework-errors.ts). */
export function installSecurityHeaders(app: FastifyInstance, inline: InlineAssets): void {
  const policy = contentSecurityPolicy(inline);
  // Whatever produced the HTML (a page, an error page, the docs), the policy comes from here.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isHtml(reply.getHeader('content-type'))) reply.header('content-security-policy', policy);
    done(null, payload);
  });
}
