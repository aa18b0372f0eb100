// Delivers monitor events (CONTRACT.md section 8): leases events with a due delivery, makes one attempt per due
// delivery (services/alerts deliver), applies the retry policy and stores the progress under the lease.
import { randomUUID } from 'node:crypto';
import type { ResolveMap } from '../checker/net/address-policy.js';
import type { Store } from '../store/index.js';
import type { MonitorEventRow } from '../store/monitor-events-repo.js';
import type { Clock } from '../rate-limit/window.js';
import { applyAttemptResult, deliver, isDue, retryPolicy } from '../services/alerts/index.js';
import type { Alert, AttemptResult, Channel, ChannelType, DeliveryState, MonitorState } from '../services/alerts/types.js';
import { readChannels, toEventView } from '../services/monitors/views.js';
import { isoAt } from '../lib/iso-timestamp.js';

export interface AlertDeliveryOptions {
  store: Store;
  clock: Clock;
  smtpUrl: string | null;
  alertFrom: string;
  /** TRACKCHECK_ALERT_RETRY_MS. */
  retryFirstDelayMs: number;
  resolve: ResolveMap;
  publicUrl(): string;
  /** Per attempt (tests); 10 s by default. */
  timeoutMs?: number;
  /** How long an event's deliveries stay leased to one worker; a worker that dies is replaced after it. */
  leaseMs?: number;
  onAttempt?(channelType: ChannelType, outcome: 'delivered' | 'retrying' | 'failed'): void;
}

/** The earliest next attempt of the pending deliveries; null when every one is delivered or failed. */
export function nextDeliveryAt(states: DeliveryState[]): string | null {
  const times = states.filter((s) => s.status === 'pending' && s.nextAttemptAt !== null).map((s) => s.nextAttemptAt as string);
  return times.length === 0 ? null : times.reduce((a, b) => (a < b ? a : b));
}

export function createAlertDeliverer(opts: AlertDeliveryOptions) {
  const { store, clock } = opts;
  const token = `deliverer-${randomUUID()}`;
  const leaseMs = opts.leaseMs ?? 60_000;
  const policy = retryPolicy(opts.retryFirstDelayMs);

  async function alertFor(row: MonitorEventRow): Promise<Alert> {
    const monitor = await store.monitors.get(row.monitor_id, { includeDeleted: true });
    const base = opts.publicUrl();
    return {
      event: toEventView(row),
      monitor: { name: monitor?.name ?? null, url: monitor?.url ?? '', state: (monitor?.state ?? 'unknown') as MonitorState },
      reportUrl: `${base}/r/${row.check_slug}`,
      previousReportUrl: row.previous_check_slug === null ? null : `${base}/r/${row.previous_check_slug}`,
    };
  }

  async function attempt(alert: Alert, channel: Channel, state: DeliveryState): Promise<AttemptResult> {
    const deps = { options: { smtpUrl: opts.smtpUrl, alertFrom: opts.alertFrom }, resolve: opts.resolve, now: () => clock.now() };
    return deliver(alert, channel, state.deliveryId, opts.timeoutMs === undefined ? deps : { ...deps, timeoutMs: opts.timeoutMs });
  }

  async function deliverEvent(row: MonitorEventRow): Promise<void> {
    const channels = readChannels(row.channels);
    const states = JSON.parse(row.deliveries) as DeliveryState[];
    const alert = await alertFor(row);
    const now = clock.now();
    const next = await Promise.all(
      states.map(async (state) => {
        const channel = channels[state.channelIndex];
        if (!isDue(state, now) || channel === undefined) return state;
        const result = await attempt(alert, channel, state);
        const after = applyAttemptResult(state, result, clock.now(), policy, Date.parse(row.created_at));
        opts.onAttempt?.(channel.type, after.status === 'pending' ? 'retrying' : after.status === 'delivered' ? 'delivered' : 'failed');
        return after;
      }),
    );
    // Lost the lease (we were too slow): the next holder repeats the attempt with the same delivery id.
    await store.monitorEvents.saveDeliveries(row.id, token, JSON.stringify(next), nextDeliveryAt(next));
  }

  return {
    /** One round: the events with a delivery due now, each attempted once. Returns how many events were handled. */
    async deliverDue(limit = 20): Promise<number> {
      const now = clock.now();
      const rows = await store.monitorEvents.claimDeliveries(isoAt(now), isoAt(now + leaseMs), token, limit);
      await Promise.all(rows.map((row) => deliverEvent(row)));
      return rows.length;
    },
  };
}

export type AlertDeliverer = ReturnType<typeof createAlertDeliverer>;
