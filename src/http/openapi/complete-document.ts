// What the route schemas cannot say, added to the generated document: the server (its URL is known only once the
// process listens on its port) and the headers every response carries because of a hook, not a handler.
import { RESPONSE_HEADERS, type ResponseHeaderName } from '../../contract/headers.js';

interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
}

interface OperationObject {
  responses?: Record<string, ResponseObject>;
}

export interface DocumentShape {
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, OperationObject | unknown> | undefined>;
  components?: Record<string, unknown>;
}

export interface CompletionFacts {
  /** TRACKCHECK_PUBLIC_URL, or the address the service listens on. */
  publicUrl: string;
  /** Whether the route behind `GET /v1/checks/{slug}` (method and OpenAPI path) counts against the rate limit. */
  isRateLimited(method: string, path: string): boolean;
}

const OPERATION_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const headerRef = (name: ResponseHeaderName) => ({ $ref: `#/components/headers/${name}` });

const isCatalogued = (name: string): name is ResponseHeaderName => Object.hasOwn(RESPONSE_HEADERS, name);

/** Every catalogued header is sent on each response that references it, hence `required`. */
function componentHeaders(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).map(([name, spec]) => [name, { description: spec.description, required: true, schema: spec.schema }]),
  );
}

function headersFor(status: string, declared: Record<string, unknown> | undefined, rateLimited: boolean): Record<string, unknown> {
  const names: ResponseHeaderName[] = ['X-Request-Id'];
  if (rateLimited) names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining');
  if (status === '429' || status === '503') names.push('Retry-After');
  const headers: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, headerRef(name)]));
  // Headers a route declares itself (Location, Content-Disposition) point at the same components.
  for (const [name, header] of Object.entries(declared ?? {})) headers[name] = isCatalogued(name) ? headerRef(name) : header;
  return headers;
}

export function completeDocument<D extends DocumentShape>(doc: D, facts: CompletionFacts): D {
  doc.servers = [{ url: facts.publicUrl, description: 'This trackcheck service (TRACKCHECK_PUBLIC_URL)' }];
  doc.components = { ...doc.components, headers: componentHeaders() };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!OPERATION_METHODS.has(method)) continue;
      const rateLimited = facts.isRateLimited(method, path);
      for (const [status, response] of Object.entries((operation as OperationObject).responses ?? {})) {
        response.headers = headersFor(status, response.headers, rateLimited);
      }
    }
  }
  return doc;
}
