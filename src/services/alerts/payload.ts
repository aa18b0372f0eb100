// The webhook body: the event (CONTRACT.md section 8) without `deliveries`. A delivery's own progress is
// not part of what it delivers: it would differ between retries of one delivery (so one delivery id would
// carry different bodies), and it would tell each receiver about the other channels of the monitor.
import type { AlertEvent } from './types.js';

export type WebhookBody = Omit<AlertEvent, 'deliveries'>;

/** The fields sent, picked one by one so nothing else the caller holds on the event can leak. */
export function buildWebhookBody(event: AlertEvent): WebhookBody {
  return {
    id: event.id,
    monitorId: event.monitorId,
    type: event.type,
    createdAt: event.createdAt,
    checkSlug: event.checkSlug,
    previousCheckSlug: event.previousCheckSlug,
    changes: event.changes.map((c) => ({ field: c.field, from: c.from, to: c.to })),
  };
}

/** The raw body: these exact bytes are sent and signed. */
export function serializeWebhookBody(event: AlertEvent): string {
  return JSON.stringify(buildWebhookBody(event));
}
