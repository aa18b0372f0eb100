// The web pages' cookies: reading the Cookie header, writing Set-Cookie, and the names, which carry the
// `__Host-` prefix over https so a sibling subdomain or a plain-http response can never plant or overwrite them.
import type { FastifyReply, FastifyRequest } from 'fastify';

export type CookiePurpose = 'session' | 'csrf' | 'oidc';

const BASE_NAMES: Record<CookiePurpose, string> = {
  session: 'trackcheck_session',
  csrf: 'trackcheck_csrf',
  oidc: 'trackcheck_oidc',
};

/** Served over https: the public URL says so, or a trusted proxy does (X-Forwarded-Proto, TRACKCHECK_TRUST_PROXY). */
export function isSecureRequest(request: FastifyRequest, publicUrl: string): boolean {
  return publicUrl.startsWith('https:') || request.protocol === 'https';
}

export function cookieName(purpose: CookiePurpose, secure: boolean): string {
  return secure ? `__Host-${BASE_NAMES[purpose]}` : BASE_NAMES[purpose];
}

/** Cookie header → name/value map; the first of duplicate names wins (the most specific path, as browsers send). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

export function readCookie(request: FastifyRequest, purpose: CookiePurpose, secure: boolean): string | undefined {
  const value = parseCookies(request.headers.cookie).get(cookieName(purpose, secure));
  return value === undefined || value === '' ? undefined : value;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; omitted = a browser-session cookie; 0 = delete. */
  maxAge?: number;
}

// Values are base64url or compact JWS/JWE, so they never need quoting or escaping.
export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (opts.secure) parts.push('Secure');
  if (opts.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`);
    if (opts.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  return parts.join('; ');
}

/** Adds a Set-Cookie header (Fastify appends set-cookie values rather than replacing them). */
export function setCookie(reply: FastifyReply, purpose: CookiePurpose, value: string, opts: CookieOptions): void {
  reply.header('set-cookie', serializeCookie(cookieName(purpose, opts.secure), value, opts));
}

export function clearCookie(reply: FastifyReply, purpose: CookiePurpose, secure: boolean): void {
  setCookie(reply, purpose, '', { secure, maxAge: 0 });
}
