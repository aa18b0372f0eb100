// Request validation. Bodies are JSON and validated strictly (a number is never turned into a string);
// query strings and path parameters only exist as text, so those are coerced to the schema's types.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const strict = addFormats(new Ajv({ ...base, coerceTypes: false }));
const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));


export const compileValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object);
