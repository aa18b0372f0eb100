// buildApp: the Fastify instance with every plugin, hook and route. Never listens (see server.ts).
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.js';
import { ErrorEnvelope } from './contract/common.js';
import { Check, Report } from './contract/check.js';
import { installErrorHandling } from './http/errors.js';
import { answerClientError, answerFrameworkError } from './http/framework-errors.js';
import { newRequestId } from './http/request-id.js';
import { installSecurityHeaders, SECURITY_HEADERS } from './http/security-headers.js';
import { compileValidator } from './http/validation.js';
import { enforceRequirement } from './http/auth.js';
import { resolvePrincipal, type Principal } from './http/principal.js';
import { applyRateLimit } from './http/rate-limit.js';
import { refuseNulCharacters } from './http/nul-guard.js';
import { clientIp, clientSubject, fastifyTrustProxy } from './http/client-address.js';
import { trackRouteMethods } from './http/method-not-allowed.js';
import { registerOpenApi } from './http/openapi/register.js';
import { keysRoutes } from './http/routes/keys.js';
import { healthRoutes } from './http/routes/health.js';
import { checksRoutes } from './http/routes/checks.js';
import { createChecksService, withMaxWait } from './services/checks.js';
import { docsRoutes } from './http/routes/docs.js';
import { reportsRoutes } from './http/routes/reports.js';
import { createReportsService } from './services/reports.js';
import { webRoutes } from './web/routes.js';
import { COPY_SCRIPT } from './web/layout.js';
import { STYLES } from './web/styles.js';
import { DOCS_STYLES } from './http/docs-page.js';
import { withMaskedUrls } from './http/log-redaction.js';
import { batchedStdout, OneLineRequestLog } from './http/request-log.js';
import { installRequestMetrics, metricsRoutes } from './http/routes/metrics.js';
import { createKeysService } from './services/keys.js';
import { createApiKeyVerifier } from './services/api-key-verifier.js';
import { VERSION } from './lib/version.js';

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
}

export const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.key', '*.token'];

/** Every inline stylesheet and script of the HTML answers (pages, error pages, /docs): the Content-Security-Policy
 * allows exactly these, by hash. A new inline asset goes here or it will not run. */
export const HTML_INLINE_ASSETS = { styles: [STYLES, DOCS_STYLES], scripts: [COPY_SCRIPT] } as const;

export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // One-time sign-in links carry a token in the query string: never written to the log.
    logger: withMaskedUrls(opts.logger ?? { level: ctx.config.logLevel, redact: REDACTED_LOG_PATHS, stream: batchedStdout() }),
    genReqId: newRequestId,
    requestIdHeader: false,
    logController: new OneLineRequestLog(),
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Requests that arrive while the server drains are served as usual (with Connection: close), through the hooks
    // and the envelope: the database closes only after the last of them. Fastify's 503 would skip both.
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Only JSON bodies are accepted by the API; plain text is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.addSchema(ErrorEnvelope);
  app.addSchema(Check);
  app.addSchema(Report);
  app.setValidatorCompiler(compileValidator);
  await registerOpenApi(app, { version: VERSION, publicUrl: () => ctx.config.publicUrl });

  installErrorHandling(app);
  installSecurityHeaders(app, HTML_INLINE_ASSETS);
  installRequestMetrics(app, ctx.metrics);
  const principalDeps = { apiKeys: createApiKeyVerifier(ctx.store.keys, ctx.clock), sessions: ctx.sessions };
  const limits = { limiter: ctx.limiter, userLimit: ctx.config.rateLimit, anonymousLimit: ctx.config.anonRateLimit };
  // Declared up front so every request object keeps one shape; the onRequest hook always sets it.
  app.decorateRequest('principal', null as unknown as { getter(): Principal });
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
    const config = request.routeOptions.config;
    const requirement = config.auth ?? 'none';
    request.clientIp = clientIp(request);
    let principal: Principal = { kind: 'anonymous', ip: clientSubject(request.clientIp) };
    let authError: unknown = null;
    if (requirement !== 'none') {
      try {
        principal = await resolvePrincipal(principalDeps, request, principal);
      } catch (err) {
        authError = err; // counted against the caller's IP first, then reported
      }
    }
    request.principal = principal;
    if (config.rateLimited) await applyRateLimit(limits, principal, request, reply);
    if (authError) throw authError;
    enforceRequirement(requirement, principal);
  });
  // After the body is parsed, before validation and any handler: no U+0000 reaches a service or the database.
  app.addHook('preValidation', refuseNulCharacters);

  const methods = trackRouteMethods(app);
  const keys = createKeysService(ctx.store.keys, ctx.clock);
  await app.register(keysRoutes(keys));
  const checks = createChecksService({
    store: ctx.store,
    clock: ctx.clock,
    waiter: ctx.waiter,
    resolve: ctx.config.resolve,
    syncWaitMs: ctx.config.syncWaitMs,
    anonWeeklyChecks: ctx.config.anonWeeklyChecks,
    poke: () => ctx.worker.poke(),
  });
  await app.register(checksRoutes(checks));
  const [{ batchesRoutes }, { createBatchesService }] = await Promise.all([
    import('./http/routes/batches.js'),
    import('./services/batches.js'),
  ]);
  const batches = createBatchesService({ store: ctx.store, clock: ctx.clock, resolve: ctx.config.resolve, poke: () => ctx.worker.poke() });
  await app.register(batchesRoutes(batches));
  const [{ scansRoutes }, { createScansService }] = await Promise.all([import('./http/routes/scans.js'), import('./services/scans.js')]);
  const scans = createScansService({ store: ctx.store, clock: ctx.clock, resolve: ctx.config.resolve, poke: () => ctx.worker.poke() });
  await app.register(scansRoutes(scans));
  const [{ monitorsRoutes }, { createMonitorsService }] = await Promise.all([
    import('./http/routes/monitors.js'),
    import('./services/monitors/index.js'),
  ]);
  const monitors = createMonitorsService({
    store: ctx.store,
    clock: ctx.clock,
    resolve: ctx.config.resolve,
    smtpConfigured: ctx.config.smtpUrl !== null,
    monitorsPerUser: ctx.config.monitorsPerUser,
    poke: () => ctx.worker.poke(),
  });
  await app.register(monitorsRoutes(monitors));
  await app.register(
    healthRoutes({
      ping: () => ctx.store.ping(),
      startedAt: ctx.startedAt,
      now: () => ctx.clock.now(),
      rateLimitStore: async () => ((await ctx.counters.probe()) ? (ctx.config.redisUrl ? 'redis' : 'memory') : 'unavailable'),
      components: () => ({ browser: ctx.browser.state(), scheduler: ctx.scheduler.running() ? 'running' : 'stopped' }),
    }),
  );
  const reports = createReportsService({ store: ctx.store, publicUrl: () => ctx.config.publicUrl });
  await app.register(reportsRoutes(reports));
  // The web form waits briefly for a verdict, then the report page shows progress (a browser should not hang).
  const webChecks = withMaxWait(checks, 3000);
  await app.register(
    webRoutes({
      reports,
      checks: webChecks,
      keys,
      batches,
      scans,
      monitors,
      spentTokens: ctx.store.spentTokens,
      clock: ctx.clock,
      limits,
      counters: ctx.counters,
      config: () => ctx.config,
      version: VERSION,
    }),
  );
  await app.register(docsRoutes());
  await app.register(metricsRoutes(ctx.metrics, ctx.config.metricsToken));
  methods.addMethodNotAllowedRoutes();
  return app;
}
