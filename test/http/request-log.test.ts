// The access log (src/http/request-log.ts) writes one line through pino's public API: byte for byte what pino writes.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyServerOptions } from 'fastify';
import { buildApp, REDACTED_LOG_PATHS } from '../../src/app.js';
import { withMaskedUrls } from '../../src/http/log-redaction.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

function capture(): { stream: Writable; lines(): string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter((line) => line !== '') };
}

const fixedTime = () => ',"time":1700000000000';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function accessLines(logger: Record<string, unknown>, url: string): Promise<string[]> {
  t ??= await startTestApp({ worker: false });
  const out = capture();
  const app = await buildApp(t.ctx, { logger: { ...logger, stream: out.stream } as FastifyServerOptions['logger'] });
  try {
    const res = await app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(200);
    return out.lines().filter((line) => line.includes('request completed'));
  } finally {
    await app.close();
  }
}

/** The line pino itself writes for the same fields, through a logger with the same options. */
function pinoLine(options: Record<string, unknown>, logged: { reqId: string; req: Record<string, unknown>; responseTime: number }): string {
  const out = capture();
  const logger = pino({ ...(withMaskedUrls(options as FastifyServerOptions['logger']) as pino.LoggerOptions) }, out.stream);
  const { req } = logged;
  const request = {
    method: req.method,
    url: req.url,
    headers: {},
    host: req.host,
    ip: req.remoteAddress,
    socket: { remotePort: req.remotePort },
  };
  logger
    .child({}, { redact: [] })
    .info({ reqId: logged.reqId, req: request, res: { statusCode: 200 }, responseTime: logged.responseTime }, 'request completed');
  return out.lines()[0] ?? '';
}

describe('access log line', () => {
  const options = { level: 'info', redact: REDACTED_LOG_PATHS, timestamp: fixedTime };

  it('is exactly the line pino writes', async () => {
    const lines = await accessLines(options, '/health?probe=1&token=secret-value');
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    const parsed = JSON.parse(line) as { reqId: string; req: Record<string, unknown>; responseTime: number };
    expect(parsed.req).toMatchObject({ method: 'GET', url: '/health?probe=1&token=[redacted]', remoteAddress: '203.0.113.9' });
    expect(line).not.toContain('secret-value');
    expect(line).toBe(pinoLine(options, parsed));
  });

  it('is not written below the info level', async () => {
    expect(await accessLines({ ...options, level: 'warn' }, '/health')).toEqual([]);
  });

  it('goes through pino when the logger formats lines its own way', async () => {
    const custom = { ...options, formatters: { log: (object: Record<string, unknown>) => ({ ...object, formatted: true }) } };
    const lines = await accessLines(custom, '/health');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ formatted: true, req: { url: '/health' }, res: { statusCode: 200 } });
  });
});
