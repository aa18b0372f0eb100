import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Metrics } from '../../metrics.js';

/** Counts and times every request; call on the root instance so every route is covered. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Route templates, not raw URLs, keep the label set bounded; unknown paths share one label.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

export function metricsRoutes(metrics: Metrics): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
    );
  };
}
