// /auth/*: the sign-in page, OpenID Connect (start and callback), one-time sign-in links (also by email), sign-out.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientSubject } from '../http/client-address.js';
import type { Clock } from '../rate-limit/window.js';
import { clearCookie, readCookie, setCookie } from './cookies.js';
import type { PageContext } from './format.js';
import { renderEmailLinkSentPage, renderLoginConfirmPage, renderSignInPage, renderSignOutPage } from './auth-pages.js';
import { emailOfUserId, type EmailSignIn } from './email-signin.js';
import { renderMessagePage, sendPage } from './layout.js';
import { verifyLoginLink } from '../auth/login-link.js';
import { CALLBACK_PATH, SignInError, TRANSACTION_TTL_SECONDS, type OidcSignIn } from './oidc.js';
import type { SpentTokens } from './spent-tokens.js';
import { safeNextPath, type WebAuth } from './web-auth.js';
import type { WebForm } from './forms.js';

export interface AuthRoutesDeps {
  auth: WebAuth;
  oidc: OidcSignIn | null;
  /** The login-link key when links are accepted (embedded identity provider), else null. */
  loginLinkKey: Uint8Array | null;
  spent: SpentTokens;
  /** Sign-in links by email (TRACKCHECK_SMTP_URL with the embedded identity provider), else null. */
  emailSignIn: EmailSignIn | null;
  clock: Clock;
  version: string;
  pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext;
}

const FAILURE_STATUS: Record<SignInError['failure'], number> = { provider_unavailable: 503, cancelled: 400, expired: 400, failed: 502 };

const page = { config: { auth: 'none' as const }, schema: { hide: true } };

export function authRoutes(deps: AuthRoutesDeps) {
  const { auth, oidc, loginLinkKey, emailSignIn } = deps;

  function signInPage(request: FastifyRequest, reply: FastifyReply, status: number, next: string, error?: string, email?: string) {
    const ctx = deps.pageContext(request, reply, '/auth/signin');
    const options = {
      next,
      provider: oidc?.providerName ?? null,
      loginLinks: loginLinkKey !== null,
      emailLinks: emailSignIn !== null,
      email,
      error,
    };
    return sendPage(reply, status, renderSignInPage(ctx, options));
  }

  function linkRefused(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string) {
    const ctx = deps.pageContext(request, reply);
    return sendPage(reply, status, renderMessagePage(title, message, deps.version, ctx.nav, { href: '/auth/signin', label: 'Sign in' }));
  }

  /** The link, checked for signature, expiry and earlier use; a refusal page was sent when it is null. */
  async function usableLink(request: FastifyRequest, reply: FastifyReply, token: unknown) {
    if (!loginLinkKey) {
      await linkRefused(
        request,
        reply,
        404,
        'Sign-in links are off',
        'This server signs people in through its identity provider, not with one-time links.',
      );
      return null;
    }
    const link = await verifyLoginLink(loginLinkKey, token, deps.clock.now());
    if (!link.ok) {
      const expired = link.reason === 'expired';
      await linkRefused(
        request,
        reply,
        expired ? 410 : 400,
        expired ? 'This sign-in link has expired' : 'This sign-in link is not valid',
        expired
          ? 'Sign-in links work for a short time only. Ask for a new one.'
          : 'The link is incomplete or was changed. Copy the whole link, or ask for a new one.',
      );
      return null;
    }
    return link;
  }

  const linkUsed = (request: FastifyRequest, reply: FastifyReply) =>
    linkRefused(request, reply, 410, 'This sign-in link was already used', 'Each sign-in link works once. Ask for a new one.');

  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { next?: string } }>('/auth/signin', page, async (request, reply) =>
      signInPage(request, reply, 200, safeNextPath(request.query.next)),
    );

    app.get<{ Querystring: { next?: string } }>('/auth/oidc', page, async (request, reply) => {
      const next = safeNextPath(request.query.next);
      if (!oidc) return signInPage(request, reply, 404, next, 'Sign-in with an identity provider is not configured on this server.');
      try {
        const { authorizationUrl, transaction } = await oidc.start(next);
        setCookie(reply, 'oidc', transaction, { secure: auth.secure(request), maxAge: TRANSACTION_TTL_SECONDS });
        return reply.redirect(authorizationUrl, 303);
      } catch (err) {
        if (!(err instanceof SignInError)) throw err;
        request.log.warn({ err }, 'OIDC sign-in could not start');
        return signInPage(request, reply, FAILURE_STATUS[err.failure], next, err.message);
      }
    });

    app.get(CALLBACK_PATH, page, async (request, reply) => {
      if (!oidc) return signInPage(request, reply, 404, '/checks', 'Sign-in with an identity provider is not configured on this server.');
      const secure = auth.secure(request);
      const transaction = readCookie(request, 'oidc', secure);
      clearCookie(reply, 'oidc', secure); // one attempt per transaction, whatever the outcome
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      try {
        const user = await oidc.finish(query, transaction);
        await auth.signIn(request, reply, user);
        return reply.redirect(safeNextPath(user.next), 303);
      } catch (err) {
        if (!(err instanceof SignInError)) throw err;
        request.log.warn({ err, failure: err.failure }, 'OIDC sign-in failed');
        return signInPage(request, reply, FAILURE_STATUS[err.failure], '/checks', err.message);
      }
    });

    // Opening the link only asks for confirmation: link previewers (chat, mail scanners) fetch it without using it
    // up, and nobody is signed in to someone else's account by merely following a link.
    app.get<{ Querystring: { token?: string } }>('/auth/login', page, async (request, reply) => {
      const link = await usableLink(request, reply, request.query.token);
      if (!link) return reply;
      if (await deps.spent.isSpent('login_link', link.jti)) return linkUsed(request, reply);
      return sendPage(
        reply,
        200,
        renderLoginConfirmPage(deps.pageContext(request, reply), { ...link, token: String(request.query.token) }),
      );
    });

    app.post('/auth/login', page, async (request, reply) => {
      const body = request.body as WebForm;
      const link = await usableLink(request, reply, body.fields.token);
      if (!link) return reply;
      if (!(await deps.spent.spend('login_link', link.jti, link.expiresAtMs))) return linkUsed(request, reply);
      await auth.signIn(request, reply, { userId: link.userId, name: emailOfUserId(link.userId) ?? undefined });
      return reply.redirect('/checks', 303);
    });

    app.get('/auth/email-link', page, async (_request, reply) => reply.redirect('/auth/signin', 303));

    // The CSRF token was checked by the guard (web-auth.ts) before this runs, as for every form.
    app.post('/auth/email-link', page, async (request, reply) => {
      const raw = (request.body as WebForm | undefined)?.fields.email;
      const refill = typeof raw === 'string' ? raw.slice(0, 300) : undefined;
      if (!emailSignIn) return signInPage(request, reply, 404, '/checks', 'Sign-in links by email are not available on this server.');
      const outcome = await emailSignIn.request(raw, clientSubject(request.clientIp));
      switch (outcome.kind) {
        case 'sent':
          return sendPage(reply, 200, renderEmailLinkSentPage(deps.pageContext(request, reply), outcome.address));
        case 'invalid':
          return signInPage(request, reply, 400, '/checks', outcome.message, refill);
        case 'client_limited': {
          const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
          reply.header('retry-after', String(outcome.retryAfterSeconds));
          return linkRefused(
            request,
            reply,
            429,
            'Too many sign-in emails requested',
            `This network asked for too many sign-in links this hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          );
        }
        case 'unavailable':
          return linkRefused(
            request,
            reply,
            503,
            'Sign-in emails are unavailable',
            'Sign-in links cannot be sent right now. Try again in a minute.',
          );
      }
    });

    app.get('/auth/signout', page, async (request, reply) => sendPage(reply, 200, renderSignOutPage(deps.pageContext(request, reply))));

    app.post('/auth/signout', page, async (request, reply) => {
      await auth.signOut(request, reply);
      return reply.redirect('/', 303);
    });
  };
}
