// Remote mode of the CLI: which service to talk to (--server, TRACKCHECK_SERVER) with which bearer
// (TRACKCHECK_API_KEY), the client built from them, and how its failures read in a terminal. The variables come
// in through the `env` that main() passes every command, like the rest of the CLI's configuration.
import { TrackcheckApiError, TrackcheckClient, TrackcheckConnectionError, TrackcheckTimeoutError } from '../client/index.js';
import type { FetchLike, Sleep } from '../client/index.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:3000';

type Env = Record<string, string | undefined>;

/** Bad flags, variables or input: exit code 2 with this message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Where a command's output goes; tests pass their own streams, isTTY and time. */
export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  fetch?: FetchLike;
  sleep?: Sleep;
}

export const processIo = (): CliIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

const API_KEY = /^pg_live_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** True when the command should run through a service rather than the local engine. */
export function wantsServer(flag: string | undefined, env: Env): boolean {
  return nonEmpty(flag) !== undefined || nonEmpty(env.TRACKCHECK_SERVER) !== undefined;
}

/** --server, else TRACKCHECK_SERVER, else the local default; an http(s) URL without a trailing slash. */
export function resolveServer(flag: string | undefined, env: Env): string {
  const fromFlag = nonEmpty(flag);
  const raw = fromFlag ?? nonEmpty(env.TRACKCHECK_SERVER) ?? DEFAULT_SERVER;
  const source = fromFlag !== undefined ? '--server' : 'TRACKCHECK_SERVER';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source}: not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${source}: expected an http(s) URL, got "${raw}"`);
  return url.href.replace(/\/+$/, '');
}

/** TRACKCHECK_API_KEY: an API key (pg_live_…) or a session token; null when unset. */
export function readToken(env: Env, required: boolean): { apiKey?: string; sessionToken?: string } {
  const raw = nonEmpty(env.TRACKCHECK_API_KEY);
  if (raw === undefined) {
    if (required) throw new UsageError('TRACKCHECK_API_KEY is not set: create a key (see docs/first-five-minutes.md) and export it');
    return {};
  }
  if (API_KEY.test(raw)) return { apiKey: raw };
  if (JWT.test(raw)) return { sessionToken: raw };
  throw new UsageError('TRACKCHECK_API_KEY: expected an API key (pg_live_…) or a session token');
}

export function createRemoteClient(server: string, token: { apiKey?: string; sessionToken?: string }, io: CliIo): TrackcheckClient {
  return new TrackcheckClient({
    baseUrl: server,
    ...token,
    fetch: io.fetch,
    sleep: io.sleep,
    userAgent: 'trackcheck-cli',
    // A pause the user did not ask for deserves one line of explanation.
    onRetry: (e) => {
      const why = e.error instanceof TrackcheckApiError ? `${e.error.status} ${e.error.code}` : 'no answer';
      io.stderr.write(`${e.method} ${e.path}: ${why}; retrying in ${Math.max(1, Math.round(e.delayMs / 1000))} s\n`);
    },
  });
}

/** One line for a failure of the client, or null when `err` is something else (a bug: rethrow it). */
export function describeRemoteFailure(err: unknown, server: string): string | null {
  if (err instanceof TrackcheckApiError) {
    const hint =
      err.code === 'authentication_required'
        ? ' (set TRACKCHECK_API_KEY)'
        : err.code === 'anonymous_check_limit_reached'
          ? ' (set TRACKCHECK_API_KEY to check without the weekly cap)'
          : '';
    const request = err.requestId ? ` [${err.requestId}]` : '';
    return `${err.code}: ${err.message}${hint}${request}`;
  }
  if (err instanceof TrackcheckConnectionError) return `cannot reach ${server}: ${err.message.replace(/^\S+ \S+: /, '')}`;
  if (err instanceof TrackcheckTimeoutError) return err.message;
  return null;
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
