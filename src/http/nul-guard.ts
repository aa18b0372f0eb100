// U+0000 in anything a client sends is refused before a handler runs. PostgreSQL text cannot hold it (the statement
// fails with "invalid byte sequence", which surfaced as a 500), no URL, name, slug or id legitimately contains it, and
// checking each field in each route would miss the next route. One hook, for every route: path parameters, query
// strings, JSON bodies and form bodies (field names and values, uploaded file names and contents).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest, notFound } from './errors.js';

const NUL = '\u0000';

/** Where the first NUL is (`urls[3]`, `name`, a key itself), or null. Depth-bounded: bodies are parsed JSON. */
export function findNul(value: unknown, where = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? where : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Buffer.isBuffer(value)) return value.includes(0) ? where : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${where}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const path = where === '' ? key : `${where}.${key}`;
    if (key.includes(NUL)) return where === '' ? '(a field name)' : `${where} (a field name)`;
    const found = findNul(item, path, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A form body's shape (web/forms.ts) reads better as its field names than as `fields.url`. */
function bodyPath(path: string): string {
  return path.replace(/^(fields|files)\./, '');
}

/** preValidation hook of the root instance (so of every route). */
export function refuseNulCharacters(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  // A path id or slug with NUL in it names nothing that can exist.
  if (findNul(request.params) !== null) return done(notFound('No such resource.'));
  const inQuery = findNul(request.query);
  if (inQuery !== null)
    return done(badRequest('invalid_parameter', `Invalid query parameter ${inQuery}: must not contain the NUL character (U+0000).`));
  const inBody = findNul(request.body);
  if (inBody !== null) {
    return done(
      badRequest('invalid_parameter', `Invalid body parameter ${bodyPath(inBody) || 'body'}: must not contain the NUL character (U+0000).`),
    );
  }
  done();
}
