import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { routeHeaders } from '../../contract/headers.js';
import { BatchIdParams, BatchListResponse, BatchResponse, CreateBatchBody, ListBatchesQuery } from '../../contract/batch.js';
import { userOf } from '../auth.js';
import { MAX_BATCH_URLS, type BatchesService } from '../../services/batches.js';
import { buildResultsCsv } from '../../services/batch-csv.js';
import { MAX_URL_LENGTH } from '../../checker/net/net-guard.js';
import { MAX_INPUT_CHARS, MAX_INPUT_COLUMNS } from '../../contract/batch.js';

const security = [{ bearer: [] }];

/**
 * 500 links of the longest allowed length and the most input cells fit, with room for JSON escaping (and the
 * punctuation of 500 rows of empty cells); the global 1 MiB would not.
 */
export const BATCH_BODY_LIMIT =
  MAX_BATCH_URLS * MAX_URL_LENGTH * 2 + MAX_INPUT_CHARS * 2 + MAX_BATCH_URLS * MAX_INPUT_COLUMNS * 4 + 64 * 1024;

export function batchesRoutes(batches: BatchesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/batches', {
      config: { auth: 'user', rateLimited: true },
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        tags: ['Batches'],
        operationId: 'createBatch',
        summary: 'Check up to 500 links at once; poll the batch until it is completed',
        description:
          'All or nothing: one invalid link refuses the whole batch (400 invalid_url / url_not_allowed naming its index). ' +
          'At most 3 unfinished batches per user (409 too_many_batches). Counts as one request for rate limiting. ' +
          'Optional: name; columns + values, your own columns (campaign, placement…) carried to results.csv after the ' +
          'standard columns (docs/integrations/csv.md). `checkType` is accepted as a spelling of `check_type`.',
        security,
        body: CreateBatchBody,
        response: {
          202: response(
            BatchResponse,
            'Accepted and queued: poll the Location (GET /v1/batches/{id}) until status is completed',
            'Location',
          ),
          ...errorResponses(400, 401, 409, 413, 415, 429, 503),
        },
      },
      handler: async (request, reply) => {
        const batch = await batches.create(userOf(request).userId, request.body);
        reply.header('location', `/v1/batches/${batch.id}`);
        return reply.status(202).send({ data: batch });
      },
    });

    app.get('/v1/batches', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Batches'],
        operationId: 'listBatches',
        summary: "The caller's batches, newest first, with cursor pagination",
        security,
        querystring: ListBatchesQuery,
        response: {
          200: response(BatchListResponse, 'A page of batches; pass nextCursor as cursor for the next one (null: last page)'),
          ...errorResponses(400, 401, 429),
        },
      },
      handler: async (request) => batches.list(userOf(request).userId, request.query.limit ?? 20, request.query.cursor),
    });

    app.get('/v1/batches/:id', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Batches'],
        operationId: 'getBatch',
        summary: 'A batch with its progress and per-link status (owner only)',
        security,
        params: BatchIdParams,
        response: { 200: response(BatchResponse, 'The batch and the status of each of its checks'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request) => ({ data: await batches.get(userOf(request).userId, request.params.id) }),
    });

    app.get('/v1/batches/:id/results.csv', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Batches'],
        operationId: 'getBatchResultsCsv',
        summary: 'The batch results as CSV, one row per link (owner only)',
        description:
          'Columns: url, slug, status, verdict, willTrack, healthScore, network, finalUrl, finalStatus, redirectCount, criticalIssues ' +
          '(space-separated codes), then the batch’s own columns (its columns, input_<name> where a name is taken). ' +
          'Links still running have empty verdict columns.',
        security,
        params: BatchIdParams,
        // Only the 200 is CSV (a `produces` would claim the JSON errors are CSV too).
        response: {
          200: {
            description: 'The results, batch-<id>-results.csv (text/csv; charset=utf-8)',
            headers: routeHeaders('Content-Disposition'),
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...errorResponses(401, 404, 429),
        },
      },
      handler: async (request, reply) => {
        const { batch, checks, inputColumns } = await batches.results(userOf(request).userId, request.params.id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="batch-${batch.id}-results.csv"`)
          .send(buildResultsCsv(checks, inputColumns));
      },
    });
  };
}
