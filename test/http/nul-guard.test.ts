// U+0000 in any string a client sends is 400 invalid_parameter (404 for a path id or slug), before it reaches the
// database: PostgreSQL refuses it in text and answered 500 (issue 13). Every route, every string input, signed
// in so each request would reach its handler, on every database (PostgreSQL when its URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNul } from '../../src/http/nul-guard.js';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, csrfOf, signInWithLink } from '../web/signin-helpers.js';

const NUL = '\u0000';
const ID = '00000000-0000-4000-8000-000000000001';

interface Case {
  /** The route template it covers (as printRoutes names it). */
  route: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  json?: unknown;
  form?: Record<string, string>;
  /** A multipart body with one file. */
  file?: { filename: string; content: string; fields?: Record<string, string> };
  expected: 400 | 404;
}

const q = (route: string, url: string, name = 'q'): Case => ({
  route,
  method: 'GET',
  url: `${url}${url.includes('?') ? '&' : '?'}${name}=a%00b`,
  expected: 400,
});
const pathId = (route: string, url: string, method: Case['method'] = 'GET'): Case => ({ route, method, url, expected: 404 });

const CASES: Case[] = [
  // The API.
  { route: '/v1/keys', method: 'POST', url: '/v1/keys', json: { name: `a${NUL}b` }, expected: 400 },
  { route: '/v1/keys', method: 'POST', url: '/v1/keys', json: { name: 'ok', expiresAt: `2030-01-01T00:00:00Z${NUL}` }, expected: 400 },
  { route: '/v1/keys', method: 'POST', url: '/v1/keys', json: { name: 'ok', [`x${NUL}`]: 1 }, expected: 400 },
  q('/v1/keys', '/v1/keys'),
  pathId('/v1/keys/:id', `/v1/keys/${ID}%00`, 'DELETE'),
  { route: '/v1/checks', method: 'POST', url: '/v1/checks', json: { url: `https://example.com/p${NUL}` }, expected: 400 },
  {
    route: '/v1/checks',
    method: 'POST',
    url: '/v1/checks',
    json: { url: 'https://example.com/', check_type: `link${NUL}` },
    expected: 400,
  },
  { route: '/v1/checks', method: 'POST', url: '/v1/checks', json: { url: 'https://example.com/', checkType: `cmp${NUL}` }, expected: 400 },
  q('/v1/checks', '/v1/checks', 'cursor'),
  q('/v1/checks', '/v1/checks?limit=5', 'cursor'),
  pathId('/v1/checks/:slug', '/v1/checks/abcdefghijkl%00'),
  {
    route: '/v1/batches',
    method: 'POST',
    url: '/v1/batches',
    json: { urls: ['https://example.com/', `https://example.com/${NUL}`] },
    expected: 400,
  },
  {
    route: '/v1/batches',
    method: 'POST',
    url: '/v1/batches',
    json: { urls: ['https://example.com/'], check_type: `${NUL}` },
    expected: 400,
  },
  q('/v1/batches', '/v1/batches', 'cursor'),
  pathId('/v1/batches/:id', `/v1/batches/${ID}%00`),
  pathId('/v1/batches/:id/results.csv', `/v1/batches/%00${ID}/results.csv`),
  { route: '/v1/scans', method: 'POST', url: '/v1/scans', json: { url: `https://example.com/${NUL}` }, expected: 400 },
  { route: '/v1/scans', method: 'POST', url: '/v1/scans', json: { url: 'https://example.com/', check_type: `link${NUL}` }, expected: 400 },
  q('/v1/scans', '/v1/scans', 'cursor'),
  pathId('/v1/scans/:id', `/v1/scans/${ID}%00`),
  pathId('/v1/scans/:id/results.csv', `/v1/scans/%00${ID}/results.csv`),
  { route: '/v1/monitors', method: 'POST', url: '/v1/monitors', json: { url: `https://example.com/${NUL}` }, expected: 400 },
  { route: '/v1/monitors', method: 'POST', url: '/v1/monitors', json: { url: 'https://example.com/', name: `a${NUL}` }, expected: 400 },
  {
    route: '/v1/monitors',
    method: 'POST',
    url: '/v1/monitors',
    json: { url: 'https://example.com/', channels: [{ type: 'webhook', url: `https://h.example/${NUL}` }] },
    expected: 400,
  },
  q('/v1/monitors', '/v1/monitors', 'cursor'),
  pathId('/v1/monitors/:id', `/v1/monitors/${ID}%00`),
  pathId('/v1/monitors/:id', `/v1/monitors/${ID}%00`, 'DELETE'),
  { route: '/v1/monitors/:id', method: 'PATCH', url: `/v1/monitors/${ID}`, json: { name: `a${NUL}` }, expected: 400 },
  pathId('/v1/monitors/:id/run', `/v1/monitors/${ID}%00/run`, 'POST'),
  pathId('/v1/monitors/:id/events', `/v1/monitors/%00${ID}/events`),
  q('/v1/monitors/:id/events', `/v1/monitors/${ID}/events`, 'cursor'),
  pathId('/v1/reports/:slug', '/v1/reports/abc%00defghijk'),
  pathId('/v1/reports/:slug/evidence', '/v1/reports/abc%00defghijk/evidence'),
  q('/health', '/health'),
  q('/openapi.json', '/openapi.json'),
  q('/docs', '/docs'),
  q('/metrics', '/metrics'),
  // The pages.
  q('/', '/'),
  { route: '/', method: 'POST', url: '/', form: { url: `https://example.com/${NUL}` }, expected: 400 },
  { route: '/', method: 'POST', url: '/', form: { url: 'https://example.com/', check_type: `${NUL}` }, expected: 400 },
  pathId('/r/:slug', '/r/abcdefghijkl%00'),
  q('/checks', '/checks', 'cursor'),
  q('/auth/signin', '/auth/signin', 'next'),
  q('/auth/oidc', '/auth/oidc', 'next'),
  q('/auth/callback', '/auth/callback?state=x', 'code'),
  q('/auth/login', '/auth/login', 'token'),
  { route: '/auth/login', method: 'POST', url: '/auth/login', form: { token: `a${NUL}` }, expected: 400 },
  q('/auth/email-link', '/auth/email-link'),
  { route: '/auth/email-link', method: 'POST', url: '/auth/email-link', form: { email: `a${NUL}@example.com` }, expected: 400 },
  q('/auth/signout', '/auth/signout'),
  q('/settings', '/settings'),
  q('/settings/keys', '/settings/keys', 'notice'),
  { route: '/settings/keys', method: 'POST', url: '/settings/keys', form: { name: `a${NUL}b` }, expected: 400 },
  { route: '/settings/keys', method: 'POST', url: '/settings/keys', form: { name: 'ok', expires: `2030-01-01${NUL}` }, expected: 400 },
  pathId('/settings/keys/:id/revoke', `/settings/keys/${ID}%00/revoke`),
  pathId('/settings/keys/:id/revoke', `/settings/keys/${ID}%00/revoke`, 'POST'),
  q('/batches', '/batches', 'cursor'),
  { route: '/batches', method: 'POST', url: '/batches', form: { links: `https://example.com/${NUL}` }, expected: 400 },
  {
    route: '/batches',
    method: 'POST',
    url: '/batches',
    file: { filename: 'links.txt', content: `https://example.com/${NUL}\n` },
    expected: 400,
  },
  {
    route: '/batches',
    method: 'POST',
    url: '/batches',
    file: { filename: `l${NUL}.csv`, content: 'https://example.com/\n' },
    expected: 400,
  },
  pathId('/batches/:id', `/batches/${ID}%00`),
  pathId('/batches/:id/results.csv', `/batches/${ID}%00/results.csv`),
  q('/scans', '/scans', 'cursor'),
  { route: '/scans', method: 'POST', url: '/scans', form: { url: `https://example.com/${NUL}` }, expected: 400 },
  pathId('/scans/:id', `/scans/${ID}%00`),
  pathId('/scans/:id/results.csv', `/scans/${ID}%00/results.csv`),
  q('/monitors', '/monitors', 'cursor'),
  { route: '/monitors', method: 'POST', url: '/monitors', form: { url: `https://example.com/${NUL}` }, expected: 400 },
  pathId('/monitors/:id', `/monitors/${ID}%00`),
  pathId('/monitors/:id/delete', `/monitors/${ID}%00/delete`),
  pathId('/monitors/:id/delete', `/monitors/${ID}%00/delete`, 'POST'),
  pathId('/monitors/:id/run', `/monitors/${ID}%00/run`, 'POST'),
  pathId('/monitors/:id/pause', `/monitors/${ID}%00/pause`, 'POST'),
  pathId('/monitors/:id/resume', `/monitors/${ID}%00/resume`, 'POST'),
  pathId('/monitors/:id/settings', `/monitors/${ID}%00/settings`, 'POST'),
  pathId('/monitors/:id/channels', `/monitors/${ID}%00/channels`, 'POST'),
  // Last: without the guard it would sign the browser out.
  { route: '/auth/signout', method: 'POST', url: '/auth/signout', form: { [`x${NUL}`]: '1' }, expected: 400 },
];

/** Every route path the app serves, read from Fastify's route tree (indent 4 per level; children extend the parent). */
function routePaths(tree: string): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /── (\S+) \(/.exec(line);
    if (!match?.[1]) continue;
    const depth = (line.indexOf('──') - 1) / 4;
    const parent = depth === 0 ? '' : (stack[depth - 1] ?? '');
    const full = parent === '/' ? `/${match[1]}` : `${parent}${match[1]}`;
    stack[depth] = full;
    stack.length = depth + 1;
    paths.push(full);
  }
  return paths;
}

function multipart(file: NonNullable<Case['file']>, csrf: string): { body: string; type: string } {
  const boundary = 'nulboundary42';
  const fields = { _csrf: csrf, ...file.fields };
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('findNul', () => {
  it('names where the NUL is', () => {
    expect(findNul({ urls: ['a', `b${NUL}`] })).toBe('urls[1]');
    expect(findNul({ a: { [`k${NUL}`]: 1 } })).toBe('a (a field name)');
    expect(findNul({ files: { file: { content: Buffer.from([0x61, 0]) } } })).toBe('files.file.content');
    expect(findNul({ a: 'clean', n: 1, b: null, c: [true] })).toBeNull();
  });
});

describe.each(DATABASES)('NUL characters on $name', (database) => {
  let t: TestApp;
  let token: string;
  let browser: Browser;
  let csrf: string;

  beforeAll(async () => {
    // High limits: this suite sends many requests from one address.
    t = await startTestApp({
      database,
      worker: false,
      env: {
        TRACKCHECK_RATE_LIMIT: '10000',
        TRACKCHECK_ANON_RATE_LIMIT: '10000',
        TRACKCHECK_SYNC_WAIT_MS: '0',
        TRACKCHECK_METRICS_TOKEN: 'metrics-token-0123456789',
      },
    });
    token = await t.sessionToken('nul-user');
    browser = new Browser(t.app);
    await signInWithLink(browser, t.dataDir, 'nul-user');
    csrf = csrfOf((await browser.get('/settings/keys')).body);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a case for every route the app serves', () => {
    const served = routePaths(t.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(20);
    const covered = new Set(CASES.map((c) => c.route));
    expect(served.filter((route) => !covered.has(route))).toEqual([]);
  });

  it('refuses a session token whose subject holds NUL as invalid credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(await t.sessionToken(`a${NUL}b`)) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('invalid_credentials');
  });

  it.each(
    CASES.map(
      (c) =>
        [`${c.method} ${c.url.replace(NUL, '\\0')} ${JSON.stringify(c.json ?? c.form ?? c.file ?? '').replaceAll(NUL, '\\0')}`, c] as const,
    ),
  )('refuses %s', async (_name, c) => {
    const counts = async () =>
      Promise.all(
        ['api_keys', 'checks', 'batches', 'scans', 'anonymous_usage', 'jobs', 'monitors'].map(async (table) => {
          const row = await t.ctx.store.db
            .selectFrom(table as 'checks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return Number(row.n);
        }),
      );
    const before = await counts();
    let res;
    if (c.json !== undefined) {
      res = await t.app.inject({ method: c.method, url: c.url, headers: bearer(token), payload: c.json as object });
    } else if (c.form !== undefined) {
      res = await browser.post(c.url, { _csrf: csrf, ...c.form }, { accept: 'application/json' });
    } else if (c.file !== undefined) {
      const { body, type } = multipart(c.file, csrf);
      res = await t.app.inject({
        method: 'POST',
        url: c.url,
        headers: {
          'content-type': type,
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
          cookie: [...browser.jar].map(([n, v]) => `${n}=${v}`).join('; '),
        },
        payload: body,
      });
    } else {
      const headers = c.url.startsWith('/v1/') ? bearer(token) : { cookie: [...browser.jar].map(([n, v]) => `${n}=${v}`).join('; ') };
      res = await t.app.inject({ method: c.method, url: c.url, headers });
    }
    expect(res.statusCode, res.body.slice(0, 300)).toBe(c.expected);
    const { error } = res.json();
    expect(error).toMatchObject({
      type: 'invalid_request_error',
      code: c.expected === 400 ? 'invalid_parameter' : 'not_found',
      request_id: res.headers['x-request-id'],
    });
    if (c.expected === 400) expect(error.message).toContain('U+0000');
    expect(await counts()).toEqual(before);
  });
});
