// Stored monitor and event rows → what the API shows (CONTRACT.md section 8), and a monitor's queued run.
import type { Static } from '@sinclair/typebox';
import type { Monitor } from '../../contract/monitor.js';
import { deliveryView, publicChannel } from '../alerts/index.js';
import type { AlertChange, AlertEvent, AlertEventType, Channel, DeliveryState, MonitorState } from '../alerts/types.js';
import type { CheckType } from '../check-view.js';
import { newSlug } from '../../lib/ids.js';
import { userJobRequester } from '../../auth/principal.js';
import type { MonitorRow } from '../../store/monitors-repo.js';
import type { MonitorEventRow } from '../../store/monitor-events-repo.js';
import type { QueuedCheck } from '../../store/check-queue.js';
import type { MonitorMemory } from './decide.js';

/** Monitor runs queue with batch links, behind interactive single checks (priority 0), in due-time order. */
export const MONITOR_PRIORITY = 1;

/** The monitor as the API shows it: the contract's schema is its one declaration. */
export type MonitorView = Static<typeof Monitor>;

export const readChannels = (json: string): Channel[] => JSON.parse(json) as Channel[];
export const readMemory = (json: string): MonitorMemory => JSON.parse(json) as MonitorMemory;

export function toMonitorView(row: MonitorRow): MonitorView {
  const last = readMemory(row.memory).last;
  return {
    id: row.id,
    url: row.url,
    checkType: row.check_type as CheckType,
    name: row.name,
    intervalMinutes: row.interval_minutes,
    paused: row.paused === 1,
    state: row.state as MonitorState,
    createdAt: row.created_at,
    lastRunAt: row.last_run_at,
    nextRunAt: row.due_at,
    lastCheck: last
      ? {
          slug: last.slug,
          willTrack: last.willTrack,
          healthScore: last.healthScore,
          finalUrl: last.finalUrl,
          completedAt: last.completedAt,
        }
      : null,
    channels: readChannels(row.channels).map(publicChannel),
  };
}

export function toEventView(row: MonitorEventRow): AlertEvent {
  const channels = readChannels(row.channels);
  return {
    id: row.id,
    monitorId: row.monitor_id,
    type: row.type as AlertEventType,
    createdAt: row.created_at,
    checkSlug: row.check_slug,
    previousCheckSlug: row.previous_check_slug,
    changes: JSON.parse(row.changes) as AlertChange[],
    deliveries: (JSON.parse(row.deliveries) as DeliveryState[]).map((s) => deliveryView(s, channels)),
  };
}

/** A run of the monitor: an ordinary check of its URL (a report at /r/<slug>) for its owner, tagged with it. */
export function monitorRun(row: Pick<MonitorRow, 'id' | 'user_id' | 'url' | 'check_type'>, createdAt: string): QueuedCheck {
  return {
    check: {
      slug: newSlug(),
      user_id: row.user_id,
      batch_id: null,
      monitor_id: row.id,
      url: row.url,
      check_type: row.check_type,
      status: 'queued',
      created_at: createdAt,
      started_at: null,
      completed_at: null,
      result: null,
      error_code: null,
      error_message: null,
    },
    host: new URL(row.url).hostname,
    requester: userJobRequester(row.user_id),
    priority: MONITOR_PRIORITY,
  };
}
