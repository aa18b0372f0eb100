// The served OpenAPI document is complete enough for a code generator (operation ids, named schemas, described
// responses, servers, security), and the headers it documents are the ones the service really sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { operationById, operationsOf, refsIn, responseHeaders, servedDocument, type OpenApiDocument } from '../helpers/openapi.js';

const PUBLIC_URL = 'https://trackcheck.example.net';
const LINK = 'https://www.awin1.com/cread.php?awinmid=1001&awinaffid=2002&ued=https%3A%2F%2Fshop.example.net%2Fp%2F1';

const OPERATION_IDS = {
  'post /v1/keys': 'createKey',
  'get /v1/keys': 'listKeys',
  'delete /v1/keys/{id}': 'revokeKey',
  'post /v1/checks': 'createCheck',
  'get /v1/checks': 'listChecks',
  'get /v1/checks/{slug}': 'getCheck',
  'get /v1/reports/{slug}': 'getReport',
  'get /v1/reports/{slug}/evidence': 'getEvidence',
  'post /v1/batches': 'createBatch',
  'get /v1/batches': 'listBatches',
  'get /v1/batches/{id}': 'getBatch',
  'get /v1/batches/{id}/results.csv': 'getBatchResultsCsv',
  'post /v1/scans': 'createScan',
  'get /v1/scans': 'listScans',
  'get /v1/scans/{id}': 'getScan',
  'get /v1/scans/{id}/results.csv': 'getScanResultsCsv',
  'get /health': 'getHealth',
};

/** CONTRACT.md section 2: who may call without a token. */
const ANONYMOUS_ALLOWED = ['createCheck', 'getCheck', 'getReport', 'getEvidence'];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    // No worker: a check stays queued, so POST /v1/checks answers 202 with a Location at once.
    t = await startTestApp({
      worker: false,
      env: { TRACKCHECK_PUBLIC_URL: PUBLIC_URL, TRACKCHECK_SYNC_WAIT_MS: '0', TRACKCHECK_ANON_RATE_LIMIT: '2' },
    });
    doc = await servedDocument(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every operation a unique, stable camelCase operationId, a summary and described responses', () => {
    const operations = operationsOf(doc);
    const ids = operations.map((op) => op.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const byRoute = Object.fromEntries(operations.map((op) => [`${op.method} ${op.path}`, op.operation.operationId]));
    expect(byRoute).toMatchObject(OPERATION_IDS);
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(operation.summary, where).toBeTruthy();
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${where} ${status}`).toBeTruthy();
        expect(response.description, `${where} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it('names its schemas and every reference resolves', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining(['Check', 'Report', 'Batch', 'ErrorEnvelope', 'ApiKey', 'CreatedApiKey', 'RevokedApiKey']),
    );
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    const refs = refsIn(doc);
    expect(refs.filter((ref) => ref.includes('def-'))).toEqual([]);
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
      expect(section, ref).toBeDefined();
      const components = section === 'schemas' ? doc.components.schemas : (doc.components.headers ?? {});
      expect(Object.keys(components), ref).toContain(name);
    }
    const created = operationById(doc, 'createCheck').operation.responses['201']?.content?.['application/json']?.schema;
    expect(JSON.stringify(created)).toContain('"#/components/schemas/Check"');
    const batch = operationById(doc, 'getBatch').operation.responses['200']?.content?.['application/json']?.schema;
    expect(JSON.stringify(batch)).toContain('"#/components/schemas/Batch"');
    const error = operationById(doc, 'listKeys').operation.responses['401']?.content?.['application/json']?.schema;
    expect(error).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('names the server from the public URL', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
  });

  it('requires a bearer token except where the contract allows anonymous callers, and /health is public', () => {
    expect(doc.components.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const { operation } of operationsOf(doc)) {
      const id = operation.operationId ?? '';
      if (id === 'getHealth') expect(operation.security, id).toEqual([]);
      else if (ANONYMOUS_ALLOWED.includes(id)) expect(operation.security, id).toEqual([{}, { bearer: [] }]);
      else expect(operation.security, id).toEqual([{ bearer: [] }]);
    }
  });

  it('documents X-Request-Id everywhere, the rate-limit headers on every /v1 response, Retry-After on 429 and 503', () => {
    for (const { method, path, operation } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = Object.keys(responseHeaders(doc, response));
        const where = `${method} ${path} ${status}`;
        expect(names, where).toContain('X-Request-Id');
        if (path.startsWith('/v1/')) expect(names, where).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']));
        else expect(names, where).not.toContain('X-RateLimit-Limit');
        if (status === '429' || status === '503') expect(names, where).toContain('Retry-After');
        else expect(names, where).not.toContain('Retry-After');
      }
    }
    expect(Object.keys(responseHeaders(doc, operationById(doc, 'createCheck').operation.responses['202'] ?? {}))).toContain('Location');
    expect(Object.keys(responseHeaders(doc, operationById(doc, 'createBatch').operation.responses['202'] ?? {}))).toContain('Location');
    expect(Object.keys(responseHeaders(doc, operationById(doc, 'createScan').operation.responses['202'] ?? {}))).toContain('Location');
    expect(Object.keys(responseHeaders(doc, operationById(doc, 'getEvidence').operation.responses['200'] ?? {}))).toContain(
      'Content-Disposition',
    );
  });

  it('documents exactly the headers real responses carry', async () => {
    const { key } = await t.createKey('alice');
    const json = { 'content-type': 'application/json' };
    const created = await t.app.inject({ method: 'POST', url: '/v1/checks', headers: json, payload: { url: LINK } });
    const batch = await t.app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: { ...json, ...bearer(key) },
      payload: { urls: [LINK] },
    });
    const batchId = String(batch.json().data.id);
    const samples = [
      { operationId: 'getHealth', res: await t.app.inject({ method: 'GET', url: '/health' }) },
      { operationId: 'createCheck', res: created },
      {
        operationId: 'createCheck',
        res: await t.app.inject({ method: 'POST', url: '/v1/checks', headers: json, payload: { url: 'ftp://x' } }),
      },
      { operationId: 'listKeys', res: await t.app.inject({ method: 'GET', url: '/v1/keys' }) },
      { operationId: 'listKeys', res: await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) }) },
      { operationId: 'getCheck', res: await t.app.inject({ method: 'GET', url: '/v1/checks/nosuchcheck1' }) },
      { operationId: 'getCheck', res: await t.app.inject({ method: 'GET', url: '/v1/checks/nosuchcheck2' }) },
      { operationId: 'getCheck', res: await t.app.inject({ method: 'GET', url: '/v1/checks/nosuchcheck3' }) },
      { operationId: 'createBatch', res: batch },
      {
        operationId: 'getBatchResultsCsv',
        res: await t.app.inject({ method: 'GET', url: `/v1/batches/${batchId}/results.csv`, headers: bearer(key) }),
      },
    ];
    const statuses = samples.map((s) => `${s.operationId} ${s.res.statusCode}`);
    expect(statuses).toEqual([
      'getHealth 200',
      'createCheck 202',
      'createCheck 400',
      'listKeys 401',
      'listKeys 200',
      'getCheck 404',
      'getCheck 404',
      'getCheck 429',
      'createBatch 202',
      'getBatchResultsCsv 200',
    ]);
    for (const { operationId, res } of samples) {
      const response = operationById(doc, operationId).operation.responses[String(res.statusCode)];
      expect(response, `${operationId} ${res.statusCode} is documented`).toBeDefined();
      const documented = responseHeaders(doc, response ?? {});
      for (const [name, header] of Object.entries(documented)) {
        if (header.required) expect(res.headers[name.toLowerCase()], `${operationId} ${res.statusCode} sends ${name}`).toBeDefined();
      }
      // Nothing of the catalogue is sent undocumented either.
      for (const name of Object.keys(doc.components.headers ?? {})) {
        if (res.headers[name.toLowerCase()] !== undefined)
          expect(Object.keys(documented), `${operationId} ${res.statusCode} documents ${name}`).toContain(name);
      }
    }
  });
});
