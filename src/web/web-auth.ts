// Who is looking at a page, and whether a form post may act for them. The pages never read the Authorization header:
// a browser is signed in by the session cookie (session.ts), checked here for every page request, and every POST
// must carry the CSRF token of the form it came from (csrf.ts). Pages declare `signInRequired`; every page and form is
// rate limited like the API (per user signed in, else per IP and route), unless it declares `webRateLimited: false`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError, unauthorized } from '../http/errors.js';
import { applyRateLimit, type RateLimits } from '../http/rate-limit.js';
import { clearCookie, isSecureRequest, readCookie, setCookie } from './cookies.js';
import { CSRF_FIELD, csrfTokenFor, isValidCsrfToken, newCsrfNonce, type CsrfBinding } from './csrf.js';
import type { SessionCodec, WebSession } from './session.js';
import type { SpentTokens } from './spent-tokens.js';
import type { WebForm } from './forms.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page for signed-in visitors: others are sent to the sign-in page (GET) or refused (POST). */
    signInRequired?: boolean;
    /** Default true: counted by the per-minute rate limiter, per user when signed in, else per IP. A public report
     * page is as costly to render as an API read, so no page is left out by default. */
    webRateLimited?: boolean;
  }
  interface FastifyRequest {
    webSession: WebSession | null;
  }
}

export interface WebAuthDeps {
  sessions: SessionCodec;
  spent: SpentTokens;
  csrfKey: Uint8Array;
  limits: RateLimits;
  publicUrl(): string;
}

export const csrfRefused = () =>
  apiError(
    'csrf_token_invalid',
    'This form could not be verified as coming from this site (its security token is missing, expired, or from another session). ' +
      'Nothing was changed. Go back, reload the page and submit it again; cookies must be allowed for this site.',
  );

/** A local path to return to after signing in; anything else (other sites, `//host`, odd characters) is refused. */
export function safeNextPath(raw: unknown, fallback = '/checks'): string {
  if (typeof raw !== 'string' || raw.length > 500) return fallback;
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(raw) && !raw.startsWith('/auth/') ? raw : fallback;
}

/** A request a browser made on a page's behalf: it names its origin or fetch context, or carries our cookies. */
function comesFromBrowser(request: FastifyRequest): boolean {
  const h = request.headers;
  return h.origin !== undefined || h['sec-fetch-site'] !== undefined || h['sec-fetch-mode'] !== undefined || h.cookie !== undefined;
}

export function createWebAuth(deps: WebAuthDeps) {
  const nonces = new WeakMap<FastifyRequest, string>();
  const secure = (request: FastifyRequest) => isSecureRequest(request, deps.publicUrl());

  function bindingOf(request: FastifyRequest): CsrfBinding | null {
    if (request.webSession) return { kind: 'session', sid: request.webSession.sid };
    const nonce = nonces.get(request) ?? readCookie(request, 'csrf', secure(request));
    return nonce ? { kind: 'anonymous', nonce } : null;
  }

  return {
    secure,

    /** onRequest: the session from the cookie (a bad, expired or signed-out one is dropped), then the rate limit. */
    async identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      request.webSession = null;
      const isSecure = secure(request);
      const token = readCookie(request, 'session', isSecure);
      if (token) {
        const session = await deps.sessions.read(token);
        if (session && !(await deps.spent.isSpent('session', session.sid))) {
          request.webSession = session;
          request.principal = { kind: 'user', userId: session.userId, via: 'session' };
        } else {
          clearCookie(reply, 'session', isSecure);
        }
      }
      if (request.routeOptions.config.webRateLimited !== false) await applyRateLimit(deps.limits, request.principal, request, reply);
    },

    /** preHandler: sign-in requirement, then the CSRF token of every POST. */
    async guard(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
      const post = request.method === 'POST';
      if (request.routeOptions.config.signInRequired && !request.webSession) {
        if (post)
          throw unauthorized(
            'authentication_required',
            'You are signed out (or your session has ended). Sign in again, then repeat what you were doing.',
          );
        return reply.redirect(`/auth/signin?next=${encodeURIComponent(safeNextPath(request.url))}`, 303);
      }
      if (!post) return undefined;
      // The anonymous check form stays usable from scripts (no browser, so nothing to forge): a request with no
      // Origin, no fetch metadata and no cookies cannot be a cross-site forgery. Every browser post needs the token.
      if (request.routeOptions.url === '/' && !request.webSession && !comesFromBrowser(request)) return undefined;
      // Signing out without a session changes nothing that a forged post could abuse.
      if (request.routeOptions.url === '/auth/signout' && !request.webSession) return undefined;
      const body = request.body as WebForm | undefined;
      const binding = bindingOf(request);
      if (!binding || !isValidCsrfToken(deps.csrfKey, binding, body?.fields[CSRF_FIELD])) throw csrfRefused();
      return undefined;
    },

    /** The token to put in this page's forms (sets the anonymous visitor's cookie on first use). */
    formToken(request: FastifyRequest, reply: FastifyReply): string {
      let binding = bindingOf(request);
      if (!binding) {
        const nonce = newCsrfNonce();
        nonces.set(request, nonce);
        setCookie(reply, 'csrf', nonce, { secure: secure(request) });
        binding = { kind: 'anonymous', nonce };
      }
      return csrfTokenFor(deps.csrfKey, binding);
    },

    /** A new session (and a new id, so CSRF tokens of the page before do not carry over); any previous one ends. */
    async signIn(request: FastifyRequest, reply: FastifyReply, user: { userId: string; name?: string }): Promise<WebSession> {
      const previous = request.webSession;
      if (previous) await deps.spent.spend('session', previous.sid, previous.expiresAt);
      const { token, session } = await deps.sessions.issue(user);
      setCookie(reply, 'session', token, { secure: secure(request), maxAge: deps.sessions.ttlSeconds });
      return session;
    },

    /** Revokes the session itself (not only this browser's copy of the cookie) until it would have expired. */
    async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const session = request.webSession;
      if (session) await deps.spent.spend('session', session.sid, session.expiresAt);
      clearCookie(reply, 'session', secure(request));
    },
  };
}

export type WebAuth = ReturnType<typeof createWebAuth>;
