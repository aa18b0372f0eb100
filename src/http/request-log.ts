// The request log's shape and transport. Per-request logging was the largest cost of a cached read: two lines
// where one says it all, and one write(2) per line.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { serializeRequestForLog } from '../web/log-redaction.js';

/**
 * One access-log line per request, written when it ends (request, status, time), instead of Fastify's two.
 * Errors are still logged as Fastify does. The line is the one pino would write for
 * `log.info({ reqId, req, res, responseTime }, 'request completed')` (test/http/request-log.test.ts compares them),
 * put together here and handed to the logger's stream: pino's generic serialization and redaction cost more than the
 * rest of a cached read. It holds only the serialized request (method, URL with sign-in tokens masked, host,
 * address; never headers) and the status, none of which the redaction paths cover. Keep it that way. A logger
 * that is not plain pino (custom formatters, mixins, hooks) gets the line through its own `info`.
 */
export class OneLineRequestLog extends LogController {
  /** Per logger: the direct line, or for a logger it cannot imitate, that logger's child without redaction. */
  readonly #writers = new WeakMap<FastifyBaseLogger, DirectLine | FastifyBaseLogger>();

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply);
    const base = request.server.log;
    let writer = this.#writers.get(base);
    if (writer === undefined) {
      writer = directLine(base) ?? base.child({}, { redact: [] });
      this.#writers.set(base, writer);
    }
    if (!isDirectLine(writer)) {
      const fields = { [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
      return writer.info(fields, 'request completed');
    }
    if (!writer.enabled()) return;
    const fields = {
      [this.requestIdLogLabel]: request.id,
      req: serializeRequestForLog(request),
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    writer.write(`${writer.head}${writer.time()}${writer.bindings},${JSON.stringify(fields).slice(1, -1)},"msg":"request completed"${writer.end}`);
  }
}

interface DirectLine {
  enabled(): boolean;
  write(line: string): void;
  /** `{"level":30`, as the logger formats its info level. */
  head: string;
  /** `,"time":…` */
  time(): string;
  /** `,"pid":…,"hostname":…` and any other bindings. */
  bindings: string;
  /** `}` and the line end. */
  end: string;
}

const isDirectLine = (writer: DirectLine | FastifyBaseLogger): writer is DirectLine => 'head' in writer;

type RawPino = Record<symbol, unknown> & { levels?: { values?: Record<string, number> }; isLevelEnabled?: (level: string) => boolean };

/** What writing the logger's line by hand needs, or null when the logger is not one this imitates exactly. */
function directLine(logger: FastifyBaseLogger): DirectLine | null {
  const sym = pino.symbols;
  const raw = logger as unknown as RawPino;
  const stream = raw[sym.streamSym] as ({ write?: (line: string) => unknown } & Record<symbol, unknown>) | undefined;
  const serializers = raw[sym.serializersSym] as Record<string, ((value: unknown) => unknown) | undefined> | undefined;
  const formatters = raw[sym.formattersSym] as { log?: unknown } | undefined;
  const hooks = raw[sym.hooksSym] as { streamWrite?: unknown } | undefined;
  const level = raw.levels?.values?.info;
  const head = level === undefined ? undefined : (raw[sym.lsCacheSym] as Record<number, string> | undefined)?.[level];
  const time = raw[sym.timeSym];
  const bindings = raw[sym.chindingsSym];
  const end = raw[sym.endSym];
  const isLevelEnabled = raw.isLevelEnabled;
  const plain =
    stream?.[sym.needsMetadataGsym] !== true &&
    hooks?.streamWrite === undefined &&
    formatters?.log === undefined &&
    !raw[sym.mixinSym] &&
    !raw[sym.nestedKeySym] &&
    raw[sym.messageKeySym] === 'msg' &&
    serializers?.req === serializeRequestForLog &&
    JSON.stringify(serializers?.res?.({ statusCode: 299 })) === '{"statusCode":299}';
  if (!plain || typeof stream?.write !== 'function' || typeof head !== 'string' || typeof time !== 'function') return null;
  if (typeof bindings !== 'string' || typeof end !== 'string' || typeof isLevelEnabled !== 'function') return null;
  const write = stream.write.bind(stream);
  return {
    enabled: () => isLevelEnabled.call(logger, 'info'),
    write: (line) => void write(line),
    head,
    time: time as () => string,
    bindings,
    end,
  };
}

/**
 * Standard output for the logger, written once per turn of the event loop: under load the lines of many requests
 * go out in one write instead of one each. A line waits at most until the current turn ends; the rest is written
 * on exit, so only a hard kill can lose the last turn's lines. One per process, however many apps log to it.
 */
export function batchedStdout(): { write(line: string): void } {
  shared ??= createBatched(process.stdout);
  return shared;
}

let shared: { write(line: string): void } | undefined;

function createBatched(out: NodeJS.WritableStream): { write(line: string): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    out.write(text);
  };
  process.once('exit', flush);
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
