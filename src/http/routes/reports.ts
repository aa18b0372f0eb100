import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { routeHeaders } from '../../contract/headers.js';
import { ReportResponse, SlugParams } from '../../contract/check.js';
import type { ReportsService } from '../../services/reports.js';
import { isFinished } from '../../services/check-view.js';
import { createBodyCache, sendSerialized } from '../body-cache.js';

/** Public (`{}`), and a bearer token honoured: a present but invalid token is a 401 here too. */
const optionalSecurity: Record<string, string[]>[] = [{}, { bearer: [] }];

export function reportsRoutes(reports: ReportsService): FastifyPluginAsyncTypebox {
  const finishedReports = createBodyCache<{ head: string; tail: string }>();
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
        // A finished report only changes its view count: count the view, splice the number into its body.
        const cached = finishedReports.get(slug);
        const views = cached === undefined ? undefined : await reports.countView(slug);
        if (cached !== undefined && views !== undefined) return sendSerialized(reply, `${cached.head}${views}${cached.tail}`);
        const report = await reports.read(slug);
        if (!isFinished(report.status)) return { data: report };
        const body = String(reply.serialize({ data: report }));
        const marker = `"viewCount":${report.viewCount}`;
        const at = body.indexOf(marker);
        if (at >= 0 && body.indexOf('"viewCount":', at + 1) < 0) {
          finishedReports.set(slug, { head: body.slice(0, at + '"viewCount":'.length), tail: body.slice(at + marker.length) }, body.length);
        }
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
        return reply
          .type('text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(text);
      },
    });
  };
}
