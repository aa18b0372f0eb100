// Requests refused before they reach a route still get the contract's envelope and an X-Request-Id (CONTRACT.md
// section 4): a path Fastify's router cannot decode or whose parameter is too long (`frameworkErrors`), and what
// Node's HTTP parser refuses before Fastify sees a request at all (`clientError`: header block too large, malformed
// request line or headers, a request that took too long to arrive). Both bypass the hooks and the error handler.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, sendError, toApiError } from './errors.js';
import { newRequestId } from './request-id.js';
import { SECURITY_HEADERS } from './security-headers.js';

const uriTooLong = () => new ApiError(414, 'invalid_request_error', 'uri_too_long', 'The request URL is too long.');

/** Fastify's `frameworkErrors` option: router failures, answered like any other error. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
  // Fastify writes no access-log line for these; the URL goes through the logger's request serializer (masked).
  reply.raw.once('finish', () => request.log.info({ req: request, res: { statusCode: reply.statusCode } }, 'request completed'));
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendError(request, reply, badRequest('invalid_parameter', 'The request path is not valid: a "%" must be followed by two hexadecimal digits.'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendError(request, reply, uriTooLong());
    default:
      request.log.error({ err: error }, 'request failed before routing');
      return sendError(request, reply, toApiError(error));
  }
}

/** Node's parser error (Fastify's ConnectionError types rawPacket as its JSON form; it is the packet's Buffer). */
type ParserError = Error & { code?: string; rawPacket?: unknown };

/** What the HTTP parser's refusal means for the client. */
function describeParserError(err: ParserError): ApiError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new ApiError(408, 'invalid_request_error', 'request_timeout', 'The request did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line towards the header limit. When the line alone is past half of it (the packet
      // holds no line end early on), the URL is what is too long. Only a guess when the line came in many packets.
      const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
      const lineEnd = raw === undefined ? -1 : raw.indexOf('\n');
      const longLine = raw !== undefined && (lineEnd < 0 ? raw.length : lineEnd) > 8 * 1024;
      return longLine ? uriTooLong() : new ApiError(431, 'invalid_request_error', 'headers_too_large', 'The request headers are too large.');
    }
    default:
      return new ApiError(400, 'invalid_request_error', 'malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/** The HTTP server's `clientErrorHandler`: a complete response written to the socket, then the connection closed. */
export function answerClientError(this: { log: { info(fields: object, message: string): void } }, err: ParserError, socket: Socket): void {
  // A reset connection has nobody to answer; a response already under way must not be interleaved with another.
  const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const id = newRequestId();
  const error = describeParserError(err);
  if (socket.writable && !inFlight) {
    const body = JSON.stringify({ error: { type: error.type, code: error.code, message: error.message, request_id: id } });
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': id, ...SECURITY_HEADERS, Connection: 'close' };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${head}\r\n${body}`);
  }
  this.log.info({ reqId: id, res: { statusCode: error.status }, err: { code: err.code } }, 'request refused by the HTTP parser');
  // After the answer is flushed; the rest of what the client sends is not read.
  socket.destroySoon();
}
