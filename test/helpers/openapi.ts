// The served /openapi.json, read the way a code generator reads it.
import type { FastifyInstance } from 'fastify';

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, unknown>;
    headers?: Record<string, HeaderObject>;
    securitySchemes?: Record<string, unknown>;
  };
}

export interface Operation {
  method: string;
  path: string;
  operation: OperationObject;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

export async function servedDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
  return res.json() as OpenApiDocument;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

export function operationById(doc: OpenApiDocument, operationId: string): Operation {
  const found = operationsOf(doc).find((op) => op.operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the document`);
  return found;
}

/** A response's headers with their `$ref`s to components.headers resolved. */
export function responseHeaders(doc: OpenApiDocument, response: ResponseObject): Record<string, HeaderObject> {
  return Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, header]) => {
      if (!('$ref' in header)) return [name, header];
      const target = doc.components.headers?.[header.$ref.replace('#/components/headers/', '')];
      if (!target) throw new Error(`dangling header reference ${header.$ref}`);
      return [name, target];
    }),
  );
}

/** Every `$ref` string anywhere in the document. */
export function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}
