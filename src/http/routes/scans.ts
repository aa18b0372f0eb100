import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { routeHeaders } from '../../contract/headers.js';
import { CreateScanBody, ListScansQuery, ScanIdParams, ScanListResponse, ScanResponse } from '../../contract/scan.js';
import { userOf } from '../auth.js';
import type { ScansService } from '../../services/scans.js';
import { buildScanResultsCsv } from '../../services/scan-csv.js';

const security = [{ bearer: [] }];

export function scansRoutes(scans: ScansService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/scans', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Scans'],
        operationId: 'createScan',
        summary: 'Find and check every affiliate link of a page, or of the pages of a sitemap; poll the scan until it is completed',
        description:
          'The page is fetched under the same rules as a check (a literal private or loopback address: 400 url_not_allowed; ' +
          'one that resolves to one: the scan fails with error.code blocked_private_address). With render: true the links are ' +
          'read after the page’s scripts ran, in the browser. An XML sitemap scans up to TRACKCHECK_SCAN_MAX_PAGES of its pages. ' +
          'At most 3 unfinished scans per user (409 too_many_scans). Counts as one request for rate limiting. ' +
          '`checkType` is accepted as a spelling of `check_type`.',
        security,
        body: CreateScanBody,
        response: {
          202: response(
            ScanResponse,
            'Accepted and queued: poll the Location (GET /v1/scans/{id}) until status is completed or failed',
            'Location',
          ),
          ...errorResponses(400, 401, 409, 413, 415, 429, 503),
        },
      },
      handler: async (request, reply) => {
        const scan = await scans.create(userOf(request).userId, request.body);
        reply.header('location', `/v1/scans/${scan.id}`);
        return reply.status(202).send({ data: scan });
      },
    });

    app.get('/v1/scans', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Scans'],
        operationId: 'listScans',
        summary: "The caller's scans, newest first, with cursor pagination",
        security,
        querystring: ListScansQuery,
        response: {
          200: response(ScanListResponse, 'A page of scans; pass nextCursor as cursor for the next one (null: last page)'),
          ...errorResponses(400, 401, 429),
        },
      },
      handler: async (request) => scans.list(userOf(request).userId, request.query.limit ?? 20, request.query.cursor),
    });

    app.get('/v1/scans/:id', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Scans'],
        operationId: 'getScan',
        summary: 'A scan with its progress, its checked links and its page findings (owner only)',
        security,
        params: ScanIdParams,
        response: { 200: response(ScanResponse, 'The scan and the status of each of its links'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request) => ({ data: await scans.get(userOf(request).userId, request.params.id) }),
    });

    app.get('/v1/scans/:id/results.csv', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Scans'],
        operationId: 'getScanResultsCsv',
        summary: 'The scan results as CSV, one row per checked link (owner only)',
        description:
          'Columns: page, url, text, slug, status, willTrack, healthScore, network, finalUrl, criticalIssues (space-separated codes). ' +
          'Links still running have empty verdict columns.',
        security,
        params: ScanIdParams,
        response: {
          200: {
            description: 'The results, scan-<id>-results.csv (text/csv; charset=utf-8)',
            headers: routeHeaders('Content-Disposition'),
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...errorResponses(401, 404, 429),
        },
      },
      handler: async (request, reply) => {
        const { scan, checks } = await scans.results(userOf(request).userId, request.params.id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="scan-${scan.id}-results.csv"`)
          .send(buildScanResultsCsv(scan, checks));
      },
    });
  };
}
