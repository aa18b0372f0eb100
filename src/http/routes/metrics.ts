import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Metrics } from '../../metrics.js';
import { parseBearer } from '../../auth/token-kind.js';
import { unauthorized } from '../errors.js';

/** Counts and times every request; call on the root instance so every route is covered. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Route templates, not raw URLs, keep the label set bounded; unknown paths share one label.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * /metrics exists only with TRACKCHECK_METRICS_TOKEN, and answers only to `Authorization: Bearer <that token>`:
 * route names, traffic and queue depth are nobody else's business. Without the variable the path is unknown (404).
 * The token is compared as SHA-256 digests in constant time, so neither its content nor its length leaks by timing.
 */
export function metricsRoutes(metrics: Metrics, token: string | null): FastifyPluginAsyncTypebox {
  return async (app) => {
    if (token === null) return;
    const expected = digest(token);
    app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const bearer = parseBearer(request.headers.authorization);
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      if (bearer === null) throw unauthorized('authentication_required', 'Send the metrics token as "Authorization: Bearer <token>".');
      if (!bearer.ok || !timingSafeEqual(digest(bearer.token), expected))
        throw unauthorized('invalid_credentials', 'The metrics token is not valid.');
      reply.removeHeader('www-authenticate');
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  };
}
