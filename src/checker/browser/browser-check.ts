// A link check in browser mode: the whole chain again in Chromium, analysed like an HTTP trace.
import type { CheckResult } from '../types.js';
import { analyzeTrace } from './analyze-trace.js';
import { captureChain, prepareContext, type CaptureOptions } from './capture.js';
import type { BrowserPool } from './pool.js';

export async function runBrowserLinkCheck(pool: BrowserPool, url: string, options: CaptureOptions = {}, signal?: AbortSignal): Promise<CheckResult> {
  return pool.withContext(async ({ context, egress }) => {
    await prepareContext(context);
    const { trace } = await captureChain(context, egress, url, options);
    return analyzeTrace(url, trace, 'browser');
  }, signal);
}
