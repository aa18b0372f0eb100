// `trackcheck session-token --user <id> [--ttl <seconds>] [--login-url]`: for the embedded identity provider, a
// session token for the API, or with --login-url a one-time sign-in link for the web pages.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { issueSessionToken } from '../auth/embedded-idp.js';
import { issueLoginLink, MAX_LOGIN_LINK_TTL_SECONDS } from '../auth/login-link.js';
import { loadWebKeys } from '../auth/web-keys.js';

export async function sessionTokenCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' }, ttl: { type: 'string' }, 'login-url': { type: 'boolean' } } });
  if (!values.user) {
    console.error('session-token: --user <id> is required');
    return 2;
  }
  const config = loadConfig(env);
  if (config.identity.mode !== 'embedded') {
    console.error(
      'session-token: an external identity provider is configured (TRACKCHECK_JWKS_URL or TRACKCHECK_JWT_SECRET); get tokens from it',
    );
    return 2;
  }
  const ttlSeconds = values.ttl === undefined ? undefined : Number(values.ttl);
  if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) {
    console.error('session-token: --ttl must be a positive number of seconds');
    return 2;
  }
  try {
    if (values['login-url']) {
      if (ttlSeconds !== undefined && ttlSeconds > MAX_LOGIN_LINK_TTL_SECONDS) {
        console.error(`session-token: a sign-in link lives at most ${MAX_LOGIN_LINK_TTL_SECONDS} seconds (--ttl)`);
        return 2;
      }
      const keys = await loadWebKeys({ sessionSecret: config.sessionSecret, dataDir: config.dataDir });
      const link = await issueLoginLink({ key: keys.loginLink, userId: values.user, publicUrl: config.publicUrl, ttlSeconds });
      console.log(link.url);
      console.error(`one-time sign-in link for ${values.user}: works once, until ${link.expiresAt.toISOString()}`);
      return 0;
    }
    console.log(await issueSessionToken({ dataDir: config.dataDir, userId: values.user, ttlSeconds }));
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    console.error(`session-token: ${err.message}`);
    return 2;
  }
  return 0;
}
