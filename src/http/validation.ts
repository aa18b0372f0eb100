// Request validation. Bodies are JSON and validated strictly (a number is never turned into a string);
// query strings and path parameters only exist as text, so those are coerced to the schema's types.
import { isDeepStrictEqual } from 'node:util';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

// ajv-formats ships CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const strict = addFormats(new Ajv({ ...base, coerceTypes: false }));
const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * CONTRACT.md section 7: a body may spell every snake_case field in camelCase (`checkType` = `check_type`). The
 * camelCase spelling is moved to the snake_case one before validation; both with different values is a 400.
 */
function acceptCamelCase(schema: { properties?: Record<string, unknown> }, validate: Validate): Validate {
  const aliases = Object.keys(schema.properties ?? {})
    .filter((name) => name.includes('_'))
    .map((name) => [camelCase(name), name] as const);
  if (aliases.length === 0) return validate;
  const wrapped: Validate = (data) => {
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const body = data as Record<string, unknown>;
      for (const [camel, snake] of aliases) {
        if (!Object.hasOwn(body, camel)) continue;
        if (Object.hasOwn(body, snake) && !isDeepStrictEqual(body[snake], body[camel])) {
          wrapped.errors = [
            {
              keyword: 'alias',
              instancePath: `/${camel}`,
              schemaPath: '#',
              params: {},
              message: `it is another spelling of ${snake}, which has a different value; send one of them`,
            },
          ];
          return false;
        }
        body[snake] = body[camel];
        delete body[camel];
      }
    }
    const valid = validate(data);
    wrapped.errors = validate.errors ?? null;
    return valid;
  };
  return wrapped;
}

export const compileValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart !== 'body') return coercing.compile(schema as object);
  return acceptCamelCase(schema as { properties?: Record<string, unknown> }, strict.compile(schema as object));
};
