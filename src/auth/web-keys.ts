// The web secret: from TRACKCHECK_SESSION_SECRET, else a random one kept in the data dir (created atomically, like
// the embedded identity provider's key, so a server and a CLI sharing the dir agree on it). One independent key
// per purpose is derived from it, so a value made for one purpose is never accepted for another.
import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createPrivateFileOnce } from '../lib/private-file.js';

export const WEB_SECRET_FILE_NAME = 'web-session-secret';

export interface WebKeys {
  /** HS256 key of the session cookie (a JWT). */
  session: Uint8Array;
  /** HMAC key of the CSRF tokens. */
  csrf: Uint8Array;
  /** HS256 key of one-time sign-in links. */
  loginLink: Uint8Array;
  /** A256GCM key of the encrypted OpenID Connect transaction cookie (state, nonce, PKCE verifier). */
  oidcState: Uint8Array;
}

export function deriveWebKeys(secret: Uint8Array): WebKeys {
  const derive = (purpose: string) => new Uint8Array(hkdfSync('sha256', secret, 'trackcheck-web-v1', purpose, 32));
  return { session: derive('session'), csrf: derive('csrf'), loginLink: derive('login-link'), oidcState: derive('oidc-state') };
}

export function webSecretPath(dataDir: string): string {
  return path.resolve(dataDir, WEB_SECRET_FILE_NAME);
}

/** The configured secret, or the data dir's (created on first use). */
export async function loadWebKeys(opts: { sessionSecret: string | null; dataDir: string }): Promise<WebKeys> {
  if (opts.sessionSecret !== null) return deriveWebKeys(Buffer.from(opts.sessionSecret, 'utf8'));
  return deriveWebKeys(await loadOrCreateSecretFile(webSecretPath(opts.dataDir)));
}

async function readSecretFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read the web session secret ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
  const secret = Buffer.from(text.trim(), 'base64url');
  if (secret.length < 32) {
    throw new Error(`the web session secret ${file} is corrupt; delete it to create a new one (everyone is signed out)`);
  }
  return secret;
}

async function loadOrCreateSecretFile(file: string): Promise<Buffer> {
  const existing = await readSecretFile(file);
  if (existing) return existing;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await createPrivateFileOnce(file, `${randomBytes(32).toString('base64url')}\n`);
  const created = await readSecretFile(file);
  if (!created) throw new Error(`the web session secret ${file} vanished right after it was created`);
  return created;
}
