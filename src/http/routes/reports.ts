import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { routeHeaders } from '../../contract/headers.js';
import { ReportResponse, SlugParams } from '../../contract/check.js';
import type { ReportsService } from '../../services/reports.js';
import { isFinished } from '../../services/check-view.js';
import { createReportCache } from '../../services/report-cache.js';
import { sendSerialized } from '../send-serialized.js';

/** Public (`{}`), and a bearer token honoured: a present but invalid token is a 401 here too. */
const optionalSecurity: Record<string, string[]>[] = [{}, { bearer: [] }];

export function reportsRoutes(reports: ReportsService): FastifyPluginAsyncTypebox {
  const finishedReports = createReportCache({ countView: reports.countView });
  return async (app) => {
    app.get('/v1/reports/:slug', {
      config: { auth: 'optional', rateLimited: true },
      schema: {
        tags: ['Reports'],
        operationId: 'getReport',
        summary: 'The public report of a check: every 200 adds one view and returns the new viewCount',
        description: 'Anyone with the slug may read it; the owner is never shown. HEAD requests are not counted.',
        security: optionalSecurity,
        params: SlugParams,
        response: { 200: response(ReportResponse, 'The report, this view included in viewCount'), ...errorResponses(401, 404, 429, 503) },
      },
      handler: async (request, reply) => {
        const { slug } = request.params;
        // A HEAD answer carries no report, so it is not a read.
        if (request.method === 'HEAD') return { data: await reports.peek(slug) };
        // A finished report only changes its view count: the cache counts the view and merges the number in.
        const cached = await finishedReports.get(slug);
        if (cached !== undefined) return sendSerialized(reply, cached);
        const report = await reports.read(slug);
        if (!isFinished(report.status)) return { data: report };
        const body = String(reply.serialize({ data: report }));
        finishedReports.put(slug, body, report.viewCount);
        return sendSerialized(reply, body);
      },
    });

    app.get('/v1/reports/:slug/evidence', {
      config: { auth: 'optional', rateLimited: true },
      schema: {
        tags: ['Reports'],
        operationId: 'getEvidence',
        summary: 'Plain-text dispute evidence for a check (does not count a view)',
        description:
          'Every hop with status, timing, cookies (names, domains, lifetimes; never values) and parameters, the verdict, every issue with its fix, and a SHA-256 digest of the canonical JSON of the check. See docs/evidence.md.',
        security: optionalSecurity,
        params: SlugParams,
        response: {
          200: {
            description: 'The evidence file, evidence-<slug>.txt (UTF-8 text)',
            headers: routeHeaders('Content-Disposition'),
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errorResponses(401, 404, 429, 503),
        },
      },
      handler: async (request, reply) => {
        const { filename, text } = await reports.evidence(request.params.slug);
        return reply.type('text/plain; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(text);
      },
    });
  };
}
