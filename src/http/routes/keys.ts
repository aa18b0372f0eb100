import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import { CreateKeyBody, CreatedKeyResponse, KeyIdParams, KeyListResponse, RevokedKeyResponse } from '../../contract/keys.js';
import { userOf } from '../auth.js';
import type { KeysService } from '../../services/keys.js';

const security = [{ bearer: [] }];

export function keysRoutes(keys: KeysService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/keys', {
      config: { auth: 'session', rateLimited: true },
      schema: {
        tags: ['API keys'],
        operationId: 'createKey',
        summary: 'Create an API key (session token only); the secret is shown once',
        description: 'Authenticate with a session token: an API key cannot create keys (403 session_token_required).',
        security,
        body: CreateKeyBody,
        response: {
          201: response(CreatedKeyResponse, 'The new key; `key` is its secret, shown only in this response'),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
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
        operationId: 'listKeys',
        summary: "List the caller's unrevoked keys, newest first (never the secret)",
        security,
        response: { 200: response(KeyListResponse, "The caller's unrevoked keys, newest first"), ...errorResponses(401, 429) },
      },
      handler: async (request) => ({ data: await keys.list(userOf(request).userId) }),
    });

    app.delete('/v1/keys/:id', {
      config: { auth: 'user', rateLimited: true },
      schema: {
        tags: ['API keys'],
        operationId: 'revokeKey',
        summary: 'Revoke a key; a key cannot revoke itself',
        description:
          'Unknown, malformed, another user’s or already revoked: 404. The key authenticating the request: 409 cannot_revoke_current_key.',
        security,
        params: KeyIdParams,
        response: {
          200: response(RevokedKeyResponse, 'The key is revoked and stops working at once'),
          ...errorResponses(401, 404, 409, 429),
        },
      },
      handler: async (request) => {
        const principal = userOf(request);
        const currentKeyId = principal.via === 'apiKey' ? principal.keyId : null;
        return { data: await keys.revoke(principal.userId, request.params.id, currentKeyId) };
      },
    });
  };
}
