// Form bodies for the pages: application/x-www-form-urlencoded, and multipart/form-data for the batch page's file
// upload. Both become one shape; the first value of a repeated field wins. Registered only inside the pages' plugin,
// so the JSON API keeps refusing these media types with 415.
import type { FastifyInstance } from 'fastify';

export interface UploadedFile {
  filename: string;
  content: Buffer;
}

export interface WebForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

export const FORM_BODY_LIMIT = 16 * 1024;
const MAX_PARTS = 20;

class FormError extends Error {
  readonly statusCode = 400;
}

export function parseUrlEncoded(body: string): WebForm {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) fields[key] ??= value;
  return { fields, files: {} };
}

function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new FormError('multipart body without a boundary');
  return boundary;
}

function dispositionParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}="([^"]*)"`, 'i').exec(header);
  return match?.[1];
}

/** RFC 7578 bodies as browsers send them (the whole body is in memory already, bounded by the route's limit). */
export function parseMultipart(body: Buffer, contentType: string): WebForm {
  const boundary = boundaryOf(contentType);
  const delimiter = Buffer.from(`--${boundary}`);
  const separator = Buffer.from(`\r\n--${boundary}`);
  const form: WebForm = { fields: {}, files: {} };
  let pos = body.indexOf(delimiter);
  if (pos !== 0) throw new FormError('multipart body does not start with its boundary');
  for (let parts = 0; ; parts++) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return form; // closing delimiter
    if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a || parts >= MAX_PARTS) throw new FormError('malformed multipart body');
    pos += 2;
    const end = body.indexOf(separator, pos);
    if (end < 0) throw new FormError('multipart part without an end');
    const part = body.subarray(pos, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new FormError('multipart part without headers');
    const headers = part.subarray(0, headerEnd).toString('utf8').split('\r\n');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const name = dispositionParam(disposition, 'name');
    const filename = dispositionParam(disposition, 'filename');
    const content = part.subarray(headerEnd + 4);
    if (name !== undefined) {
      if (filename !== undefined) form.files[name] ??= { filename, content };
      else form.fields[name] ??= content.toString('utf8');
    }
    pos = end + 2; // at the next delimiter
  }
}

export function installFormParsers(app: FastifyInstance): void {
  // Pages take forms only: a JSON body posted to a page is 415, never a half-parsed form.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, parseUrlEncoded(String(body)));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, (request, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, String(request.headers['content-type'] ?? '')));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/** Text of an uploaded file: UTF-8, without a byte order mark. */
export function fileText(file: UploadedFile): string {
  return file.content.toString('utf8').replace(/^\uFEFF/, '');
}
