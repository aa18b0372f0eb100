// Monitor use cases (CONTRACT.md section 8): create, list, read, change, delete, run now, list events.
// Runs are queued here (the first at creation) and by the scheduler (src/jobs/monitor-scheduler.ts).
import { randomUUID } from 'node:crypto';
import type { ResolveMap } from '../../checker/net/address-policy.js';
import type { Store } from '../../store/index.js';
import { MonitorLimitReached, type MonitorRow } from '../../store/monitors-repo.js';
import type { Clock } from '../../rate-limit/window.js';
import type { AlertEvent } from '../alerts/types.js';
import type { CheckType } from '../check-view.js';
import { DomainError } from '../domain-error.js';
import { INITIAL_MEMORY } from './decide.js';
import { nextRunAt } from './schedule.js';
import { monitorRun, toEventView, toMonitorView, type MonitorView } from './views.js';
import { parseInterval, parseMonitorChannels, parseMonitorName, parseMonitorUrl } from './input.js';
import { isoAt } from '../../lib/iso-timestamp.js';
import { isUuid } from '../../lib/uuid.js';
import { readCursor, splitPage } from '../cursor.js';

export type { MonitorView } from './views.js';

export interface CreateMonitorInput {
  url: string;
  check_type?: CheckType;
  name?: string | null;
  interval_minutes?: number;
  channels?: unknown[];
}

export interface UpdateMonitorInput {
  name?: string | null;
  interval_minutes?: number;
  paused?: boolean;
  channels?: unknown[];
}

export interface MonitorsServiceDeps {
  store: Store;
  clock: Clock;
  resolve: ResolveMap;
  /** TRACKCHECK_SMTP_URL is set (email channels are accepted). */
  smtpConfigured: boolean;
  /** TRACKCHECK_MONITORS_PER_USER. */
  monitorsPerUser: number;
  /** Asks the local worker, if any, to look for work now. */
  poke(): void;
}

function page<R extends { created_at: string; id: string }, V>(
  rows: R[],
  limit: number,
  view: (row: R) => V,
): { data: V[]; nextCursor: string | null } {
  const { page: shown, nextCursor } = splitPage(rows, limit, (row) => row.id);
  return { data: shown.map(view), nextCursor };
}

export function createMonitorsService(deps: MonitorsServiceDeps) {
  const { store, clock } = deps;
  const rules = { resolve: deps.resolve, smtpConfigured: deps.smtpConfigured };

  /** The monitor if it exists and belongs to the user; another user's is indistinguishable from none. */
  async function owned(userId: string, id: string): Promise<MonitorRow> {
    const row = isUuid(id) ? await store.monitors.get(id) : undefined;
    if (!row || row.user_id !== userId) throw new DomainError('not_found', 'No monitor with this id.');
    return row;
  }

  return {
    async create(userId: string, input: CreateMonitorInput): Promise<MonitorView> {
      const url = parseMonitorUrl(input.url, rules);
      const name = parseMonitorName(input.name);
      const interval = parseInterval(input.interval_minutes);
      const channels = parseMonitorChannels(input.channels, rules);
      const now = clock.now();
      const id = randomUUID();
      const row: MonitorRow = {
        id,
        user_id: userId,
        url,
        check_type: input.check_type ?? 'link',
        name,
        interval_minutes: interval,
        paused: 0,
        channels: JSON.stringify(channels),
        state: INITIAL_MEMORY.state,
        memory: JSON.stringify(INITIAL_MEMORY),
        created_at: isoAt(now),
        // The first run is queued with the monitor; the next falls on the monitor's phase.
        last_run_at: isoAt(now),
        due_at: isoAt(nextRunAt(id, interval, now)),
        deleted_at: null,
      };
      try {
        await store.monitors.create(row, monitorRun(row, row.created_at), deps.monitorsPerUser);
      } catch (err) {
        if (!(err instanceof MonitorLimitReached)) throw err;
        throw new DomainError(
          'too_many_monitors',
          `You already have ${deps.monitorsPerUser} monitors, the most allowed; delete one before adding another.`,
        );
      }
      deps.poke();
      return toMonitorView(row);
    },

    async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: MonitorView[]; nextCursor: string | null }> {
      const rows = await store.monitors.listByUser(userId, limit + 1, readCursor(cursor));
      return page(rows, limit, toMonitorView);
    },

    async get(userId: string, id: string): Promise<MonitorView> {
      return toMonitorView(await owned(userId, id));
    },

    async update(userId: string, id: string, patch: UpdateMonitorInput): Promise<MonitorView> {
      const row = await owned(userId, id);
      const fields: Parameters<Store['monitors']['update']>[1] = {};
      if (patch.name !== undefined) fields.name = parseMonitorName(patch.name);
      if (patch.channels !== undefined) fields.channels = JSON.stringify(parseMonitorChannels(patch.channels, rules));
      if (patch.interval_minutes !== undefined) fields.interval_minutes = parseInterval(patch.interval_minutes);
      if (patch.paused !== undefined) fields.paused = patch.paused ? 1 : 0;
      const interval = fields.interval_minutes ?? row.interval_minutes;
      const paused = (fields.paused ?? row.paused) === 1;
      const rescheduled = interval !== row.interval_minutes || paused !== (row.paused === 1);
      // Paused: never due. Resumed or a new interval: the next slot of the (new) phase, counted from now.
      if (rescheduled) fields.due_at = paused ? null : isoAt(nextRunAt(row.id, interval, clock.now()));
      if (Object.keys(fields).length > 0) await store.monitors.update(row.id, fields);
      return toMonitorView({ ...row, ...fields });
    },

    async remove(userId: string, id: string): Promise<{ id: string; deletedAt: string }> {
      const row = await owned(userId, id);
      const deletedAt = isoAt(clock.now());
      if (!(await store.monitors.remove(row.id, deletedAt))) throw new DomainError('not_found', 'No monitor with this id.');
      return { id: row.id, deletedAt };
    },

    /** Queues a run now (none if one is already queued and not evaluated); the schedule is unchanged. */
    async runNow(userId: string, id: string): Promise<MonitorView> {
      const row = await owned(userId, id);
      const now = isoAt(clock.now());
      if (!(await store.monitors.queueRunNow(row.id, monitorRun(row, now)))) return toMonitorView(row);
      deps.poke();
      return toMonitorView({ ...row, last_run_at: now });
    },

    async events(
      userId: string,
      id: string,
      limit: number,
      cursor: string | undefined,
    ): Promise<{ data: AlertEvent[]; nextCursor: string | null }> {
      const row = await owned(userId, id);
      const rows = await store.monitorEvents.list(row.id, limit + 1, readCursor(cursor));
      return page(rows, limit, toEventView);
    },
  };
}

export type MonitorsService = ReturnType<typeof createMonitorsService>;
