// TEMPORARY stand-in: replaced by the real service at merge.
// The agreed interface of the monitors service (CONTRACT.md section 8), kept in memory so the pages and the CLI
// can be built and tested before the real service (store, scheduler, delivery) lands. It validates like the
// contract says, keeps each user's monitors apart, and never runs a check: runNow only records the request.
import { randomUUID } from 'node:crypto';
import type { ResolveMap } from '../../checker/address-policy.js';
import type { Clock } from '../../rate-limit/window.js';
import { parseChannels, publicChannel } from '../alerts/index.js';
import type { AlertEvent, Channel, MonitorState, PublicChannel } from '../alerts/types.js';
import type { CheckType } from '../check-view.js';
import { validateCheckUrl } from '../checks.js';
import { DomainError } from '../domain-error.js';

export interface MonitorView {
  id: string;
  url: string;
  checkType: CheckType;
  name: string | null;
  intervalMinutes: number;
  paused: boolean;
  state: MonitorState;
  createdAt: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  lastCheck: { slug: string; willTrack: boolean | null; healthScore: number | null; finalUrl: string | null; completedAt: string | null } | null;
  channels: PublicChannel[];
}

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
  clock: Clock;
  resolve: ResolveMap;
  smtpConfigured: boolean;
}

interface Stored {
  userId: string;
  view: MonitorView;
  channels: Channel[];
}

const DEFAULT_INTERVAL = 1440;

function interval(raw: unknown): number {
  if (raw === undefined) return DEFAULT_INTERVAL;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 15 || raw > 10080) {
    throw new DomainError('invalid_parameter', 'interval_minutes must be a whole number of minutes from 15 to 10080 (one week).');
  }
  return raw;
}

function cleanName(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length < 1 || name.length > 100 || /[\r\n]/.test(name)) throw new DomainError('invalid_parameter', 'name must be 1 to 100 characters on one line.');
  return name;
}

export function createMonitorsService(deps: MonitorsServiceDeps) {
  const monitors = new Map<string, Stored>();
  const iso = (ms: number) => new Date(ms).toISOString();

  function channelsOf(raw: unknown[] | undefined): Channel[] {
    if (raw === undefined) return [];
    const parsed = parseChannels(raw, { smtpConfigured: deps.smtpConfigured, resolve: deps.resolve });
    if (!parsed.ok) throw new DomainError(parsed.error.code, parsed.error.message);
    return parsed.channels;
  }

  function own(userId: string, id: string): Stored {
    const found = monitors.get(id);
    if (!found || found.userId !== userId) throw new DomainError('not_found', 'There is no monitor with this id.');
    return found;
  }

  return {
    async create(userId: string, input: CreateMonitorInput): Promise<MonitorView> {
      validateCheckUrl(input.url, deps.resolve);
      const url = String(input.url); // exactly as submitted
      const checkType = input.check_type ?? 'link';
      if (checkType !== 'link' && checkType !== 'cmp') throw new DomainError('invalid_parameter', 'check_type must be link or cmp.');
      const channels = channelsOf(input.channels);
      const now = deps.clock.now();
      const view: MonitorView = {
        id: randomUUID(),
        url,
        checkType,
        name: cleanName(input.name),
        intervalMinutes: interval(input.interval_minutes),
        paused: false,
        state: 'pending',
        createdAt: iso(now),
        lastRunAt: null,
        nextRunAt: iso(now),
        lastCheck: null,
        channels: channels.map(publicChannel),
      };
      monitors.set(view.id, { userId, view, channels });
      return { ...view };
    },

    async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: MonitorView[]; nextCursor: string | null }> {
      const mine = [...monitors.values()].filter((m) => m.userId === userId).map((m) => m.view).reverse();
      const start = cursor === undefined ? 0 : mine.findIndex((m) => m.id === cursor) + 1;
      if (cursor !== undefined && start === 0) throw new DomainError('invalid_parameter', 'cursor is not one this service handed out.');
      const data = mine.slice(start, start + limit);
      const more = start + limit < mine.length;
      return { data: data.map((m) => ({ ...m })), nextCursor: more ? (data.at(-1)?.id ?? null) : null };
    },

    async get(userId: string, id: string): Promise<MonitorView> {
      return { ...own(userId, id).view };
    },

    async update(userId: string, id: string, patch: UpdateMonitorInput): Promise<MonitorView> {
      const found = own(userId, id);
      const next = { ...found.view };
      if (patch.name !== undefined) next.name = cleanName(patch.name);
      if (patch.interval_minutes !== undefined) next.intervalMinutes = interval(patch.interval_minutes);
      if (patch.paused !== undefined) {
        if (typeof patch.paused !== 'boolean') throw new DomainError('invalid_parameter', 'paused must be true or false.');
        next.paused = patch.paused;
        next.nextRunAt = patch.paused ? null : iso(deps.clock.now());
      }
      let channels = found.channels;
      if (patch.channels !== undefined) {
        channels = channelsOf(patch.channels);
        next.channels = channels.map(publicChannel);
      }
      monitors.set(id, { userId, view: next, channels });
      return { ...next };
    },

    async remove(userId: string, id: string): Promise<{ id: string; deletedAt: string }> {
      own(userId, id);
      monitors.delete(id);
      return { id, deletedAt: iso(deps.clock.now()) };
    },

    async runNow(userId: string, id: string): Promise<MonitorView> {
      const found = own(userId, id);
      found.view.nextRunAt = iso(deps.clock.now());
      return { ...found.view };
    },

    async events(userId: string, id: string, _limit: number, _cursor: string | undefined): Promise<{ data: AlertEvent[]; nextCursor: string | null }> {
      own(userId, id);
      return { data: [], nextCursor: null };
    },
  };
}

export type MonitorsService = ReturnType<typeof createMonitorsService>;
