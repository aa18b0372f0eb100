// A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the sign-in tests, with one registered confidential
// client, PKCE required, and a minimal interaction of our own (a username form; no password, consent granted with
// the login). Its pages load nothing from elsewhere, unlike the library's development pages (which import web fonts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'trackcheck-web';
export const CLIENT_SECRET = 'test-client-secret-0123456789abcdef';

export interface TestOidcProvider {
  issuer: string;
  /** Registers the client's redirect URI (known only once trackcheck listens) and starts answering. */
  configure(redirectUri: string): Promise<void>;
  /** Authorization requests seen by the interaction: user, PKCE method, scope. */
  readonly seen: { login: string; codeChallengeMethod: string | undefined; scope: string | undefined }[];
  close(): Promise<void>;
}

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test identity provider</title></head><body>${body}</body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return new URLSearchParams(text);
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  let provider: Provider | null = null;
  const seen: TestOidcProvider['seen'] = [];

  async function interaction(p: Provider, req: http.IncomingMessage, res: http.ServerResponse, uid: string, action: string | undefined) {
    const details = await p.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        page(`<h1>Test identity provider</h1><form method="post" action="/interaction/${uid}/login">
<label for="login">Username</label> <input id="login" name="login" autocomplete="off" required> <button type="submit">Sign in</button></form>`),
      );
      return;
    }
    if (action === 'abort') {
      await p.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const login = (await readForm(req)).get('login') ?? '';
    const params = details.params as Record<string, string | undefined>;
    seen.push({ login, codeChallengeMethod: params.code_challenge_method, scope: params.scope });
    const grant = new p.Grant({ accountId: login, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope));
    const grantId = await grant.save();
    await p.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  const server = http.createServer((req, res) => {
    const current = provider;
    if (!current) {
      res.writeHead(503).end('not configured yet');
      return;
    }
    const match = /^\/interaction\/([^/?]+)(?:\/(login|abort))?/.exec(req.url ?? '');
    if (match?.[1]) {
      interaction(current, req, res, match[1], match[2]).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${String(err)}`);
      });
      return;
    }
    current.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };

  return {
    issuer,
    seen,
    async configure(redirectUri) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [signingKey] },
        cookies: { keys: ['test-cookie-signing-key-0123456789'] },
        pkce: { required: () => true },
        ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
        findAccount: (_ctx, sub) => ({
          accountId: sub,
          claims: () => ({ sub, email: `${sub}@example.test`, email_verified: true, name: `Test user ${sub}`, preferred_username: sub }),
        }),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
