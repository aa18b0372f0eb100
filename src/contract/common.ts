import { Type, type TSchema } from '@sinclair/typebox';
import { routeHeaders, type ResponseHeaderName } from './headers.js';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      type: Type.String({ description: 'invalid_request_error, authentication_error, usage_limit_error or api_error' }),
      code: Type.String({ description: 'Machine-readable code, see the error table' }),
      message: Type.String(),
      request_id: Type.String({ description: 'Same value as the X-Request-Id header, form req_…' }),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'Error', description: 'The body of every error response' },
);

/** `{data: T}`, the shape of every JSON success body. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

/**
 * What each status means on this API, naming every code of the closed set (contract/errors.ts) it can carry
 * (CONTRACT.md section 4); test/http/error-codes.test.ts keeps the two in step.
 */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: invalid_json, missing_parameter, invalid_parameter, invalid_url, url_not_allowed, too_many_urls or malformed_request (not valid HTTP/1.1)',
  401: 'Not authenticated: authentication_required, invalid_credentials, invalid_api_key, api_key_expired or token_expired',
  403: 'Authenticated, but not allowed this way: session_token_required (the web pages also answer csrf_token_invalid and cross_site_request)',
  404: 'not_found: no such resource, or not the caller’s',
  405: 'method_not_allowed: the path exists, but not with this method; the Allow header lists the ones it takes',
  408: 'request_timeout: the request did not arrive in time',
  409: 'Conflict with the current state: cannot_revoke_current_key, too_many_batches, too_many_scans or too_many_monitors',
  413: 'payload_too_large: the request body is too large',
  414: 'uri_too_long: the request URL is too long',
  415: 'unsupported_media_type: send the body as application/json',
  429: 'Too many requests: rate_limited (per-minute limit) or anonymous_check_limit_reached (weekly anonymous cap); wait Retry-After seconds',
  431: 'headers_too_large: the request headers are too large',
  500: 'internal_error: something went wrong on our side (the message says nothing about what); retry later',
  503: 'service_unavailable: a dependency (the database, the identity provider) is unreachable; retry after Retry-After seconds',
};

/** One error response with a description of its own, when the generic one of its status would mislead. */
export const errorResponse = (description: string) => Type.Ref('ErrorEnvelope', { description });

/**
 * The error responses a route documents, by status; each body is the error envelope. 503 is always among them: every
 * API route needs the database or the identity provider, and either can be unreachable.
 */
export function errorResponses(...statuses: number[]): Record<number, ReturnType<typeof errorResponse>> {
  const all = [...new Set([...statuses, 503])].sort((a, b) => a - b);
  return Object.fromEntries(all.map((s) => [s, errorResponse(ERROR_DESCRIPTIONS[s] ?? 'An error')]));
}

/**
 * A success response schema with what the OpenAPI document shows for it: the response's description (kept apart from
 * the body schema's own, which @fastify/swagger would otherwise take) and the headers only this route sends (the ones
 * every response carries are added by openapi/complete-document.ts). Serialization ignores both.
 */
export function response<T extends TSchema>(schema: T, description: string, ...headers: ResponseHeaderName[]): T {
  const documented = { ...schema, 'x-response-description': description };
  return headers.length > 0 ? { ...documented, headers: routeHeaders(...headers) } : documented;
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
