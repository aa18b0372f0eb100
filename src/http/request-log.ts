// The request log's shape and transport. Per-request logging was the largest cost of a cached read: two lines
// where one says it all, and one write(2) per line.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One access-log line per request, written when it ends (request, status, time), instead of Fastify's two.
 * Errors are still logged as Fastify does. The line skips the logger's redaction, which cost more than the rest of
 * the line: it holds only the serialized request (method, URL with sign-in tokens masked, host, address; never
 * headers) and the status, none of which the redaction paths cover. Keep it that way.
 */
export class OneLineRequestLog extends LogController {
  readonly #unredacted = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply);
    const base = request.server.log;
    let log = this.#unredacted.get(base);
    if (log === undefined) {
      log = base.child({}, { redact: [] });
      this.#unredacted.set(base, log);
    }
    log.info({ [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
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
