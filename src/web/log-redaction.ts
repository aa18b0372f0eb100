// Request logs show each request's URL. A one-time sign-in link carries its token in the query string
// (/auth/login?token=…), and whoever reads the log before the link is used could sign in with it: `token` query
// values are masked in the logged URL.
import type { FastifyServerOptions } from 'fastify';
import { clientIp } from '../http/client-address.js';

interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  host: string;
  ip: string;
  /** Set once the request reached the hooks; requests refused before routing compute it here. */
  clientIp?: string;
  socket?: { remotePort?: number; remoteAddress?: string };
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
    // The validated address, never a raw X-Forwarded-For entry.
    remoteAddress: req.clientIp || clientIp(req),
    remotePort: req.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions['logger'];

export function withMaskedUrls(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { req: serializeRequestForLog, ...base.serializers } };
}
