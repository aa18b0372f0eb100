import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { renderDocsPage, type OpenApiDocument } from '../docs-page.js';

export function docsRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    let page: string | null = null;
    app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
    app.get('/docs', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
      // The document is fixed once the app is ready: render it once.
      page ??= renderDocsPage(app.swagger() as unknown as OpenApiDocument);
      return reply.type('text/html; charset=utf-8').send(page);
    });
  };
}
