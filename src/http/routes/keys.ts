import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { CreateKeyBody, CreatedKeyResponse, KeyIdParams, KeyListResponse, RevokedKeyResponse } from '../schemas/keys.js';
import { userOf } from '../auth.js';
import type { KeysService } from '../../services/keys.js';

const security = [{ bearer: [] }];

export function keysRoutes(keys: KeysService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/keys', {
      config: { auth: 'session', rateLimited: true },
      schema: {
        tags: ['API keys'],
        summary: 'Create an API key (session token only); the secret is shown once',
        security,
        body: CreateKeyBody,
        response: { 201: CreatedKeyResponse, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
      handler: async (request, reply) => {
        const created = await keys.create(userOf(request).userId, request.body);
        return reply.status(201).send({ data: created });
      },
    });

    app.get('/v1/keys', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['API keys'],
        summary: "List the caller's unrevoked keys, newest first (never the secret)",
        security,
        response: { 200: KeyListResponse, ...errorResponses(401, 429) },
      },
      handler: async (request) => ({ data: await keys.list(userOf(request).userId) }),
    });

    app.delete('/v1/keys/:id', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['API keys'],
        summary: 'Revoke a key; a key cannot revoke itself',
        security,
        params: KeyIdParams,
        response: { 200: RevokedKeyResponse, ...errorResponses(401, 404, 409, 429) },
      },
      handler: async (request) => {
        const principal = userOf(request);
        const currentKeyId = principal.via === 'apiKey' ? principal.keyId : null;
        return { data: await keys.revoke(principal.userId, request.params.id, currentKeyId) };
      },
    });
  };
}
