// One delivery attempt to one channel (CONTRACT.md section 8). Never throws: every outcome, including a
// refused address or a timeout, is an AttemptResult the retry policy can act on.
import type { LookupAll, ResolveMap } from '../../checker/net/net-guard.js';
import { VERSION } from '../../lib/version.js';
import { sendAlertEmail } from './email.js';
import { guardedPost, type PostOutcome } from './guarded-post.js';
import { serializeWebhookBody } from './payload.js';
import { SIGNATURE_HEADER, signWebhook } from './signature.js';
import { buildSlackMessage } from './slack-message.js';
import type { Alert, AlertOptions, AttemptResult, Channel } from './types.js';

/** "No answer within 10 s" is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryDeps {
  options: Pick<AlertOptions, 'smtpUrl' | 'alertFrom'>;
  /** TRACKCHECK_RESOLVE. */
  resolve?: ResolveMap;
  /** DNS for channel hosts; the system resolver by default. */
  lookupAll?: LookupAll;
  /** Per attempt; DELIVERY_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** Epoch ms, for the signature timestamp. */
  now?: () => number;
}

const USER_AGENT = `trackcheck-alerts/${VERSION}`;

function fromPost(outcome: PostOutcome): AttemptResult {
  if (outcome.kind !== 'answered') return { ok: false, error: outcome.error, retryable: true };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { ok: true, detail: `HTTP ${status}` };
  if (status >= 300 && status < 400) return { ok: false, error: `HTTP ${status} (redirects are not followed)`, retryable: true };
  return { ok: false, error: `HTTP ${status}`, retryable: true };
}

/**
 * Makes ONE attempt to deliver `alert` to `channel`. `deliveryId` is the delivery's `Trackcheck-Delivery`
 * id, the same on each of its retries (DeliveryState.deliveryId).
 */
export async function deliver(alert: Alert, channel: Channel, deliveryId: string, deps: DeliveryDeps): Promise<AttemptResult> {
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const post = { resolve: deps.resolve, lookupAll: deps.lookupAll, timeoutMs };
  try {
    switch (channel.type) {
      case 'webhook': {
        const body = serializeWebhookBody(alert.event);
        const headers: Record<string, string> = {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          'Trackcheck-Event': alert.event.type,
          'Trackcheck-Delivery': deliveryId,
        };
        if (channel.secret !== null) {
          const nowSeconds = Math.floor((deps.now ?? Date.now)() / 1000);
          headers[SIGNATURE_HEADER] = signWebhook(channel.secret, body, nowSeconds);
        }
        return fromPost(await guardedPost(channel.url, body, headers, post));
      }
      case 'slack': {
        const body = JSON.stringify(buildSlackMessage(alert));
        const headers = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
        return fromPost(await guardedPost(channel.url, body, headers, post));
      }
      case 'email':
        return await sendAlertEmail(alert, channel.to, { ...deps.options, timeoutMs });
    }
  } catch {
    // A bug, not the receiver's behaviour; no detail, since messages could carry channel data.
    return { ok: false, error: 'internal error while delivering', retryable: true };
  }
}
