// /settings/keys: list, create and revoke API keys from the browser (the contract's "settings page").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeysService } from '../services/keys.js';
import { DomainError } from '../services/domain-error.js';
import { parseIsoDate } from '../lib/iso-timestamp.js';
import type { Clock } from '../rate-limit/window.js';
import { notFound } from '../http/errors.js';
import type { PageContext } from './format.js';
import type { WebForm } from './forms.js';
import { sendPage } from './layout.js';
import { renderKeysPage, renderRevokePage, type KeysPageState } from './settings-page.js';
import type { WebSession } from './session.js';

export interface SettingsRoutesDeps {
  keys: KeysService;
  clock: Clock;
  publicUrl(): string;
  pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext;
}

const signedIn = { config: { auth: 'none' as const, signInRequired: true }, schema: { hide: true } };

const NOTICES: Record<string, string> = {
  revoked: 'The key was revoked. Requests with it are refused from now on.',
};

function sessionOf(request: FastifyRequest): WebSession {
  // The guard hook refuses these routes without a session before the handler runs.
  if (!request.webSession) throw new Error('signed-in route reached without a session');
  return request.webSession;
}

/** A date from the form (yyyy-mm-dd) as the key's expiry: 00:00 UTC that day. */
function expiryOf(raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  if (parseIsoDate(value) === null) {
    throw new DomainError('invalid_parameter', 'Enter the expiry as a date that exists (YYYY-MM-DD), or leave it empty.');
  }
  return `${value}T00:00:00Z`;
}

export function settingsRoutes(deps: SettingsRoutesDeps) {
  async function keysPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: Omit<KeysPageState, 'keys' | 'now' | 'publicUrl'>,
  ) {
    const session = sessionOf(request);
    const state = { ...extra, keys: await deps.keys.list(session.userId), now: deps.clock.now(), publicUrl: deps.publicUrl() };
    return sendPage(reply, status, renderKeysPage(deps.pageContext(request, reply, '/settings/keys'), state));
  }

  async function ownKey(request: FastifyRequest, id: string) {
    const key = (await deps.keys.list(sessionOf(request).userId)).find((k) => k.id === id.toLowerCase());
    if (!key) throw notFound('There is no such key among your active keys. It may have been revoked already.');
    return key;
  }

  return async (app: FastifyInstance) => {
    app.get('/settings', signedIn, async (_request, reply) => reply.redirect('/settings/keys', 303));

    app.get<{ Querystring: { notice?: string } }>('/settings/keys', signedIn, async (request, reply) =>
      keysPage(request, reply, 200, { notice: NOTICES[request.query.notice ?? ''] }),
    );

    app.post('/settings/keys', signedIn, async (request, reply) => {
      const { fields } = request.body as WebForm;
      const form = { name: fields.name ?? '', expires: fields.expires ?? '' };
      const name = form.name.trim();
      try {
        if (name === '' || name.length > 100) throw new DomainError('invalid_parameter', 'Give the key a name of 1 to 100 characters.');
        const created = await deps.keys.create(sessionOf(request).userId, { name, expiresAt: expiryOf(form.expires) });
        request.log.info({ keyId: created.id }, 'API key created in the web app');
        return await keysPage(request, reply, 201, { created });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const message = /expiresAt must be in the future/.test(err.message) ? 'The expiry date must be in the future.' : err.message;
        return keysPage(request, reply, 400, { error: message, form });
      }
    });

    app.get<{ Params: { id: string } }>('/settings/keys/:id/revoke', signedIn, async (request, reply) => {
      const key = await ownKey(request, request.params.id);
      return sendPage(reply, 200, renderRevokePage(deps.pageContext(request, reply, '/settings/keys'), key));
    });

    app.post<{ Params: { id: string } }>('/settings/keys/:id/revoke', signedIn, async (request, reply) => {
      try {
        await deps.keys.revoke(sessionOf(request).userId, request.params.id, null);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'not_found') {
          throw notFound('There is no such key among your active keys. It may have been revoked already.');
        }
        throw err;
      }
      request.log.info({ keyId: request.params.id }, 'API key revoked in the web app');
      return reply.redirect('/settings/keys?notice=revoked', 303);
    });
  };
}
