// Request logs show each request's URL, and whoever reads the log must not be able to act as the caller. Masked
// wherever they appear in it (path or query): API keys (pg_live_…), session tokens (JWTs, eyJ…), and the values of the
// query parameters that carry credentials by convention (token, key, api_key, apikey, access_token; a one-time
// sign-in link is /auth/login?token=…). The one redaction of URLs for every log line that shows one.
import type { FastifyServerOptions } from 'fastify';
import { clientIp } from './client-address.js';

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

const SECRET_PARAMETERS = new Set(['token', 'key', 'api_key', 'apikey', 'api-key', 'access_token']);
const API_KEY = /pg(?:_|%5f)live(?:_|%5f)[0-9a-z-]*/gi;
const JWT = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const PARAMETER = /([?&;])([^=&#;]*)=([^&#;]*)/g;

function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

export function maskUrlTokens(url: string): string {
  // Most URLs hold none of it: no regular expression runs for them.
  if (!url.includes('=') && !url.includes('eyJ') && !/pg(?:_|%5f)live/i.test(url)) return url;
  return url
    .replace(API_KEY, 'pg_live_[redacted]')
    .replace(JWT, '[redacted]')
    .replace(PARAMETER, (whole, separator: string, name: string) =>
      SECRET_PARAMETERS.has(parameterName(name)) ? `${separator}${name}=[redacted]` : whole,
    );
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
