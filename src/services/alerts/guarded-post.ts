// One POST through the checker's network guard (CONTRACT.md section 6): the channel URL is re-checked,
// its host resolved here (TRACKCHECK_RESOLVE first), every address classified, and the connection pinned
// to the verified address. A refused host is never contacted. Redirects are not followed: the pinned
// agent has no redirect handling, and a 3xx is simply the answer.
import { describeRequestError } from '../../checker/net/http-client.js';
import {
  checkSubmittedUrl,
  describeBlocked,
  resolveTarget,
  type GuardDecision,
  type LookupAll,
  type ResolveMap,
} from '../../checker/net/net-guard.js';
import { getPinnedClient } from '../../checker/net/pinned-agent.js';

export interface GuardedPostOptions {
  /** TRACKCHECK_RESOLVE: the only way a channel may reach a private address. */
  resolve?: ResolveMap;
  /** DNS, injectable for tests; the system resolver by default. */
  lookupAll?: LookupAll;
  /** The whole attempt (DNS, connect, answer) must finish within this. */
  timeoutMs: number;
}

export type PostOutcome =
  | { kind: 'answered'; status: number }
  /** Refused before any connection: the URL, the address or DNS. */
  | { kind: 'not_sent'; error: string }
  | { kind: 'failed'; error: string };

/** Receivers' answers are not read, only drained so the connection can be reused. */
const MAX_DRAINED_BYTES = 64 * 1024;

export function describeTimeout(timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  return `no answer within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

function aborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

export async function guardedPost(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: GuardedPostOptions,
): Promise<PostOutcome> {
  const checked = checkSubmittedUrl(rawUrl, options.resolve);
  if (!checked.ok) return { kind: 'not_sent', error: `url not allowed: ${checked.message}` };
  const url = checked.url;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    // A DNS lookup cannot be cancelled, only stopped being waited for.
    const decision: GuardDecision | 'aborted' = await Promise.race([
      resolveTarget(url.hostname, options.resolve, options.lookupAll),
      aborted(controller.signal),
    ]);
    if (decision === 'aborted') return { kind: 'failed', error: describeTimeout(options.timeoutMs) };
    if (!decision.ok) {
      const error = decision.kind === 'blocked' ? describeBlocked(decision.range) : decision.message;
      return { kind: 'not_sent', error };
    }
    const client = getPinnedClient(options.resolve, undefined);
    const release = client.pins.acquire(url.hostname, decision.addresses);
    try {
      const response = await client.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      });
      await response.body.dump({ limit: MAX_DRAINED_BYTES }).catch(() => undefined);
      return { kind: 'answered', status: response.statusCode };
    } finally {
      release();
    }
  } catch (err) {
    if (controller.signal.aborted) return { kind: 'failed', error: describeTimeout(options.timeoutMs) };
    return { kind: 'failed', error: describeRequestError(err) };
  } finally {
    clearTimeout(timer);
  }
}
