// /monitors: list and create monitors (also the report page's "Monitor this link" button), and /monitors/<id>: one
// monitor with its history, run now, pause or resume, settings, channels, delete. Refused input comes back as the
// form with the service's reason in words and what was typed kept; another user's monitor is a 404 page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toApiError } from '../http/errors.js';
import { DomainError } from '../services/domain-error.js';
import type { MonitorsService } from '../services/monitors/index.js';
import type { PageContext } from './format.js';
import type { WebForm } from './forms.js';
import { sendPage } from './layout.js';
import { channelsOf, checkTypeOf, formValues, intervalOf, type MonitorFormValues } from './monitor-form.js';
import { renderDeleteMonitorPage, renderMonitorPage, type MonitorPageState } from './monitor-page.js';
import { renderMonitorsPage } from './monitors-page.js';
import type { WebSession } from './session.js';

export interface MonitorRoutesDeps {
  monitors: MonitorsService;
  pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext;
}

const MONITORS_PER_PAGE = 20;
const EVENTS_PER_PAGE = 20;

const NOTICES: Record<string, string> = {
  run: 'A run is queued; its result shows here when it finishes.',
  paused: 'Paused: the link is not checked until you resume the monitor.',
  resumed: 'Resumed: the next run is scheduled.',
  saved: 'Saved.',
  deleted: 'The monitor was deleted. Its reports stay readable at their links.',
};

const signedIn = { config: { auth: 'none' as const, signInRequired: true }, schema: { hide: true } };
type IdRoute = { Params: { id: string }; Querystring: { cursor?: string; notice?: string } };

function sessionOf(request: FastifyRequest): WebSession {
  if (!request.webSession) throw new Error('signed-in route reached without a session'); // the guard redirects first
  return request.webSession;
}

const cursorOf = (raw: unknown) => (typeof raw === 'string' && raw !== '' ? raw : undefined);
const noticeOf = (raw: unknown) => (typeof raw === 'string' ? NOTICES[raw] : undefined);

/** The service speaks of `channels[1].url`; the form's visitor typed into fields named after the channel's kind. */
function inFormTerms(message: string, channels: unknown[]): string {
  return message.replace(/channels\[(\d+)\](\.\w+)?:?\s*/g, (_m, i: string) => {
    const type = (channels[Number(i)] as { type?: string } | undefined)?.type;
    return type === 'webhook' ? 'Webhook: ' : type === 'slack' ? 'Slack: ' : type === 'email' ? 'Email: ' : '';
  });
}

/** A refusal the visitor can fix (bad input, the monitor limit): its status, else null (rethrow). */
function refusal(err: unknown): number | null {
  return err instanceof DomainError && err.code !== 'not_found' ? toApiError(err).status : null;
}

export function monitorRoutes(deps: MonitorRoutesDeps) {
  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { error?: string; form?: MonitorFormValues; notice?: string },
    cursor?: string,
  ) {
    const page = await deps.monitors.list(sessionOf(request).userId, MONITORS_PER_PAGE, cursor);
    const state = { ...extra, monitors: page.data, nextCursor: page.nextCursor, paged: cursor !== undefined };
    return sendPage(reply, status, renderMonitorsPage(deps.pageContext(request, reply, '/monitors'), state));
  }

  async function monitorPage(
    request: FastifyRequest<IdRoute>,
    reply: FastifyReply,
    status: number,
    extra: Pick<MonitorPageState, 'error' | 'form'> = {},
  ) {
    const userId = sessionOf(request).userId;
    const monitor = await deps.monitors.get(userId, request.params.id);
    const cursor = cursorOf(request.query.cursor);
    const events = await deps.monitors.events(userId, monitor.id, EVENTS_PER_PAGE, cursor);
    const state: MonitorPageState = {
      monitor,
      events: events.data,
      nextCursor: events.nextCursor,
      paged: cursor !== undefined,
      notice: noticeOf(request.query.notice),
      form: extra.form,
      error: extra.error,
    };
    return sendPage(reply, status, renderMonitorPage(deps.pageContext(request, reply, '/monitors'), state));
  }

  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { cursor?: string; notice?: string } }>('/monitors', signedIn, async (request, reply) =>
      listPage(request, reply, 200, { notice: noticeOf(request.query.notice) }, cursorOf(request.query.cursor)),
    );

    app.post('/monitors', signedIn, async (request, reply) => {
      const form = request.body as WebForm;
      const channels = channelsOf(form);
      try {
        const name = (form.fields.name ?? '').trim();
        const interval = intervalOf(form);
        const monitor = await deps.monitors.create(sessionOf(request).userId, {
          url: (form.fields.url ?? '').trim(),
          check_type: checkTypeOf(form),
          name: name === '' ? null : name,
          ...(interval === undefined ? {} : { interval_minutes: interval }),
          channels,
        });
        return await reply.redirect(`/monitors/${encodeURIComponent(monitor.id)}`, 303);
      } catch (err) {
        const status = refusal(err);
        if (status === null) throw err;
        return listPage(request, reply, status, { error: inFormTerms((err as Error).message, channels), form: formValues(form) });
      }
    });

    app.get<IdRoute>('/monitors/:id', signedIn, async (request, reply) => monitorPage(request, reply, 200));

    app.get<IdRoute>('/monitors/:id/delete', signedIn, async (request, reply) => {
      const monitor = await deps.monitors.get(sessionOf(request).userId, request.params.id);
      return sendPage(reply, 200, renderDeleteMonitorPage(deps.pageContext(request, reply, '/monitors'), monitor));
    });

    app.post<IdRoute>('/monitors/:id/delete', signedIn, async (request, reply) => {
      await deps.monitors.remove(sessionOf(request).userId, request.params.id);
      return reply.redirect('/monitors?notice=deleted', 303);
    });

    const back = (request: FastifyRequest<IdRoute>, notice: string) =>
      `/monitors/${encodeURIComponent(request.params.id)}?notice=${notice}`;

    app.post<IdRoute>('/monitors/:id/run', signedIn, async (request, reply) => {
      await deps.monitors.runNow(sessionOf(request).userId, request.params.id);
      return reply.redirect(back(request, 'run'), 303);
    });

    for (const [action, paused] of [
      ['pause', true],
      ['resume', false],
    ] as const) {
      app.post<IdRoute>(`/monitors/:id/${action}`, signedIn, async (request, reply) => {
        await deps.monitors.update(sessionOf(request).userId, request.params.id, { paused });
        return reply.redirect(back(request, paused ? 'paused' : 'resumed'), 303);
      });
    }

    app.post<IdRoute>('/monitors/:id/settings', signedIn, async (request, reply) => {
      const form = request.body as WebForm;
      const name = (form.fields.name ?? '').trim();
      try {
        await deps.monitors.update(sessionOf(request).userId, request.params.id, {
          name: name === '' ? null : name,
          interval_minutes: intervalOf(form),
        });
        return await reply.redirect(back(request, 'saved'), 303);
      } catch (err) {
        const status = refusal(err);
        if (status === null) throw err;
        const { name: typed, interval } = formValues(form);
        return monitorPage(request, reply, status, {
          error: { form: 'settings', message: (err as Error).message },
          form: { name: typed, interval },
        });
      }
    });

    app.post<IdRoute>('/monitors/:id/channels', signedIn, async (request, reply) => {
      const form = request.body as WebForm;
      const channels = channelsOf(form);
      try {
        await deps.monitors.update(sessionOf(request).userId, request.params.id, { channels });
        return await reply.redirect(back(request, 'saved'), 303);
      } catch (err) {
        const status = refusal(err);
        if (status === null) throw err;
        const { webhook, slack, email } = formValues(form);
        return monitorPage(request, reply, status, {
          error: { form: 'channels', message: inFormTerms((err as Error).message, channels) },
          form: { webhook, slack, email },
        });
      }
    });
  };
}
