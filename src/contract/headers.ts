// The response headers the OpenAPI document promises: what the hooks and handlers really send. Each is declared
// once under components.headers; document.ts references it from every response that carries it.

interface HeaderSpec {
  description: string;
  schema: { type: 'string' | 'integer'; minimum?: number; pattern?: string };
}

export const RESPONSE_HEADERS = {
  // app.ts (onRequest) and framework-errors.ts: every response, success or error, before anything can fail.
  'X-Request-Id': {
    description:
      'This request’s id, `req_` and 24 hex digits; an error body repeats it as `request_id`. Quote it when reporting a problem.',
    schema: { type: 'string', pattern: '^req_[0-9a-f]{24}$' },
  },
  // rate-limit.ts: set in onRequest, before authentication fails or the body is read, so 401s, 404s and 413s carry them too.
  'X-RateLimit-Limit': {
    description: 'Requests allowed per UTC minute for this endpoint and caller (the user, or the IP address when anonymous).',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current UTC minute for this endpoint and caller; 0 on a `429 rate_limited`.',
    schema: { type: 'integer', minimum: 0 },
  },
  // rate-limit.ts, services/checks.ts (anonymous weekly cap) and errors.ts (service_unavailable).
  'Retry-After': {
    description:
      'Whole seconds to wait before retrying: until the rate-limit minute resets (1–60) for `rate_limited`, until Monday 00:00 UTC for ' +
      '`anonymous_check_limit_reached`, a few seconds for `service_unavailable`.',
    schema: { type: 'integer', minimum: 0 },
  },
  Location: {
    description: 'The path to poll for the result, relative to the server URL.',
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description: '`attachment; filename="…"`: the body is meant to be saved as a file.',
    schema: { type: 'string' },
  },
} as const satisfies Record<string, HeaderSpec>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

/**
 * Route-specific headers for a response schema, in @fastify/swagger's form (`headers` next to the body schema).
 * Fastify's serializer ignores the keyword; document.ts turns each into a reference to its component.
 */
export function routeHeaders(...names: ResponseHeaderName[]): Record<string, { type: string; description: string }> {
  return Object.fromEntries(
    names.map((name) => [name, { type: RESPONSE_HEADERS[name].schema.type, description: RESPONSE_HEADERS[name].description }]),
  );
}
