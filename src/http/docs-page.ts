// The human API reference at /docs: rendered on the server from the generated OpenAPI document, no JavaScript.
import { escapeHtml } from '../lib/html-escape.js';

interface SchemaObject {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  anyOf?: SchemaObject[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: SchemaObject }[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

function typeOf(schema: SchemaObject | undefined): string {
  if (!schema) return '';
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object');
}

function fieldRows(schema: SchemaObject | undefined, where: string): string {
  if (!schema?.properties) return '';
  return Object.entries(schema.properties)
    .map(([name, prop]) => {
      const required = schema.required?.includes(name) ? 'required' : 'optional';
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${where}</td><td>${escapeHtml(typeOf(prop))}</td><td>${required}</td><td>${escapeHtml(prop.description ?? '')}</td></tr>`;
    })
    .join('');
}

/** `[]`: public; `{}` among the requirements: anonymous allowed, a token honoured; otherwise a token is required. */
function authOf(security: unknown[] | undefined): string {
  if (!security || security.length === 0) return 'none required';
  const anonymous = security.some(
    (requirement) => typeof requirement === 'object' && requirement !== null && Object.keys(requirement).length === 0,
  );
  return anonymous ? 'optional (anonymous callers allowed; a Bearer token, when sent, must be valid)' : 'Bearer token';
}

function renderOperation(method: string, path: string, op: Operation): string {
  const auth = authOf(op.security);
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${escapeHtml(typeOf(p.schema))}</td><td>${p.required ? 'required' : 'optional'}</td><td>${escapeHtml(p.description ?? p.schema?.description ?? '')}</td></tr>`,
    )
    .join('');
  const body = fieldRows(op.requestBody?.content?.['application/json']?.schema, 'body');
  const table =
    params || body ? `<table><tr><th>Name</th><th>In</th><th>Type</th><th></th><th>Notes</th></tr>${params}${body}</table>` : '';
  const statuses = Object.keys(op.responses ?? {})
    .map((s) => `<code>${s}</code>`)
    .join(' ');
  return `<section id="${escapeHtml(`${method}-${path}`)}"><h3><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary ?? '')}</p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}<p>Operation id: <code>${escapeHtml(op.operationId ?? '')}</code>. Authentication: ${auth}. Responses: ${statuses}</p>${table}</section>`;
}

/** The page's one inline stylesheet; the Content-Security-Policy allows it by hash (http/security-headers.ts). */
export const DOCS_STYLES = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
.m{font-weight:700;color:#0b5}section{border-top:1px solid #eee;margin-top:1.5rem}`;

export function renderDocsPage(doc: OpenApiDocument): string {
  const sections = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => renderOperation(method, path, op)))
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)} API reference</title>
<style>${DOCS_STYLES}</style></head><body>
<h1>${escapeHtml(doc.info.title)} API <small>v${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description ?? '')}</p>
<p>Machine-readable document: <a href="/openapi.json">/openapi.json</a>. Send <code>Authorization: Bearer &lt;API key or session token&gt;</code>.
Every error is <code>{"error":{"type","code","message","request_id"}}</code>; every response carries <code>X-Request-Id</code>.
Rate limits: <code>X-RateLimit-Limit</code> / <code>X-RateLimit-Remaining</code> on every /v1 response, <code>429 rate_limited</code> with <code>Retry-After</code>.</p>
${sections}
</body></html>`;
}
