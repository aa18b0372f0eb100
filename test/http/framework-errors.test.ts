// What Fastify's router and Node's HTTP parser refuse before any route runs gets the contract's envelope and an
// X-Request-Id too (issue 13). Only a real socket reaches those paths: the service runs as a real process.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../helpers/spawn-service.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return out;
}

/** Writes `chunks` (a function: after a delay) to a fresh connection and collects everything until it closes. */
function exchange(url: string, chunks: Array<string | (() => Promise<string>)>): Promise<RawResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the answer: what was received counts
    socket.on('close', () => resolve(parseResponses(received)));
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer; got ${received.slice(0, 200)}`));
    });
    void (async () => {
      for (const chunk of chunks) if (!socket.destroyed) socket.write(typeof chunk === 'string' ? chunk : await chunk());
    })();
  });
}

function expectEnvelope(res: RawResponse | undefined, status: number, code: string): void {
  if (!res) throw new Error('no response');
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(res.body) as { error: Record<string, string> };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'type']);
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code });
  expect(body.error.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(res.headers['x-request-id']).toBe(body.error.request_id);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('framework errors over a real socket', () => {
  let service: RunningService;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-framework-'));
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_WORKER_CONCURRENCY: '0', TRACKCHECK_SYNC_WAIT_MS: '1500' });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`;

  it.each([
    ['a path parameter over the router limit', get(`/v1/checks/${'a'.repeat(600)}`), 414, 'uri_too_long'],
    ['a request line over the header size limit', get(`/v1/checks/x?q=${'a'.repeat(20_000)}`), 414, 'uri_too_long'],
    ['headers over the size limit', get('/health', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431, 'headers_too_large'],
    ['a bad percent-encoding in the path', get('/v1/checks/%zz'), 400, 'invalid_parameter'],
    ['a bad percent-encoding in a page path', get('/r/%E0%A4%A'), 400, 'invalid_parameter'],
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400, 'malformed_request'],
    ['a header line without a colon', get('/health', 'Bad Header\r\n'), 400, 'malformed_request'],
    [
      'a control character in Content-Type',
      `POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/\x01json\r\nContent-Length: 2\r\n\r\n{}`,
      400,
      'malformed_request',
    ],
    [
      'a Content-Length that is not a number',
      'POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'a malformed Content-Type',
      'POST /v1/checks HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ;;;\r\nContent-Length: 2\r\n\r\n{}',
      415,
      'unsupported_media_type',
    ],
  ])('answers %s in the envelope', async (_name, request, status, code) => {
    const [res] = await exchange(service.url, [request]);
    expectEnvelope(res, status, code);
  });

  it('logs parser refusals with their request id', async () => {
    const [res] = await exchange(service.url, ['GARBAGE\r\n\r\n']);
    const id = res?.headers['x-request-id'] ?? 'none';
    await new Promise((r) => setTimeout(r, 100));
    const line = service
      .output()
      .split('\n')
      .find((l) => l.includes(id));
    expect(line).toContain('request refused by the HTTP parser');
    expect(line).toContain('"statusCode":400');
  });

  it('answers once and logs once when the client keeps sending after the refusal', async () => {
    const refusals = () =>
      service
        .output()
        .split('\n')
        .filter((l) => l.includes('request refused by the HTTP parser')).length;
    const before = refusals();
    const pause = (text: string) => async () => {
      await new Promise((r) => setTimeout(r, 50));
      return text;
    };
    const chunk = `X-Pad: ${'a'.repeat(16_000)}\r\n`;
    const responses = await exchange(service.url, ['GET /health HTTP/1.1\r\nHost: x\r\n', chunk, pause(chunk), pause(chunk), pause(chunk)]);
    expect(responses).toHaveLength(1);
    expectEnvelope(responses[0], 431, 'headers_too_large');
    await new Promise((r) => setTimeout(r, 100));
    expect(refusals() - before).toBe(1);
  });

  it('serves a request that arrives while the server drains, with a request id and the envelope, then closes', async () => {
    // A check waits for its result (1.5 s): the connection is busy when SIGTERM comes, so it stays open, and the next
    // request on it arrives while the server is closing.
    const body = JSON.stringify({ url: 'https://www.awin1.com/cread.php?awinmid=1' });
    const check = `POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const afterTerm = async () => {
      await new Promise((r) => setTimeout(r, 300));
      void service.stop();
      await new Promise((r) => setTimeout(r, 300));
      return `GET /v1/checks/nosuchcheck HTTP/1.1\r\nHost: x\r\n\r\n`;
    };
    const [first, second] = await exchange(service.url, [check, afterTerm]);
    expect(first?.status).toBe(202);
    expectEnvelope(second, 404, 'not_found');
    expect(second?.headers.connection).toBe('close');
  });
});
