import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { serviceUnavailable } from '../errors.js';
import { VERSION } from '../../version.js';

export interface HealthDeps {
  ping(): Promise<void>;
  startedAt: number;
  now(): number;
  /** Extra component states (rate-limit store, browser, queue) reported as-is. */
  components(): Record<string, string>;
}

const HealthResponse = Type.Object(
  {
    status: Type.Literal('ok'),
    version: Type.String(),
    uptimeSeconds: Type.Integer(),
    database: Type.String(),
  },
  { additionalProperties: Type.String() },
);

export function healthRoutes(deps: HealthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/health', {
      config: { auth: 'none', rateLimited: false },
      schema: {
        tags: ['Service'],
        summary: 'Liveness and dependencies; never rate limited',
        response: { 200: HealthResponse, ...errorResponses(503) },
      },
      handler: async () => {
        try {
          await deps.ping();
        } catch {
          throw serviceUnavailable('The database is unreachable.');
        }
        return {
          status: 'ok' as const,
          version: VERSION,
          uptimeSeconds: Math.floor((deps.now() - deps.startedAt) / 1000),
          database: 'ok',
          ...deps.components(),
        };
      },
    });
  };
}
