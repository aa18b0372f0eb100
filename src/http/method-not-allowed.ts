// Fastify answers an unknown method on a known path with 404; the contract wants 405 with an Allow header.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { apiError } from './errors.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Call before registering routes; once they are all registered, `addMethodNotAllowedRoutes()` adds a 405 route
 * for each method a known path lacks.
 */
export function trackRouteMethods(app: FastifyInstance): { addMethodNotAllowedRoutes(): void } {
  const allowed = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = allowed.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    allowed.set(route.url, set);
  });
  const addMethodNotAllowedRoutes = () => {
    for (const [url, methods] of [...allowed]) {
      const missing = METHODS.filter((m) => !methods.has(m));
      if (missing.length === 0 || methods.has('*')) continue;
      const allow = [...methods].filter((m) => m !== 'HEAD' || methods.has('GET')).join(', ');
      app.route({
        method: missing,
        url,
        config: { auth: 'none', rateLimited: url.startsWith('/v1/') },
        schema: { hide: true },
        handler: async (request) => {
          throw apiError('method_not_allowed', `${request.method} is not allowed on ${url}. Allowed: ${allow}.`, { allow });
        },
      });
    }
  };
  return { addMethodNotAllowedRoutes };
}
