// The request log's shape and transport. Per-request logging was the largest cost of a cached read: two lines
// where one says it all, and one write(2) per line.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One access-log line per request, written when it ends (request, status, time), instead of Fastify's two.
 * Errors are still logged as Fastify does. The line is `log.info({ reqId, req, res, responseTime }, 'request
 * completed')` through pino's public API only: a child of the app's logger (made once per logger) whose redaction
 * is switched off, so the logger's own serializers (`req`: src/http/log-redaction.ts, URL tokens masked, never
 * headers; `res`: Fastify's, the status) and formatters shape it. Redaction is what made pino's generic line cost
 * more than the rest of a cached read; the line holds only the serialized request and the status, none of which the
 * redaction paths cover. Keep it that way: anything added to this line that could carry a secret needs redaction.
 */
export class OneLineRequestLog extends LogController {
  /** Per app logger: its child without redaction. */
  readonly #writers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply);
    const base = request.server.log;
    let writer = this.#writers.get(base);
    if (writer === undefined) {
      writer = base.child({}, { redact: [] });
      this.#writers.set(base, writer);
    }
    writer.info({ [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
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
