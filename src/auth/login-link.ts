// One-time sign-in links for the embedded identity provider: `trackcheck session-token --user <id> --login-url`
// prints `<public URL>/auth/login?token=<JWT>`. The JWT (HS256, the login-link key of web-keys.ts) names the user,
// a random id and a short expiry; using it records the id as spent (web/spent-tokens.ts), so it works exactly once.
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { WEB_ISSUER, isValidUserId } from './web-user.js';

export const LOGIN_LINK_AUDIENCE = 'urn:trackcheck:web-login';
export const LOGIN_LINK_PATH = '/auth/login';
export const DEFAULT_LOGIN_LINK_TTL_SECONDS = 15 * 60;
export const MAX_LOGIN_LINK_TTL_SECONDS = 24 * 60 * 60;

export interface IssuedLoginLink {
  url: string;
  expiresAt: Date;
}

export async function issueLoginLink(opts: {
  key: Uint8Array;
  userId: string;
  publicUrl: string;
  ttlSeconds?: number;
  nowMs?: number;
}): Promise<IssuedLoginLink> {
  const ttl = opts.ttlSeconds ?? DEFAULT_LOGIN_LINK_TTL_SECONDS;
  if (!isValidUserId(opts.userId)) throw new RangeError('userId must be 1 to 255 characters');
  if (!Number.isSafeInteger(ttl) || ttl <= 0 || ttl > MAX_LOGIN_LINK_TTL_SECONDS) {
    throw new RangeError(`a sign-in link lives between 1 and ${MAX_LOGIN_LINK_TTL_SECONDS} seconds`);
  }
  const now = Math.floor((opts.nowMs ?? Date.now()) / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(WEB_ISSUER)
    .setAudience(LOGIN_LINK_AUDIENCE)
    .setSubject(opts.userId)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .sign(opts.key);
  return { url: `${opts.publicUrl.replace(/\/+$/, '')}${LOGIN_LINK_PATH}?token=${token}`, expiresAt: new Date((now + ttl) * 1000) };
}

export type LoginLinkCheck = { ok: true; userId: string; jti: string; expiresAtMs: number } | { ok: false; reason: 'invalid' | 'expired' };

/** Signature, audience and expiry; whether it was used already is the caller's question (spent tokens). */
export async function verifyLoginLink(key: Uint8Array, token: unknown, nowMs: number): Promise<LoginLinkCheck> {
  if (typeof token !== 'string' || token === '' || token.length > 2048) return { ok: false, reason: 'invalid' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: WEB_ISSUER,
      audience: LOGIN_LINK_AUDIENCE,
      requiredClaims: ['sub', 'jti', 'exp'],
      currentDate: new Date(nowMs),
      clockTolerance: 0,
    });
    if (!isValidUserId(payload.sub) || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, userId: payload.sub, jti: payload.jti, expiresAtMs: payload.exp * 1000 };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
