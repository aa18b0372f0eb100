// Request logs show each request's URL. A one-time sign-in link carries its token in the query string
// (/auth/login?token=…), and whoever reads the log before the link is used could sign in with it: `token` query
// values are masked in the logged URL.
import type { FastifyServerOptions } from 'fastify';

interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  host: string;
  ip: string;
  socket?: { remotePort?: number };
}

export function maskUrlTokens(url: string): string {
  if (!url.includes('=')) return url; // nothing to mask, and no regular expression run per request
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/** Fastify's own request serializer (same fields), with the URL masked. */
export function serializeRequestForLog(req: LoggedRequest) {
  return {
    method: req.method,
    url: maskUrlTokens(req.url),
    version: typeof req.headers['accept-version'] === 'string' ? req.headers['accept-version'] : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions['logger'];

export function withMaskedUrls(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { req: serializeRequestForLog, ...base.serializers } };
}
