// One error class and one handler produce the contract's envelope for every error (CONTRACT.md section 4); each
// code's status and type come from the closed set in contract/errors.ts.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorStatus, errorType, type CodeWithStatus, type ErrorCode, type ErrorType } from '../contract/errors.js';
import { DomainError } from '../services/domain-error.js';
import { isServiceUnavailable } from '../services/unavailable.js';

export type { ErrorCode, ErrorType };

/** An error as the envelope carries it; build one with apiError(code, …) so status and type are the code's. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error of a code of the closed set, with the status and type the contract gives it. */
export const apiError = (code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
  new ApiError(errorStatus(code), errorType(code), code, message, headers);

export const badRequest = (code: CodeWithStatus<400>, message: string) => apiError(code, message);
export const notFound = (message = 'No such resource.') => apiError('not_found', message);
export const conflict = (code: CodeWithStatus<409>, message: string) => apiError(code, message);
export const unauthorized = (code: CodeWithStatus<401>, message: string) => apiError(code, message);
export const forbidden = (code: CodeWithStatus<403>, message: string) => apiError(code, message);
export const serviceUnavailable = (message = 'The service is temporarily unavailable. Retry shortly.') =>
  apiError('service_unavailable', message, { 'retry-after': '5' });

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
  const detail =
    first?.keyword === 'additionalProperties'
      ? `unknown field "${String(first.params.additionalProperty)}"`
      : (first?.message ?? 'is invalid');
  return badRequest('invalid_parameter', `Invalid ${where} parameter ${name}: ${detail}.`);
}

const internalError = () => apiError('internal_error', 'Something went wrong on our side. Retry later.');
const payloadTooLarge = () => apiError('payload_too_large', 'The request body is too large.');
const unsupportedMediaType = () => apiError('unsupported_media_type', 'Send the body as application/json.');
const invalidJson = () => badRequest('invalid_json', 'The request body is not valid JSON.');

/**
 * Maps every error onto a code of the closed set: domain errors, an unreachable dependency (503, the same for the
 * API and the pages) and Fastify's own errors (parsing, limits, validation).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return apiError(err.code, err.message, err.headers);
  if (isServiceUnavailable(err)) return serviceUnavailable();
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

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const answer = toApiError(err);
    if (answer.status >= 500) {
      request.log.error({ err }, 'request failed');
    }
    return sendError(request, reply, answer);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
