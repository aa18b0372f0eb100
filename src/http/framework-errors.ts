// Requests refused before they reach a route still get the contract's envelope and an X-Request-Id (CONTRACT.md
// section 4): a path Fastify's router cannot decode or whose parameter is too long (`frameworkErrors`), and what
// Node's HTTP parser refuses before Fastify sees a request at all (`clientError`: header block too large, malformed
// request line or headers, a request that took too long to arrive). Both bypass the hooks and the error handler.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, badRequest, sendError, toApiError, type ApiError } from './errors.js';
import { newRequestId } from './request-id.js';
import { SECURITY_HEADERS } from './security-headers.js';

const uriTooLong = () => apiError('uri_too_long', 'The request URL is too long.');

/** Fastify's `frameworkErrors` option: router failures, answered like any other error. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
  // Fastify writes no access-log line for these; the URL goes through the logger's request serializer (masked).
  reply.raw.once('finish', () => request.log.info({ req: request, res: { statusCode: reply.statusCode } }, 'request completed'));
  sendError(request, reply, frameworkApiError(error, request));
}

function frameworkApiError(error: FastifyError, request: FastifyRequest): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return badRequest('invalid_parameter', 'The request path is not valid: a "%" must be followed by two hexadecimal digits.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return uriTooLong();
    default:
      request.log.error({ err: error }, 'request failed before routing');
      return toApiError(error);
  }
}

/** Node's parser error (Fastify's ConnectionError types rawPacket as its JSON form; it is the packet's Buffer). */
type ParserError = Error & { code?: string; rawPacket?: unknown };

/** What the HTTP parser's refusal means for the client. */
function describeParserError(err: ParserError): ApiError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return apiError('request_timeout', 'The request did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line towards the header limit. When the packet that overflowed starts with the request
      // line and that line alone is past half of the limit, the URL is what is too long. Only a guess: a request line
      // sent in many packets is reported as 431.
      const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
      const startsWithRequestLine = raw !== undefined && /^[A-Z]{3,16} /.test(raw.subarray(0, 17).toString('latin1'));
      const lineEnd = raw === undefined ? -1 : raw.indexOf('\n');
      const longLine = startsWithRequestLine && raw !== undefined && (lineEnd < 0 ? raw.length : lineEnd) > 8 * 1024;
      return longLine ? uriTooLong() : apiError('headers_too_large', 'The request headers are too large.');
    }
    default:
      return apiError('malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

const answered = new WeakSet<Socket>();

/** The HTTP server's `clientErrorHandler`: a complete response written to the socket, then the connection closed. */
export function answerClientError(this: { log: { info(fields: object, message: string): void } }, err: ParserError, socket: Socket): void {
  // A reset connection has nobody to answer; a response already under way must not be interleaved with another.
  const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // One answer and one log line per connection, however the parser reports what follows (defensive).
  if (answered.has(socket)) return;
  answered.add(socket);
  const id = newRequestId();
  const error = describeParserError(err);
  if (socket.writable && !inFlight) {
    const body = JSON.stringify({ error: { type: error.type, code: error.code, message: error.message, request_id: id } });
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': id,
      ...SECURITY_HEADERS,
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${head}\r\n${body}`);
  }
  this.log.info({ reqId: id, res: { statusCode: error.status }, err: { code: err.code } }, 'request refused by the HTTP parser');
  // Closed once the answer is flushed; a client that keeps sending anyway is cut off a moment later.
  socket.destroySoon();
  setTimeout(() => socket.destroy(), 2_000).unref();
}
