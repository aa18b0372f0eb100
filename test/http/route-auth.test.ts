// Authentication on every route of the app, derived from the route table: each route the app registers (seen
// through Fastify's onRoute hook) is tested by what its `config.auth` declares, so a new route is covered without
// touching this file, and a route that declares nothing fails here.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthRequirement } from '../../src/http/auth.js';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

// Every Fastify instance the app builds gets an onRoute hook before its first route: the routes, per instance.
const { routeTable } = vi.hoisted(() => ({ routeTable: new WeakMap<object, RouteOptions[]>() }));
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    const routes: RouteOptions[] = [];
    routeTable.set(app, routes);
    app.addHook('onRoute', (route) => void routes.push(route));
    return app;
  }) as typeof actual.default;
  return { ...actual, default: create, fastify: create };
});

const REQUIREMENTS: ReadonlySet<string> = new Set<AuthRequirement>(['none', 'optional', 'user', 'session']);
const NEVER_ISSUED_KEY = 'pg_live_00000000-0000-4000-8000-000000000000';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Route {
  method: Method;
  url: string;
  auth: unknown;
}

/** One entry per method and path (HEAD is GET's twin, answered without a body). */
function routesOf(app: FastifyInstance): Route[] {
  const table = routeTable.get(app);
  if (table === undefined) throw new Error('the app was not built through the mocked Fastify');
  const seen = new Map<string, Route>();
  for (const route of table) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      seen.set(`${method} ${route.url}`, { method: method as Method, url: route.url, auth: route.config?.auth });
    }
  }
  return [...seen.values()];
}

/** A concrete URL for a route path: parameters get well-formed values that name nothing. */
const concrete = (url: string) =>
  url
    .replace(/:id\b/g, '00000000-0000-4000-8000-000000000000')
    .replace(/:slug\b/g, 'zzzzzzzzzzzz')
    .replace(/\*$/, 'x');

async function call(t: TestApp, route: Route, headers: Record<string, string> = {}) {
  const payload = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
  return t.app.inject({ method: route.method, url: concrete(route.url), headers, ...(payload ? { payload } : {}) });
}

async function expect401(t: TestApp, route: Route, headers: Record<string, string>, code: string): Promise<void> {
  const res = await call(t, route, headers);
  const label = `${route.method} ${route.url} → ${code}`;
  expect(res.statusCode, label).toBe(401);
  const body = res.json() as { error: { code: string; type: string; request_id: string } };
  expect(body.error.code, label).toBe(code);
  expect(body.error.type, label).toBe('authentication_error');
  expect(body.error.request_id, label).toBe(res.headers['x-request-id']);
}

describe.each(DATABASES)('authentication on every registered route on $name', (database) => {
  let t: TestApp;
  let routes: Route[];
  let revokedKey: string;
  let expiredKey: string;
  let validKey: string;
  beforeAll(async () => {
    // Rate limits out of the way: every route is called several times from one address.
    t = await startTestApp({ database, worker: false, env: { TRACKCHECK_RATE_LIMIT: '1000000', TRACKCHECK_ANON_RATE_LIMIT: '1000000' } });
    routes = routesOf(t.app);
    const owner = `route-auth-${database.name}`;
    validKey = (await t.createKey(owner, { name: 'valid' })).key;
    const revoked = await t.createKey(owner, { name: 'revoked' });
    const session = bearer(await t.sessionToken(owner));
    const revoke = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${revoked.id}`, headers: session });
    expect(revoke.statusCode).toBe(200);
    revokedKey = revoked.key;
    expiredKey = (await t.createKey(owner, { name: 'expiring', expiresAt: new Date(t.clock.now() + 60_000).toISOString() })).key;
    t.clock.advance(61_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sees the whole route table, and every route declares its authentication', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const url of ['/v1/keys', '/v1/checks/:slug', '/v1/reports/:slug', '/health'])
      expect(
        routes.some((r) => r.url === url),
        url,
      ).toBe(true);
    const undeclared = routes.filter((route) => !REQUIREMENTS.has(route.auth as string)).map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without config.auth (none | optional | user | session)').toEqual([]);
  });

  it('refuses anonymous, malformed, unknown, revoked and expired credentials on every route that needs a user', async () => {
    const protectedRoutes = routes.filter((route) => route.auth === 'user' || route.auth === 'session');
    expect(protectedRoutes.length).toBeGreaterThan(10);
    for (const route of protectedRoutes) {
      await expect401(t, route, {}, 'authentication_required');
      await expect401(t, route, bearer('not-a-key'), 'invalid_credentials');
      await expect401(t, route, bearer(NEVER_ISSUED_KEY), 'invalid_api_key');
      await expect401(t, route, bearer(revokedKey), 'invalid_api_key');
      await expect401(t, route, bearer(expiredKey), 'api_key_expired');
      const withKey = await call(t, route, bearer(validKey));
      // A valid API key gets past authentication: through, or 403 where only a session token will do.
      expect(withKey.statusCode, `${route.method} ${route.url} with a valid key`).not.toBe(401);
      if (route.auth === 'session') expect(withKey.json().error.code).toBe('session_token_required');
    }
  });

  it('keeps public routes reachable without credentials; optional ones still refuse a bad key', async () => {
    const publicRoutes = routes.filter((route) => route.auth === 'none' || route.auth === 'optional');
    expect(publicRoutes.length).toBeGreaterThan(10);
    for (const route of publicRoutes) {
      const res = await call(t, route);
      expect(res.statusCode, `${route.method} ${route.url} without credentials`).not.toBe(401);
      if (route.auth === 'optional') {
        await expect401(t, route, bearer(revokedKey), 'invalid_api_key');
      } else {
        // No credentials looked at: a bad header changes nothing.
        const withBadKey = await call(t, route, bearer(revokedKey));
        expect(withBadKey.statusCode, `${route.method} ${route.url} ignores Authorization`).not.toBe(401);
      }
    }
  });
});
