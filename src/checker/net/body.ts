// Reading response bodies on a budget: at most `maxBytes` after decompression, and never an error for
// a broken encoding (a truncated or corrupt body just yields what could be decoded).
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;

function createDecoder(encoding: string, firstChunk: Buffer): Decoder | null {
  // Sync flush lets a truncated stream give up its output instead of failing.
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate': {
      // "deflate" is zlib-wrapped by the spec, but servers send raw deflate too; browsers accept both.
      const b0 = firstChunk[0] ?? 0;
      const b1 = firstChunk[1] ?? 0;
      const zlibWrapped = (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
      return zlibWrapped
        ? zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : zlib.createInflateRaw({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    }
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return null;
  }
}

/** The single content coding we can undo, '' for identity, null for one we cannot (e.g. "gzip, br"). */
function pickEncoding(header: string | undefined): string | null {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return '';
  if (codings.length > 1) return null;
  const only = codings[0] ?? '';
  return ['gzip', 'x-gzip', 'deflate', 'br'].includes(only) ? only : null;
}

/** Drops a body we will not read; undici reports the abort as an error event nobody needs. */
export function destroyQuietly(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function concatCapped(chunks: Buffer[], maxBytes: number): Buffer {
  const all = Buffer.concat(chunks);
  return all.length > maxBytes ? all.subarray(0, maxBytes) : all;
}

async function readIdentity(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= maxBytes) break; // leaving the loop destroys the stream: we have all we will read
    }
  } catch {
    // A reset or timeout mid-body: a browser would render what arrived, and so do we.
  }
  return concatCapped(chunks, maxBytes);
}

/** Collects a decoder's output, destroying it the moment the cap is reached. */
class CappedSink {
  readonly out: Buffer[] = [];
  total = 0;
  stopped = false;
  readonly finished: Promise<void>;

  constructor(
    readonly decoder: Decoder,
    maxBytes: number,
  ) {
    this.finished = new Promise<void>((resolve) => {
      decoder.on('data', (piece: Buffer) => {
        this.out.push(piece);
        this.total += piece.length;
        // Stop inflating at the cap at once: a small bomb must not expand in memory.
        if (this.total >= maxBytes) {
          this.stopped = true;
          decoder.destroy();
        }
      });
      decoder.once('end', resolve);
      decoder.once('close', resolve);
      decoder.once('error', () => {
        this.stopped = true;
        resolve();
      });
    });
  }
}

async function readDecoded(body: Readable, encoding: string, maxBytes: number): Promise<Buffer> {
  let sink: CappedSink | null = null;
  let rawTotal = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (sink === null) {
        const decoder = createDecoder(encoding, chunk);
        if (decoder === null) return Buffer.alloc(0);
        sink = new CappedSink(decoder, maxBytes);
      }
      rawTotal += chunk.length;
      if (!sink.stopped) sink.decoder.write(chunk);
      // Compressed input is rarely larger than its output, so the raw cap bounds the read as well.
      if (sink.stopped || rawTotal >= maxBytes) break;
    }
  } catch {
    // As for identity bodies: keep what was decoded before the stream failed.
  }
  if (sink === null) return Buffer.alloc(0);
  if (!sink.stopped) sink.decoder.end();
  await sink.finished;
  sink.decoder.destroy();
  return concatCapped(sink.out, maxBytes);
}

/**
 * Reads at most `maxBytes` of decoded body. An unsupported content coding yields an empty buffer; a
 * stream that fails part-way (reset, timeout) yields what arrived. Never throws.
 */
export async function readBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<Buffer> {
  // Leaving a read early destroys the stream, which undici reports as an error event.
  body.on('error', () => undefined);
  const encoding = pickEncoding(contentEncoding);
  if (encoding === null) {
    destroyQuietly(body);
    return Buffer.alloc(0);
  }
  return encoding === '' ? readIdentity(body, maxBytes) : readDecoded(body, encoding, maxBytes);
}

function charsetFromContentType(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

function charsetFromMeta(head: string): string | null {
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}

function tryDecoder(label: string | null): TextDecoder | null {
  if (label === null) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

// windows-1252 in 0x80–0x9F (Node's TextDecoder decodes that label as plain latin1 there).
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Decodes an HTML body the way a browser picks a charset: BOM, Content-Type, <meta>, then UTF-8. */
export function decodeHtml(bytes: Buffer, contentType: string | null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const decoder =
    tryDecoder(charsetFromContentType(contentType)) ??
    tryDecoder(charsetFromMeta(bytes.subarray(0, 1024).toString('latin1'))) ??
    new TextDecoder('utf-8');
  const text = decoder.decode(bytes);
  if (decoder.encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}
