import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { CheckListResponse, CheckResponse, CreateCheckBody, ListChecksQuery, SlugParams } from '../../contract/check.js';
import { userOf } from '../auth.js';
import type { ChecksService } from '../../services/checks.js';
import { isFinished } from '../../services/check-view.js';
import { createBodyCache } from '../../lib/body-cache.js';
import { sendSerialized } from '../send-serialized.js';

/** Anonymous callers allowed (`{}`), and a bearer token honoured: generated clients keep sending theirs. */
const optionalSecurity: Record<string, string[]>[] = [{}, { bearer: [] }];

export function checksRoutes(checks: ChecksService): FastifyPluginAsyncTypebox {
  const finishedBodies = createBodyCache<string>();
  return async (app) => {
    app.post('/v1/checks', {
      config: { auth: 'optional', rateLimited: true },
      schema: {
        tags: ['Checks'],
        operationId: 'createCheck',
        summary: 'Check a tracking link: 201 with the verdict, or 202 + Location while it still runs',
        description:
          'Waits for the verdict up to TRACKCHECK_SYNC_WAIT_MS (25 s by default), then answers 202 with a `Location` to poll. ' +
          'Anonymous callers get 3 checks per check type per ISO week per IP (429 anonymous_check_limit_reached). ' +
          '`checkType` is accepted as a spelling of `check_type`.',
        security: optionalSecurity,
        body: CreateCheckBody,
        response: {
          201: response(CheckResponse, 'The check finished within the wait: it carries the verdict'),
          202: response(
            CheckResponse,
            'Still queued or running: poll the Location (GET /v1/checks/{slug}) until status is completed or failed',
            'Location',
          ),
          ...errorResponses(400, 401, 413, 415, 429, 503),
        },
      },
      handler: async (request, reply) => {
        const { check, finished } = await checks.create(request.principal, request.body);
        if (!finished) reply.header('location', `/v1/checks/${check.slug}`);
        return reply.status(finished ? 201 : 202).send({ data: check });
      },
    });

    app.get('/v1/checks', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['Checks'],
        operationId: 'listChecks',
        summary: "The caller's checks, newest first, with cursor pagination",
        security: [{ bearer: [] }],
        querystring: ListChecksQuery,
        response: {
          200: response(CheckListResponse, 'A page of checks; pass nextCursor as cursor for the next one (null: last page)'),
          ...errorResponses(400, 401, 429),
        },
      },
      handler: async (request) => checks.list(userOf(request).userId, request.query.limit ?? 20, request.query.cursor),
    });

    app.get('/v1/checks/:slug', {
      config: { auth: 'optional', rateLimited: true },
      schema: {
        tags: ['Checks'],
        operationId: 'getCheck',
        summary: 'Any check by slug (poll this after a 202)',
        security: optionalSecurity,
        params: SlugParams,
        response: { 200: response(CheckResponse, 'The check, in whatever status it has reached'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request, reply) => {
        const cached = finishedBodies.get(request.params.slug);
        if (cached !== undefined) return sendSerialized(reply, cached);
        const check = await checks.get(request.params.slug);
        if (!isFinished(check.status)) return { data: check };
        // A finished check never changes again: serialize it once (with the route's own schema) and reuse that.
        const body = String(reply.serialize({ data: check }));
        finishedBodies.set(check.slug, body, body.length);
        return sendSerialized(reply, body);
      },
    });
  };
}
