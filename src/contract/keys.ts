import { Type } from '@sinclair/typebox';
import { Data, Nullable } from './common.js';

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Label for the key, 1–100 characters' }),
    expiresAt: Type.Optional(Type.String({ description: 'Future ISO-8601 timestamp after which the key stops working' })),
  },
  { additionalProperties: false },
);

export const CreatedKey = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    key: Type.String({ description: 'The secret, pg_live_<uuid>. Shown only in this response.' }),
    keyPrefix: Type.String({ description: 'First 12 characters of the key' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'CreatedApiKey', title: 'CreatedApiKey', description: 'A new API key, with its secret' },
);

export const KeySummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    keyPrefix: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'ApiKey', title: 'ApiKey', description: 'An API key as listed: never its secret' },
);

export const KeyIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const CreatedKeyResponse = Data(CreatedKey);
export const KeyListResponse = Data(Type.Array(KeySummary));
export const RevokedKeyResponse = Data(
  Type.Object({ id: Type.String(), revokedAt: Type.String({ format: 'date-time' }) }, { $id: 'RevokedApiKey', title: 'RevokedApiKey' }),
);
