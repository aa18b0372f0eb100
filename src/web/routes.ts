// The web pages: home with the check form, public reports, sign-in, and the signed-in pages (my checks, API keys,
// batches), with HTML errors. Registered as an encapsulated plugin, so its form parsers, session hooks and HTML error
// handler never reach the JSON API.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { apiError, ApiError, badRequest, notFound, sendError as sendEnvelope, toApiError } from '../http/errors.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { CounterStore } from '../rate-limit/store.js';
import type { Clock } from '../rate-limit/window.js';
import type { ChecksService } from '../services/checks.js';
import type { BatchesService } from '../services/batches.js';
import type { ScansService } from '../services/scans.js';
import type { MonitorsService } from '../services/monitors/index.js';
import type { KeysService } from '../services/keys.js';
import type { ReportsService } from '../services/reports.js';
import { authRoutes } from './auth-routes.js';
import { batchRoutes } from './batch-routes.js';
import { scanRoutes } from './scan-routes.js';
import { monitorRoutes } from './monitor-routes.js';
import { renderChecksPage } from './checks-page.js';
import { createEmailSignIn } from './email-signin.js';
import type { PageContext } from './format.js';
import { installFormParsers, type WebForm } from './forms.js';
import { renderHomePage, type HomeState } from './home-page.js';
import { renderMessagePage, sendPage } from './layout.js';
import { anonymousCapWording, retryAfterOf, type SignInRoute } from './limit-wording.js';
import { createOidcSignIn } from './oidc.js';
import { renderReportPage } from './report-page.js';
import { createSessionCodec } from './session.js';
import { settingsRoutes } from './settings-routes.js';
import { createSmtpSignInMail } from './sign-in-mail.js';
import { createSpentTokens, type SpentTokensStore } from './spent-tokens.js';
import { createWebAuth } from './web-auth.js';
import { loadWebKeys } from '../auth/web-keys.js';

export interface WebDeps {
  reports: ReportsService;
  /** A checks service whose sync wait suits a browser waiting on a form post. */
  checks: ChecksService;
  keys: KeysService;
  batches: BatchesService;
  scans: ScansService;
  /** Monitors (the monitor pages use it). */
  monitors: MonitorsService;
  /** Where spent sign-in links and signed-out sessions are kept (the store's repository). */
  spentTokens: SpentTokensStore;
  clock: Clock;
  limits: RateLimits;
  /** The rate-limit counters (memory or Redis): email sign-in keeps its hourly limits there. */
  counters: CounterStore;
  /** Read on every use: the public URL is only final once the server listens (PORT=0). */
  config(): Config;
  version: string;
}

const CHECKS_PER_PAGE = 25;

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** Where the "go back" link of an error page leads: the form the refused post came from. */
function backLink(request: FastifyRequest): { href: string; label: string } {
  const route = request.routeOptions.url ?? '';
  if (request.method === 'POST') {
    if (route.startsWith('/settings/keys')) return { href: '/settings/keys', label: 'Back to API keys' };
    if (route.startsWith('/batches')) return { href: '/batches', label: 'Back to batches' };
    if (route.startsWith('/scans')) return { href: '/scans', label: 'Back to scans' };
    if (route.startsWith('/monitors')) return { href: '/monitors', label: 'Back to monitors' };
    if (route.startsWith('/auth/')) return { href: '/auth/signin', label: 'Sign in' };
  }
  return { href: '/', label: 'Check a link' };
}

function errorTitle(request: FastifyRequest, status: number): string {
  const route = request.routeOptions.url ?? '';
  if (status === 404) {
    if (route === '/r/:slug') return 'Report not found';
    if (route.startsWith('/settings/keys/')) return 'Key not found';
    if (route.startsWith('/batches/')) return 'Batch not found';
    if (route.startsWith('/scans/')) return 'Scan not found';
    if (route.startsWith('/monitors/')) return 'Monitor not found';
    return 'Page not found';
  }
  if (status === 401) return 'Signed out';
  return status >= 500 ? 'Something went wrong' : 'Request refused';
}

export function webRoutes(deps: WebDeps) {
  const { version } = deps;

  return async (app: FastifyInstance) => {
    const config = deps.config();
    const webKeys = await loadWebKeys({ sessionSecret: config.sessionSecret, dataDir: config.dataDir });
    const spent = createSpentTokens(deps.spentTokens, deps.clock);
    const sessions = createSessionCodec({ key: webKeys.session, clock: deps.clock, ttlSeconds: config.sessionTtlSeconds });
    const publicUrl = () => deps.config().publicUrl;
    const auth = createWebAuth({ sessions, spent, csrfKey: webKeys.csrf, limits: deps.limits, publicUrl });
    const oidc = config.oidc ? createOidcSignIn({ config: config.oidc, publicUrl, key: webKeys.oidcState, clock: deps.clock }) : null;
    // What the sign-in page offers (auth-routes.ts): the provider; with the embedded identity provider, links by email
    // (when SMTP is set) or from whoever runs the server.
    const embedded = config.identity.mode === 'embedded';
    const signIn: SignInRoute = oidc
      ? { kind: 'provider', name: oidc.providerName }
      : embedded && config.smtpUrl !== null
        ? { kind: 'email' }
        : embedded
          ? { kind: 'link' }
          : null;

    /** The navigation and CSRF token of a page; the token (and an anonymous visitor's cookie) only if a form asks. */
    function pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext {
      const session = request.webSession;
      return {
        version,
        nav: { user: session ? { name: session.name } : null, csrf: session ? auth.formToken(request, reply) : undefined, current },
        get csrf() {
          return auth.formToken(request, reply);
        },
      };
    }

    const home = (request: FastifyRequest, reply: FastifyReply, state: HomeState) =>
      renderHomePage(state, pageContext(request, reply, '/'), deps.config().anonWeeklyChecks, signIn !== null);

    function sendError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
      // Browsers ask for HTML and get a page; any other client gets the API's JSON error envelope.
      if (!wantsHtml(request)) return sendEnvelope(request, reply, err);
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      // A refused check submission comes back as the form, with the reason and the link kept.
      if (request.method === 'POST' && request.routeOptions.url === '/' && err.code !== 'csrf_token_invalid') {
        const fields = (request.body as WebForm | undefined)?.fields ?? {};
        const checkType = fields.check_type === 'cmp' ? 'cmp' : 'link';
        let message = err.code === 'unsupported_media_type' ? 'Submit the link with the form on this page.' : err.message;
        let errorLink: HomeState['errorLink'];
        if (err.code === 'anonymous_check_limit_reached') {
          const weeklyChecks = deps.config().anonWeeklyChecks;
          ({ message, action: errorLink } = anonymousCapWording({
            weeklyChecks,
            checkType,
            retryAfterSeconds: retryAfterOf(err.headers),
            signIn,
          }));
        }
        return sendPage(reply, err.status, home(request, reply, { url: fields.url, checkType, error: message, errorLink }));
      }
      const nav = pageContext(request, reply).nav;
      if (err.code === 'payload_too_large' && request.routeOptions.url === '/batches') {
        err = apiError(
          'payload_too_large',
          'The upload is too large: a batch file may be at most 4 MB. Split the list into several batches of up to 500 links.',
        );
      }
      const action = err.status === 401 ? { href: `/auth/signin`, label: 'Sign in' } : backLink(request);
      return sendPage(reply, err.status, renderMessagePage(errorTitle(request, err.status), err.message, version, nav, action));
    }

    installFormParsers(app);
    app.decorateRequest('webSession', null);
    app.addHook('onRequest', (request, reply) => auth.identify(request, reply));
    app.addHook('preHandler', (request, reply) => auth.guard(request, reply));

    app.setErrorHandler((err: FastifyError, request, reply) => {
      // The same answer as the API's handler (an unreachable dependency is the one 503), in the pages' words.
      let answer = toApiError(err);
      if (answer.code === 'unsupported_media_type') {
        answer = apiError('unsupported_media_type', 'Pages take forms: send application/x-www-form-urlencoded or multipart/form-data.');
      }
      if (answer.status >= 500) request.log.error({ err }, 'page failed');
      return sendError(request, reply, answer);
    });

    app.get('/', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, 200, home(request, reply, {})),
    );

    app.post('/', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      // Another site's page must not spend a visitor's weekly allowance by posting this form for them.
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        throw apiError('cross_site_request', 'Submit links with the form on this site.');
      }
      const { fields } = (request.body ?? { fields: {} }) as WebForm;
      const url = typeof fields.url === 'string' ? fields.url : '';
      const checkType = fields.check_type === 'cmp' ? 'cmp' : 'link';
      if (url.trim() === '') throw badRequest('missing_parameter', 'Paste the tracking link to check.');
      // Signed in, the check is the user's (My checks, no anonymous weekly cap); else it is anonymous.
      const { check } = await deps.checks.create(request.principal, { url, check_type: checkType });
      return reply.redirect(`/r/${encodeURIComponent(check.slug)}`, 303);
    });

    app.get<{ Params: { slug: string } }>('/r/:slug', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const { slug } = request.params;
      // HEAD (link unfurlers probe with it) shows nothing, so it is not a view.
      const report = slug.length <= 200 ? await deps.reports.show(slug, request.method === 'GET') : null;
      if (!report) throw notFound('There is no report at this address. Check the link, or check a tracking link yourself.');
      const ctx = pageContext(request, reply);
      const finished = report.status === 'completed' || report.status === 'failed';
      // A finished report offers "Check again", a form like the home page's: it needs this visitor's CSRF token.
      return sendPage(reply, 200, renderReportPage(report, version, ctx.nav, finished ? ctx.csrf : undefined));
    });

    app.get<{ Querystring: { cursor?: string } }>(
      '/checks',
      { config: { auth: 'none', signInRequired: true }, schema: { hide: true } },
      async (request, reply) => {
        const session = request.webSession;
        if (!session) throw new Error('signed-in route reached without a session'); // the guard redirects first
        const cursor = typeof request.query.cursor === 'string' && request.query.cursor !== '' ? request.query.cursor : undefined;
        const page = await deps.checks.list(session.userId, CHECKS_PER_PAGE, cursor);
        return sendPage(
          reply,
          200,
          renderChecksPage(pageContext(request, reply, '/checks'), {
            checks: page.data,
            nextCursor: page.nextCursor,
            paged: cursor !== undefined,
          }),
        );
      },
    );

    // Email sign-in links are the embedded identity provider's links, sent by mail: with an external provider for API
    // tokens the user ids are that provider's, and links are off altogether.
    const emailSignIn =
      config.smtpUrl !== null && config.identity.mode === 'embedded'
        ? createEmailSignIn({
            loginLinkKey: webKeys.loginLink,
            publicUrl,
            clock: deps.clock,
            counters: deps.counters,
            mailer: createSmtpSignInMail({ smtpUrl: config.smtpUrl, from: config.alertFrom, now: () => deps.clock.now() }),
            allowedDomains: config.emailSignInDomains,
            log: app.log,
          })
        : null;
    // Mails already promised to a visitor are handed over before the process exits.
    if (emailSignIn) app.addHook('onClose', () => emailSignIn.idle());
    await app.register(
      authRoutes({
        auth,
        oidc,
        // One-time links come from the embedded identity provider's CLI; with an external provider they are off.
        loginLinkKey: config.identity.mode === 'embedded' ? webKeys.loginLink : null,
        spent,
        emailSignIn,
        clock: deps.clock,
        version,
        pageContext,
      }),
    );
    await app.register(settingsRoutes({ keys: deps.keys, clock: deps.clock, publicUrl, pageContext }));
    await app.register(batchRoutes({ batches: deps.batches, pageContext }));
    await app.register(scanRoutes({ scans: deps.scans, maxPages: () => deps.config().scanMaxPages, pageContext }));
    await app.register(monitorRoutes({ monitors: deps.monitors, pageContext }));
  };
}
