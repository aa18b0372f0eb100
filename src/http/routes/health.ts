import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponse, errorResponses, response } from '../../contract/common.js';
import { serviceUnavailable } from '../errors.js';
import { VERSION } from '../../lib/version.js';

export type RateLimitStoreState = 'redis' | 'memory' | 'unavailable';

export interface HealthDeps {
  ping(): Promise<void>;
  startedAt: number;
  now(): number;
  /** The counter store as it answers now: its kind, or 'unavailable' (never throws). */
  rateLimitStore(): Promise<RateLimitStoreState>;
  /** Other component states (the browser pool) reported as they are. */
  components(): Record<string, string>;
}

const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: 'degraded: serving, but a component is down (rateLimitStore unavailable: limits fail open)',
    }),
    version: Type.String(),
    uptimeSeconds: Type.Integer(),
    database: Type.String(),
    rateLimitStore: Type.Union([Type.Literal('redis'), Type.Literal('memory'), Type.Literal('unavailable')]),
    scheduler: Type.Optional(
      Type.Union([Type.Literal('running'), Type.Literal('stopped')], {
        description: 'The monitor scheduler of this process: running wherever checks are run (serve with workers, trackcheck worker)',
      }),
    ),
  },
  // No $id: the root of a response schema is not lifted into a component, and Health has no other user.
  {
    additionalProperties: Type.String(),
    title: 'Health',
    description: 'Other components (e.g. browser) are reported by name with their state',
  },
);

export function healthRoutes(deps: HealthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/health', {
      config: { auth: 'none', rateLimited: false },
      schema: {
        tags: ['Service'],
        operationId: 'getHealth',
        summary: 'Liveness and dependencies; never rate limited',
        description: 'No authentication and no rate limit: a load balancer may poll it. 503 only when the database is unreachable.',
        // Public: no Authorization header is looked at.
        security: [],
        response: {
          200: response(HealthResponse, 'Serving: status ok, or degraded when a component other than the database is down'),
          // http/nul-guard.ts refuses U+0000 in any query string, this one's too (it takes no parameters otherwise).
          400: errorResponse('invalid_parameter: the query string contains the NUL character (U+0000)'),
          ...errorResponses(503),
        },
      },
      handler: async () => {
        // Both at once: /health answers within the database's 2 s deadline, the store's probe takes under a second.
        const [database, rateLimitStore] = await Promise.allSettled([deps.ping(), deps.rateLimitStore()]);
        if (database.status === 'rejected') throw serviceUnavailable('The database is unreachable.');
        const store = rateLimitStore.status === 'fulfilled' ? rateLimitStore.value : 'unavailable';
        // Without the counter store the limits fail open: still 200 (a load balancer must keep the instance, whose
        // database is fine), but not "ok", so that people and monitors see it. 503 stays reserved for the database.
        return {
          status: store === 'unavailable' ? ('degraded' as const) : ('ok' as const),
          version: VERSION,
          uptimeSeconds: Math.floor((deps.now() - deps.startedAt) / 1000),
          database: 'ok',
          rateLimitStore: store,
          ...deps.components(),
        };
      },
    });
  };
}
