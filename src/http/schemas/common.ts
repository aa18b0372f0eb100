import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      type: Type.String({ description: 'invalid_request_error, authentication_error, usage_limit_error or api_error' }),
      code: Type.String({ description: 'Machine-readable code, see the error table' }),
      message: Type.String(),
      request_id: Type.String({ description: 'Same value as the X-Request-Id header, form req_…' }),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'Error' },
);

/** `{data: T}`, the shape of every JSON success body. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

const errorRef = Type.Ref('ErrorEnvelope');

/** The error responses a route documents, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorRef> {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]));
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
