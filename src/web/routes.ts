// The web pages: home with the check form, the public report page, HTML errors. Registered as an
// encapsulated plugin, so its form-body parser and HTML error handler never reach the JSON API.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, notFound, sendError as sendEnvelope, serviceUnavailable, toApiError } from '../http/errors.js';
import type { ChecksService } from '../services/checks.js';
import type { ReportsService } from '../services/reports.js';
import { isDatabaseUnavailable } from '../store/errors.js';
import { renderHomePage, type HomeState } from './home-page.js';
import { renderMessagePage, sendPage } from './layout.js';
import { renderReportPage } from './report-page.js';

export interface WebDeps {
  reports: ReportsService;
  /** A checks service whose sync wait suits a browser waiting on a form post. */
  checks: ChecksService;
  version: string;
  anonWeeklyChecks: number;
}

type FormBody = Record<string, string>;

const FORM_BODY_LIMIT = 16 * 1024;

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function parseForm(body: string): FormBody {
  const out: FormBody = {};
  for (const [key, value] of new URLSearchParams(body)) out[key] ??= value;
  return out;
}

export function webRoutes(deps: WebDeps) {
  const { version } = deps;
  const home = (state: HomeState) => renderHomePage(state, version, deps.anonWeeklyChecks);

  function sendError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
    // Browsers ask for HTML and get a page; any other client gets the API's JSON error envelope.
    if (!wantsHtml(request)) return sendEnvelope(request, reply, err);
    for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
    // A refused form submission comes back as the form, with the reason and the link kept.
    if (request.method === 'POST' && request.routeOptions.url === '/') {
      const body = (request.body ?? {}) as FormBody;
      const message = err.code === 'unsupported_media_type' ? 'Submit the link with the form on this page.' : err.message;
      return sendPage(reply, err.status, home({ url: body.url, checkType: body.check_type === 'cmp' ? 'cmp' : 'link', error: message }));
    }
    const missing = request.routeOptions.url === '/r/:slug' ? 'Report not found' : 'Page not found';
    const title = err.status === 404 ? missing : err.status >= 500 ? 'Something went wrong' : 'Request refused';
    return sendPage(reply, err.status, renderMessagePage(title, err.message, version));
  }

  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
      done(null, parseForm(String(body)));
    });

    app.setErrorHandler((err: FastifyError, request, reply) => {
      const apiError = isDatabaseUnavailable(err) ? serviceUnavailable() : toApiError(err);
      if (apiError.status >= 500) request.log.error({ err }, 'page failed');
      return sendError(request, reply, apiError);
    });

    app.get('/', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => sendPage(reply, 200, home({})));

    app.post('/', { config: { auth: 'none', rateLimited: true }, schema: { hide: true } }, async (request, reply) => {
      // Another site's page must not spend a visitor's weekly allowance by posting this form for them.
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        throw new ApiError(403, 'invalid_request_error', 'cross_site_request', 'Submit links with the form on this site.');
      }
      const body = (request.body ?? {}) as FormBody;
      const url = typeof body.url === 'string' ? body.url : '';
      const checkType = body.check_type === 'cmp' ? 'cmp' : 'link';
      if (url.trim() === '') throw badRequest('missing_parameter', 'Paste the tracking link to check.');
      const { check } = await deps.checks.create(request.principal, { url, check_type: checkType });
      return reply.redirect(`/r/${encodeURIComponent(check.slug)}`, 303);
    });

    app.get<{ Params: { slug: string } }>('/r/:slug', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const { slug } = request.params;
      // HEAD (link unfurlers probe with it) shows nothing, so it is not a view.
      const report = slug.length <= 200 ? await deps.reports.show(slug, request.method === 'GET') : null;
      if (!report) throw notFound('There is no report at this address. Check the link, or check a tracking link yourself.');
      return sendPage(reply, 200, renderReportPage(report, version));
    });
  };
}
