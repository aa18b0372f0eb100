// /scans: submit a page or sitemap to scan, follow a scan's progress, download its results.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildScanResultsCsv } from '../services/scan-csv.js';
import { MAX_UNFINISHED_SCANS, type ScansService } from '../services/scans.js';
import { toCheckView } from '../services/check-view.js';
import { DomainError } from '../services/domain-error.js';
import { renderScanPage, renderScansPage, type ScansPageState } from './scan-page.js';
import type { PageContext } from './format.js';
import type { WebForm } from './forms.js';
import { sendPage } from './layout.js';
import type { WebSession } from './session.js';

export interface ScanRoutesDeps {
  scans: ScansService;
  /** TRACKCHECK_SCAN_MAX_PAGES, for the form's hint. */
  maxPages(): number;
  pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext;
}

const SCANS_PER_PAGE = 20;

const signedIn = { config: { auth: 'none' as const, signInRequired: true }, schema: { hide: true } };

function sessionOf(request: FastifyRequest): WebSession {
  // The guard hook refuses these routes without a session before the handler runs.
  if (!request.webSession) throw new Error('signed-in route reached without a session');
  return request.webSession;
}

export function scanRoutes(deps: ScanRoutesDeps) {
  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: Pick<ScansPageState, 'error' | 'form'> = {},
    cursor?: string,
  ) {
    const page = await deps.scans.list(sessionOf(request).userId, SCANS_PER_PAGE, cursor);
    const state: ScansPageState = {
      ...extra,
      scans: page.data,
      nextCursor: page.nextCursor,
      paged: cursor !== undefined,
      maxUnfinished: MAX_UNFINISHED_SCANS,
      maxPages: deps.maxPages(),
    };
    return sendPage(reply, status, renderScansPage(deps.pageContext(request, reply, '/scans'), state));
  }

  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { cursor?: string } }>('/scans', signedIn, async (request, reply) => {
      const cursor = typeof request.query.cursor === 'string' && request.query.cursor !== '' ? request.query.cursor : undefined;
      return listPage(request, reply, 200, {}, cursor);
    });

    app.post('/scans', signedIn, async (request, reply) => {
      const form = request.body as WebForm;
      const url = (form.fields.url ?? '').trim();
      const render = form.fields.render === '1';
      try {
        const scan = await deps.scans.create(sessionOf(request).userId, { url, render });
        return await reply.redirect(`/scans/${encodeURIComponent(scan.id)}`, 303);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return listPage(request, reply, err.code === 'too_many_scans' ? 409 : 400, {
          error: err.message,
          form: { url: url.slice(0, 10_000), render },
        });
      }
    });

    app.get<{ Params: { id: string } }>('/scans/:id', signedIn, async (request, reply) => {
      const { scan, checks } = await deps.scans.results(sessionOf(request).userId, request.params.id);
      const state = { scan, checks: new Map(checks.map((row) => [row.slug, toCheckView(row)])) };
      return sendPage(reply, 200, renderScanPage(deps.pageContext(request, reply, '/scans'), state));
    });

    app.get<{ Params: { id: string } }>('/scans/:id/results.csv', signedIn, async (request, reply) => {
      const { scan, checks } = await deps.scans.results(sessionOf(request).userId, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="scan-${scan.id}-results.csv"`)
        .header('cache-control', 'no-store')
        .send(buildScanResultsCsv(scan, checks));
    });
  };
}
