// /batches: submit a list of links (pasted, or a .csv/.txt upload), follow a batch's progress, download its results.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildResultsCsv } from '../services/batch-csv.js';
import { MAX_BATCH_URLS, MAX_UNFINISHED_BATCHES, type BatchesService, type CreateBatchInput } from '../services/batches.js';
import { toCheckView } from '../services/check-view.js';
import { DomainError } from '../services/domain-error.js';
import { LinkListError, parseLinkList, withLineNumbers, type LinkList } from './batch-input.js';
import { renderBatchPage, renderBatchesPage, type BatchesPageState } from './batch-page.js';
import type { PageContext } from './format.js';
import { fileText, type WebForm } from './forms.js';
import { sendPage } from './layout.js';
import type { WebSession } from './session.js';

export interface BatchRoutesDeps {
  batches: BatchesService;
  pageContext(request: FastifyRequest, reply: FastifyReply, current?: string): PageContext;
}

/** 500 long links in a spreadsheet export with a few other columns. */
export const BATCH_UPLOAD_LIMIT = 4 * 1024 * 1024;
const BATCHES_PER_PAGE = 20;

const signedIn = { config: { auth: 'none' as const, signInRequired: true }, schema: { hide: true } };

function sessionOf(request: FastifyRequest): WebSession {
  // The guard hook refuses these routes without a session before the handler runs.
  if (!request.webSession) throw new Error('signed-in route reached without a session');
  return request.webSession;
}

/** The pasted links, else the uploaded file's; with where they came from, for messages. */
function linksOf(form: WebForm): { list: LinkList; source: string } {
  const pasted = form.fields.links ?? '';
  const file = form.files.file;
  if (pasted.trim() !== '' && file && file.content.length > 0) {
    throw new LinkListError('Paste links or upload a file, not both.');
  }
  if (file && file.content.length > 0) {
    const csv = /\.csv$/i.test(file.filename);
    return { list: parseLinkList(fileText(file), { csv }), source: file.filename ? `${file.filename}` : 'file' };
  }
  return { list: parseLinkList(pasted), source: 'list' };
}

export function batchRoutes(deps: BatchRoutesDeps) {
  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: Pick<BatchesPageState, 'error' | 'form'> = {},
    cursor?: string,
  ) {
    const page = await deps.batches.list(sessionOf(request).userId, BATCHES_PER_PAGE, cursor);
    const state: BatchesPageState = {
      ...extra,
      batches: page.data,
      nextCursor: page.nextCursor,
      paged: cursor !== undefined,
      maxUrls: MAX_BATCH_URLS,
      maxUnfinished: MAX_UNFINISHED_BATCHES,
    };
    return sendPage(reply, status, renderBatchesPage(deps.pageContext(request, reply, '/batches'), state));
  }

  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { cursor?: string } }>('/batches', signedIn, async (request, reply) => {
      const cursor = typeof request.query.cursor === 'string' && request.query.cursor !== '' ? request.query.cursor : undefined;
      return listPage(request, reply, 200, {}, cursor);
    });

    app.post('/batches', { ...signedIn, bodyLimit: BATCH_UPLOAD_LIMIT }, async (request, reply) => {
      const form = request.body as WebForm;
      const checkType = form.fields.check_type === 'cmp' ? 'cmp' : 'link';
      const name = (form.fields.name ?? '').trim();
      const refill = { links: (form.fields.links ?? '').slice(0, 200_000), checkType, name: name.slice(0, 1000) };
      let parsed: { list: LinkList; source: string } | undefined;
      try {
        parsed = linksOf(form);
        const { urls, columns, values } = parsed.list;
        const input: CreateBatchInput = {
          urls,
          check_type: checkType,
          name: name === '' ? null : name,
          ...(columns.length > 0 ? { columns, values } : {}),
        };
        const batch = await deps.batches.create(sessionOf(request).userId, input);
        return await reply.redirect(`/batches/${encodeURIComponent(batch.id)}`, 303);
      } catch (err) {
        if (err instanceof LinkListError) return listPage(request, reply, 400, { error: err.message, form: refill });
        if (!(err instanceof DomainError)) throw err;
        const message = parsed ? withLineNumbers(err.message, parsed.list, parsed.source) : err.message;
        return listPage(request, reply, err.code === 'too_many_batches' ? 409 : 400, { error: message, form: refill });
      }
    });

    app.get<{ Params: { id: string } }>('/batches/:id', signedIn, async (request, reply) => {
      const { batch, checks } = await deps.batches.results(sessionOf(request).userId, request.params.id);
      const state = {
        id: batch.id,
        name: batch.name,
        status: batch.status,
        checkType: batch.checkType,
        createdAt: batch.createdAt,
        completedAt: batch.completedAt,
        summary: batch.summary,
        checks: checks.map(toCheckView),
      };
      return sendPage(reply, 200, renderBatchPage(deps.pageContext(request, reply, '/batches'), state));
    });

    app.get<{ Params: { id: string } }>('/batches/:id/results.csv', signedIn, async (request, reply) => {
      const { batch, checks, inputColumns } = await deps.batches.results(sessionOf(request).userId, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="batch-${batch.id}-results.csv"`)
        .header('cache-control', 'no-store')
        .send(buildResultsCsv(checks, inputColumns));
    });
  };
}
