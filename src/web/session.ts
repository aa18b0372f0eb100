// The web session: a compact JWT (HS256, the session key of auth/web-keys.ts) in an HttpOnly cookie. It carries the
// user id, a display name, a random session id (`jti`, which CSRF tokens are bound to and sign-out revokes) and
// a fixed expiry. Nothing secret is inside; the signature is what makes it trustworthy.
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { WEB_ISSUER, isValidUserId } from '../auth/web-user.js';
import type { Clock } from '../rate-limit/window.js';

export const SESSION_AUDIENCE = 'urn:trackcheck:web-session';

export interface WebSession {
  userId: string;
  /** What the navigation shows: the e-mail, username or name from the identity provider, else the user id. */
  name: string;
  /** Random per sign-in; CSRF tokens are bound to it and signing out revokes it. */
  sid: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface SessionCodec {
  issue(user: { userId: string; name?: string }): Promise<{ token: string; session: WebSession }>;
  /** The session, or null for anything not issued by us, tampered with, or expired. */
  read(token: string): Promise<WebSession | null>;
  ttlSeconds: number;
}

const displayName = (name: string | undefined, userId: string) => {
  const trimmed = name?.trim();
  return trimmed && trimmed.length <= 200 ? trimmed : userId;
};

export function createSessionCodec(opts: { key: Uint8Array; clock: Clock; ttlSeconds: number }): SessionCodec {
  const { key, clock, ttlSeconds } = opts;
  return {
    ttlSeconds,
    async issue(user) {
      if (!isValidUserId(user.userId)) throw new RangeError('user id must be 1 to 255 characters');
      const now = Math.floor(clock.now() / 1000);
      const sid = randomBytes(18).toString('base64url');
      const name = displayName(user.name, user.userId);
      const token = await new SignJWT({ name })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(WEB_ISSUER)
        .setAudience(SESSION_AUDIENCE)
        .setSubject(user.userId)
        .setJti(sid)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(key);
      return { token, session: { userId: user.userId, name, sid, expiresAt: (now + ttlSeconds) * 1000 } };
    },

    async read(token) {
      if (token.length > 4096) return null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: WEB_ISSUER,
          audience: SESSION_AUDIENCE,
          requiredClaims: ['sub', 'jti', 'exp'],
          currentDate: new Date(clock.now()),
        });
        if (!isValidUserId(payload.sub) || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
        const name = typeof payload.name === 'string' ? payload.name : undefined;
        return { userId: payload.sub, name: displayName(name, payload.sub), sid: payload.jti, expiresAt: payload.exp * 1000 };
      } catch {
        return null;
      }
    },
  };
}
