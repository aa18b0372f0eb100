// One error class and one handler produce the contract's envelope for every error (CONTRACT.md section 4).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorCode } from '../services/domain-error.js';

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'usage_limit_error' | 'api_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, 'invalid_request_error', code, message);
export const notFound = (message = 'No such resource.') => new ApiError(404, 'invalid_request_error', 'not_found', message);
export const conflict = (code: string, message: string) => new ApiError(409, 'invalid_request_error', code, message);
export const unauthorized = (code: string, message: string) => new ApiError(401, 'authentication_error', code, message);
export const forbidden = (code: string, message: string) => new ApiError(403, 'authentication_error', code, message);
export const serviceUnavailable = (message = 'The service is temporarily unavailable. Retry shortly.') =>
  new ApiError(503, 'api_error', 'service_unavailable', message, { 'retry-after': '5' });

export function errorBody(request: FastifyRequest, err: Pick<ApiError, 'type' | 'code' | 'message'>) {
  return { error: { type: err.type, code: err.code, message: err.message, request_id: String(request.id) } };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.status(err.status).type('application/json; charset=utf-8').send(errorBody(request, err));
}

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function describeValidation(err: FastifyError): ApiError {
  const issues = (err.validation ?? []) as ValidationIssue[];
  const first = issues[0];
  const where = err.validationContext ?? 'body';
  if (first?.keyword === 'required') {
    const name = String(first.params.missingProperty ?? '');
    return badRequest('missing_parameter', `Missing required ${where} parameter: ${name}.`);
  }
  if (where === 'body' && first?.keyword === 'type' && first.instancePath === '') {
    return badRequest('invalid_json', 'The request body must be a JSON object.');
  }
  const name = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : where;
  const detail = first?.keyword === 'additionalProperties'
    ? `unknown field "${String(first.params.additionalProperty)}"`
    : (first?.message ?? 'is invalid');
  return badRequest('invalid_parameter', `Invalid ${where} parameter ${name}: ${detail}.`);
}

const DOMAIN_STATUS: Record<DomainErrorCode, [number, ErrorType]> = {
  invalid_parameter: [400, 'invalid_request_error'],
  invalid_url: [400, 'invalid_request_error'],
  url_not_allowed: [400, 'invalid_request_error'],
  too_many_urls: [400, 'invalid_request_error'],
  not_found: [404, 'invalid_request_error'],
  cannot_revoke_current_key: [409, 'invalid_request_error'],
  too_many_batches: [409, 'invalid_request_error'],
  too_many_scans: [409, 'invalid_request_error'],
  too_many_monitors: [409, 'invalid_request_error'],
  anonymous_check_limit_reached: [429, 'usage_limit_error'],
};

const internalError = () =>
  new ApiError(500, 'api_error', 'internal_error', 'Something went wrong on our side. Retry later.');
const payloadTooLarge = () => new ApiError(413, 'invalid_request_error', 'payload_too_large', 'The request body is too large.');
const unsupportedMediaType = () =>
  new ApiError(415, 'invalid_request_error', 'unsupported_media_type', 'Send the body as application/json.');
const invalidJson = () => badRequest('invalid_json', 'The request body is not valid JSON.');

/** Maps domain errors and Fastify's own errors (parsing, limits, validation) onto contract codes. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) {
    const [status, type] = DOMAIN_STATUS[err.code];
    return new ApiError(status, type, err.code, err.message, err.headers);
  }
  if (!(err instanceof Error)) return internalError();
  const fastifyError = err as FastifyError;
  if (fastifyError.validation) return describeValidation(fastifyError);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('invalid_json', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidJson();
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) return payloadTooLarge();
  if (status === 415) return unsupportedMediaType();
  if (err instanceof SyntaxError) return invalidJson();
  if (status >= 400 && status < 500) return badRequest('invalid_parameter', 'The request could not be understood.');
  return internalError();
}

export function installErrorHandling(app: FastifyInstance, isUnavailable: (err: unknown) => boolean): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const apiError = isUnavailable(err) ? serviceUnavailable() : toApiError(err);
    if (apiError.status >= 500) {
      request.log.error({ err }, 'request failed');
    }
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
