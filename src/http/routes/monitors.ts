import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, response } from '../../contract/common.js';
import {
  CreateMonitorBody,
  DeletedMonitorResponse,
  ListQuery,
  MonitorEventListResponse,
  MonitorIdParams,
  MonitorListResponse,
  MonitorResponse,
  UpdateMonitorBody,
} from '../../contract/monitor.js';
import { userOf } from '../auth.js';
import type { MonitorsService } from '../../services/monitors/index.js';

const security = [{ bearer: [] }];
const tags = ['Monitors'];
const config = { auth: 'user' as const, rateLimited: true };

/** CONTRACT.md section 8. Monitor runs are queued by the scheduler, not by requests: no rate limit or weekly cap applies to them. */
export function monitorsRoutes(monitors: MonitorsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/monitors', {
      config,
      schema: {
        tags,
        operationId: 'createMonitor',
        summary: 'Re-check a link on a schedule and alert when the answer changes; the first run is queued at once',
        description:
          'At most TRACKCHECK_MONITORS_PER_USER monitors per user (409 too_many_monitors). camelCase spellings (checkType, intervalMinutes) are accepted.',
        security,
        body: CreateMonitorBody,
        response: { 201: response(MonitorResponse, 'Created; its first run is queued'), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
      handler: async (request, reply) => reply.status(201).send({ data: await monitors.create(userOf(request).userId, request.body) }),
    });

    app.get('/v1/monitors', {
      config,
      schema: {
        tags,
        operationId: 'listMonitors',
        summary: "The caller's monitors, newest first, with cursor pagination",
        security,
        querystring: ListQuery,
        response: {
          200: response(MonitorListResponse, 'A page of monitors; pass nextCursor as cursor for the next one (null: last page)'),
          ...errorResponses(400, 401, 429),
        },
      },
      handler: async (request) => monitors.list(userOf(request).userId, request.query.limit ?? 20, request.query.cursor),
    });

    app.get('/v1/monitors/:id', {
      config,
      schema: {
        tags,
        operationId: 'getMonitor',
        summary: 'A monitor with its state and latest run (owner only)',
        security,
        params: MonitorIdParams,
        response: { 200: response(MonitorResponse, 'The monitor'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request) => ({ data: await monitors.get(userOf(request).userId, request.params.id) }),
    });

    app.patch('/v1/monitors/:id', {
      config,
      schema: {
        tags,
        operationId: 'updateMonitor',
        summary: 'Change a monitor’s name, interval, channels or pause it (owner only)',
        description: 'A new interval or resuming schedules the next run on the new interval; pausing clears nextRunAt.',
        security,
        params: MonitorIdParams,
        body: UpdateMonitorBody,
        response: { 200: response(MonitorResponse, 'The monitor as changed'), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
      handler: async (request) => ({ data: await monitors.update(userOf(request).userId, request.params.id, request.body) }),
    });

    app.delete('/v1/monitors/:id', {
      config,
      schema: {
        tags,
        operationId: 'deleteMonitor',
        summary: 'Delete a monitor; its checks stay readable by slug (owner only)',
        security,
        params: MonitorIdParams,
        response: { 200: response(DeletedMonitorResponse, 'Deleted'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request) => ({ data: await monitors.remove(userOf(request).userId, request.params.id) }),
    });

    app.post('/v1/monitors/:id/run', {
      config,
      schema: {
        tags,
        operationId: 'runMonitor',
        summary: 'Queue a run now (owner only); the schedule is unchanged',
        description: 'A run already queued and not yet evaluated is not doubled.',
        security,
        params: MonitorIdParams,
        response: { 202: response(MonitorResponse, 'Accepted: a run is queued'), ...errorResponses(401, 404, 429) },
      },
      handler: async (request, reply) => reply.status(202).send({ data: await monitors.runNow(userOf(request).userId, request.params.id) }),
    });

    app.get('/v1/monitors/:id/events', {
      config,
      schema: {
        tags,
        operationId: 'listMonitorEvents',
        summary: 'A monitor’s events (broken, recovered, changed) with their deliveries, newest first (owner only)',
        security,
        params: MonitorIdParams,
        querystring: ListQuery,
        response: {
          200: response(MonitorEventListResponse, 'A page of events; pass nextCursor as cursor for the next one'),
          ...errorResponses(400, 401, 404, 429),
        },
      },
      handler: async (request) =>
        monitors.events(userOf(request).userId, request.params.id, request.query.limit ?? 20, request.query.cursor),
    });
  };
}
