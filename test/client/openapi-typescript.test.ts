// A code generator's view of the served /openapi.json: openapi-typescript turns it into types, a small client
// program written against those types type-checks under strict settings, and a wrong one does not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { servedDocument } from '../helpers/openapi.js';

/** What a user of the generated types writes: typed fetch calls for a check, a report, a batch and the key list. */
const CLIENT_PROGRAM = `
import type { components, operations, paths } from './api.js';

type CreateCheckBody = paths['/v1/checks']['post']['requestBody']['content']['application/json'];
// Generators name functions and types after the operationId.
type CreateBatchBody = operations['createBatch']['requestBody']['content']['application/json'];
type CreatedCheck = paths['/v1/checks']['post']['responses'][201]['content']['application/json'];
type QueuedCheck = paths['/v1/checks']['post']['responses'][202]['content']['application/json'];
type Check = components['schemas']['Check'];
type Report = components['schemas']['Report'];
type Batch = components['schemas']['Batch'];
type ApiKey = components['schemas']['ApiKey'];
type ApiError = components['schemas']['ErrorEnvelope'];
type Slug = paths['/v1/reports/{slug}']['get']['parameters']['path']['slug'];
type ListQuery = NonNullable<paths['/v1/checks']['get']['parameters']['query']>;
type PollLocation = paths['/v1/checks']['post']['responses'][202]['headers']['Location'];
type RequestId = components['headers']['X-Request-Id'];
type Remaining = paths['/v1/keys']['get']['responses'][429]['headers']['X-RateLimit-Remaining'];

async function failure(res: Response): Promise<never> {
  const body = (await res.json()) as ApiError;
  const requestId: RequestId = res.headers.get('x-request-id') ?? body.error.request_id;
  throw new Error(body.error.code + ' ' + body.error.message + ' (' + requestId + ')');
}

export async function createCheck(baseUrl: string, token: string | null, body: CreateCheckBody): Promise<{ check: Check; poll: PollLocation | null }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['authorization'] = 'Bearer ' + token;
  const res = await fetch(baseUrl + '/v1/checks', { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status === 201) return { check: ((await res.json()) as CreatedCheck).data, poll: null };
  if (res.status === 202) return { check: ((await res.json()) as QueuedCheck).data, poll: res.headers.get('location') };
  return failure(res);
}

export async function getReport(baseUrl: string, slug: Slug): Promise<Report> {
  const res = await fetch(baseUrl + '/v1/reports/' + encodeURIComponent(slug));
  if (res.status !== 200) return failure(res);
  const { data } = (await res.json()) as paths['/v1/reports/{slug}']['get']['responses'][200]['content']['application/json'];
  return data;
}

export async function createBatch(baseUrl: string, token: string, urls: string[]): Promise<Batch> {
  const body: CreateBatchBody = { urls, check_type: 'link' };
  const res = await fetch(baseUrl + '/v1/batches', { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 202) return failure(res);
  return ((await res.json()) as paths['/v1/batches']['post']['responses'][202]['content']['application/json']).data;
}

export async function listKeys(baseUrl: string, token: string): Promise<ApiKey[]> {
  const res = await fetch(baseUrl + '/v1/keys', { headers: { authorization: 'Bearer ' + token } });
  const remaining: Remaining = Number(res.headers.get('x-ratelimit-remaining'));
  if (remaining === 0 || res.status !== 200) return failure(res);
  return ((await res.json()) as paths['/v1/keys']['get']['responses'][200]['content']['application/json']).data;
}

export function describeCheck(check: Check, batch: Batch | null, query: ListQuery): string {
  const willTrack: boolean | null = check.willTrack;
  const score: number | null = check.healthScore;
  const verdict: 'will_track' | 'will_not_track' | 'could_not_verify' | 'no_tracking_found' | null = check.verdict;
  const brave = check.privacy?.find((entry) => entry.agent === 'brave')?.trackerVisited;
  const status: 'queued' | 'running' | 'completed' | 'failed' = check.status;
  const firstHop: string | undefined = check.hops[0]?.url;
  const critical = check.issues.filter((issue) => issue.severity === 'critical').map((issue) => issue.code);
  const progress = batch === null ? '' : batch.completed + '/' + batch.total;
  const limit: number | undefined = query.limit;
  return [status, verdict ?? '', String(willTrack), String(score), String(brave), firstHop ?? '', critical.join(','), progress, String(limit)].join(' ');
}

export const request: CreateCheckBody = { url: 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2', check_type: 'cmp' };
`;

/** The same types misused: every line must be refused. */
const WRONG_PROGRAM = `
import type { components, paths } from './api.js';
type CreateCheckBody = paths['/v1/checks']['post']['requestBody']['content']['application/json'];
export const wrongType: CreateCheckBody = { url: 'https://example.com/', check_type: 'video' };
export const noUrl: CreateCheckBody = { check_type: 'link' };
export const score: string = ({} as components['schemas']['Check']).healthScore;
export const unknownField: boolean = ({} as components['schemas']['Check']).willTrackk;
`;

const STRICT: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // fetch, Response and Headers as a browser or Node 20 declares them; no @types from anywhere.
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
};

/** Both programs in one compilation (the DOM library is loaded once); diagnostics as `file:line: message`. */
function typeCheck(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((file) => path.join(dir, file)),
    STRICT,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${d.file ? path.basename(d.file.fileName) : ''}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('types generated from /openapi.json', () => {
  let t: TestApp;
  let dir: string;
  let diagnostics: string[];

  beforeAll(async () => {
    t = await startTestApp({ worker: false });
    const doc = await servedDocument(t.app);
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-openapi-ts-'));
    const ast = await openapiTS(JSON.stringify(doc));
    writeFileSync(path.join(dir, 'api.ts'), astToString(ast));
    writeFileSync(path.join(dir, 'client.ts'), CLIENT_PROGRAM);
    writeFileSync(path.join(dir, 'wrong.ts'), WRONG_PROGRAM);
    diagnostics = typeCheck(dir, ['client.ts', 'wrong.ts']);
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('type-check a client written against them with no diagnostics', () => {
    expect(diagnostics.filter((d) => !d.startsWith('wrong.ts:'))).toEqual([]);
  });

  it('refuse a client that misuses them, once per wrong line', () => {
    const wrong = diagnostics.filter((d) => d.startsWith('wrong.ts:'));
    expect(wrong.map((d) => d.split(':')[1])).toEqual(['4', '5', '6', '7']);
    expect(wrong.join('\n')).toContain('"video"');
    expect(wrong.join('\n')).toContain('willTrackk');
  });
});
