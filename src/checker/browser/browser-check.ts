// A link check in browser mode: the whole chain again in Chromium, analysed like an HTTP trace.
import type { CheckResult } from '../types.js';
import { analyzeTrace } from './analyze-trace.js';
import { captureChain, type CaptureOptions } from './capture.js';
import type { BrowserPool } from './pool.js';

export async function runBrowserLinkCheck(
  pool: BrowserPool,
  url: string,
  options: CaptureOptions = {},
  signal?: AbortSignal,
): Promise<CheckResult> {
  return pool.withContext(async ({ context, page, egress }) => {
    const { trace } = await captureChain(context, egress, url, options, page);
    return analyzeTrace(url, trace, 'browser');
  }, signal);
}
