import { Type } from '@sinclair/typebox';
import { Data, Nullable } from './common.js';

/** How often a monitor runs, in minutes (services/monitors/input.ts checks it). */
export const MIN_INTERVAL_MINUTES = 15;
export const MAX_INTERVAL_MINUTES = 10_080;
export const DEFAULT_INTERVAL_MINUTES = 1440;

const checkType = Type.Union([Type.Literal('link'), Type.Literal('cmp')]);
const state = Type.Union([Type.Literal('pending'), Type.Literal('healthy'), Type.Literal('broken'), Type.Literal('unknown')], {
  description:
    'pending: no run yet; healthy: willTrack true; broken: willTrack false (not a bot wall); unknown: could_not_verify or a failed check',
});

export const PublicChannel = Type.Union(
  [
    Type.Object({ type: Type.Literal('webhook'), url: Type.String(), hasSecret: Type.Boolean() }),
    Type.Object({ type: Type.Literal('slack'), url: Type.String(), hasSecret: Type.Boolean() }),
    Type.Object({ type: Type.Literal('email'), to: Type.String(), hasSecret: Type.Boolean() }),
  ],
  { description: 'A channel as responses show it: never its secret, only hasSecret' },
);

export const Monitor = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'The link, exactly as submitted' }),
    checkType,
    name: Nullable(Type.String()),
    intervalMinutes: Type.Integer(),
    paused: Type.Boolean(),
    state,
    createdAt: Type.String({ format: 'date-time' }),
    lastRunAt: Nullable(Type.String({ format: 'date-time', description: 'When the latest run was queued' })),
    nextRunAt: Nullable(Type.String({ format: 'date-time', description: 'When the next run is due; null while paused' })),
    lastCheck: Nullable(
      Type.Object(
        {
          slug: Type.String({ description: 'GET /v1/checks/{slug} or /r/{slug} for the full report' }),
          willTrack: Nullable(Type.Boolean()),
          healthScore: Nullable(Type.Integer()),
          finalUrl: Nullable(Type.String()),
          completedAt: Nullable(Type.String({ format: 'date-time' })),
        },
        { description: 'The latest evaluated run; null before the first' },
      ),
    ),
    channels: Type.Array(PublicChannel),
  },
  { $id: 'Monitor', title: 'Monitor' },
);

export const MonitorEvent = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    monitorId: Type.String({ format: 'uuid' }),
    type: Type.Union([Type.Literal('monitor.broken'), Type.Literal('monitor.recovered'), Type.Literal('monitor.changed')]),
    createdAt: Type.String({ format: 'date-time' }),
    checkSlug: Type.String(),
    previousCheckSlug: Nullable(Type.String()),
    changes: Type.Array(Type.Object({ field: Type.String(), from: Type.Unknown(), to: Type.Unknown() })),
    deliveries: Type.Array(
      Type.Object({
        channel: PublicChannel,
        status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
        attempts: Type.Integer(),
        lastError: Nullable(Type.String()),
      }),
      { description: 'One per channel the monitor had when the event was raised' },
    ),
  },
  { $id: 'MonitorEvent', title: 'MonitorEvent' },
);

/** Channels are validated by the service (services/alerts/channel.ts), which names the offending entry. */
const channels = Type.Array(Type.Unknown(), {
  description:
    '0–5 of {type:"webhook", url, secret?}, {type:"slack", url}, {type:"email", to}. A non-http(s) URL or a literal private ' +
    'or loopback address: 400 url_not_allowed; email without TRACKCHECK_SMTP_URL on the server: 400 invalid_parameter',
});
const name = Nullable(Type.String({ description: '1–100 characters once trimmed; null: none' }));
const intervalMinutes = Type.Integer({
  description: `${MIN_INTERVAL_MINUTES}–${MAX_INTERVAL_MINUTES} (one week); default ${DEFAULT_INTERVAL_MINUTES} (a day)`,
});

export const CreateMonitorBody = Type.Object(
  {
    url: Type.String({ description: 'The link to re-check (the same rules as POST /v1/checks)' }),
    check_type: Type.Optional(checkType),
    name: Type.Optional(name),
    interval_minutes: Type.Optional(intervalMinutes),
    channels: Type.Optional(channels),
  },
  { additionalProperties: false },
);

export const UpdateMonitorBody = Type.Object(
  {
    name: Type.Optional(name),
    interval_minutes: Type.Optional(intervalMinutes),
    paused: Type.Optional(Type.Boolean()),
    channels: Type.Optional(channels),
  },
  { additionalProperties: false },
);

export const MonitorIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const MonitorResponse = Data(Monitor);
export const MonitorListResponse = Type.Object({ data: Type.Array(Monitor), nextCursor: Nullable(Type.String()) });
export const MonitorEventListResponse = Type.Object({ data: Type.Array(MonitorEvent), nextCursor: Nullable(Type.String()) });
export const DeletedMonitorResponse = Data(
  Type.Object({ id: Type.String({ format: 'uuid' }), deletedAt: Type.String({ format: 'date-time' }) }),
);
