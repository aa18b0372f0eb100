// A page as the browser shows it after its scripts ran (page scans with `render: true`): opened in a pool context,
// so every request goes through the guarded egress (CONTRACT.md §6), settled like a check's landing page, and its
// DOM serialised for the link reader.
import { captureChain, type CaptureOptions } from './capture.js';
import type { BrowserPool } from './pool.js';
import { DEFAULT_DOCUMENT_BYTES } from '../net/document-fetch.js';

/** Characters of a rendered document read (DEFAULT_DOCUMENT_BYTES' order of size). */
const MAX_RENDERED_CHARS = DEFAULT_DOCUMENT_BYTES;

export type RenderedPage =
  | { ok: true; url: string; html: string }
  | { ok: false; code: 'blocked_private_address' | 'unreachable' | 'error_status'; message: string };

export async function renderPage(
  pool: BrowserPool,
  url: string,
  options: CaptureOptions = {},
  signal?: AbortSignal,
): Promise<RenderedPage> {
  return pool.withContext(async ({ context, page, egress }) => {
    const { trace } = await captureChain(context, egress, url, options, page);
    const last = trace.hops.at(-1);
    const end = trace.end;
    if (end.reason === 'blocked_private_address') {
      return { ok: false, code: 'blocked_private_address', message: last?.error ?? 'blocked: resolves to a private address' };
    }
    if (end.reason !== 'landed' || last === undefined || last.status === null) {
      return { ok: false, code: 'unreachable', message: last?.error ?? `the page could not be loaded (${end.reason})` };
    }
    if (last.status >= 400) return { ok: false, code: 'error_status', message: `the page answered HTTP ${last.status}` };
    // The same budget as a fetched page; the link reader never yields a URL cut by the truncation.
    const html = await page.content();
    return { ok: true, url: page.url(), html: html.length > MAX_RENDERED_CHARS ? html.slice(0, MAX_RENDERED_CHARS) : html };
  }, signal);
}
